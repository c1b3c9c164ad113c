ALTER TABLE "device_supplies" ADD COLUMN "location_id" integer;--> statement-breakpoint
ALTER TABLE "device_supplies" ADD COLUMN "model_code" varchar(250);--> statement-breakpoint
UPDATE "device_supplies" s SET "location_id" = d."location_id", "model_code" = d."model_code" FROM "devices" d WHERE d."id" = s."device_id";--> statement-breakpoint
-- A supply takes its device's location and model when it is written...
CREATE FUNCTION device_supplies_take_device() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT d.location_id, d.model_code INTO NEW.location_id, NEW.model_code FROM devices d WHERE d.id = NEW.device_id;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER device_supplies_take_device BEFORE INSERT OR UPDATE OF device_id, location_id, model_code ON device_supplies
  FOR EACH ROW EXECUTE FUNCTION device_supplies_take_device();--> statement-breakpoint
-- ...and follows them when the device moves or is recognised as another model.
CREATE FUNCTION devices_give_supplies() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE device_supplies SET location_id = NEW.location_id, model_code = NEW.model_code WHERE device_id = NEW.id;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER devices_give_supplies AFTER UPDATE OF location_id, model_code ON devices
  FOR EACH ROW WHEN (OLD.location_id IS DISTINCT FROM NEW.location_id OR OLD.model_code IS DISTINCT FROM NEW.model_code)
  EXECUTE FUNCTION devices_give_supplies();--> statement-breakpoint
CREATE INDEX "device_supplies_grid_location_level" ON "device_supplies" USING btree ("location_id","percent" NULLS FIRST,"part_name" NULLS FIRST,"device_id","supply_index");--> statement-breakpoint
CREATE INDEX "device_supplies_grid_location_model" ON "device_supplies" USING btree ("location_id","model_code" NULLS FIRST,"part_name" NULLS FIRST,"device_id","supply_index");
