-- One name for one thing: the supplies of a device are its consumables, from the table to the screen.
ALTER TABLE "device_supplies" RENAME TO "consumables";--> statement-breakpoint
ALTER TABLE "consumables" RENAME CONSTRAINT "device_supplies_device_id_supply_index_pk" TO "consumables_device_id_supply_index_pk";--> statement-breakpoint
ALTER TABLE "consumables" RENAME CONSTRAINT "device_supplies_device_id_devices_id_fk" TO "consumables_device_id_devices_id_fk";--> statement-breakpoint
ALTER INDEX "device_supplies_percent" RENAME TO "consumables_percent";--> statement-breakpoint
ALTER INDEX "device_supplies_grid_level" RENAME TO "consumables_grid_level";--> statement-breakpoint
ALTER INDEX "device_supplies_grid_location_level" RENAME TO "consumables_grid_location_level";--> statement-breakpoint
ALTER INDEX "device_supplies_grid_location_model" RENAME TO "consumables_grid_location_model";--> statement-breakpoint
ALTER INDEX "device_supplies_grid_colorant_level" RENAME TO "consumables_grid_colorant_level";--> statement-breakpoint
-- The supply's own trigger reads only NEW and devices: it keeps its body under the new name.
ALTER TRIGGER device_supplies_take_device ON consumables RENAME TO consumables_take_device;--> statement-breakpoint
ALTER FUNCTION device_supplies_take_device() RENAME TO consumables_take_device;--> statement-breakpoint
-- ...and follows them when the device moves or is recognised as another model.
CREATE OR REPLACE FUNCTION devices_give_supplies() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE consumables SET location_id = NEW.location_id, model_code = NEW.model_code WHERE device_id = NEW.id;
  RETURN NULL;
END $$;
