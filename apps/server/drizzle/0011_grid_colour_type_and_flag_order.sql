DROP INDEX "devices_flag_attention";--> statement-breakpoint
DROP INDEX "devices_flag_replacement";--> statement-breakpoint
DROP INDEX "devices_flag_not_available";--> statement-breakpoint
CREATE INDEX "device_supplies_grid_colorant_level" ON "device_supplies" USING btree ("colorant","percent" NULLS FIRST,"part_name" NULLS FIRST,"device_id","supply_index");--> statement-breakpoint
CREATE INDEX "devices_grid_location_type_model" ON "devices" USING btree ("location_id","device_type","model_code" NULLS FIRST,"serial_number" NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "devices_flag_attention" ON "devices" USING btree ("location_id" NULLS FIRST,"ip" NULLS FIRST,"id") WHERE "devices"."need_attention_flag";--> statement-breakpoint
CREATE INDEX "devices_flag_replacement" ON "devices" USING btree ("location_id" NULLS FIRST,"ip" NULLS FIRST,"id") WHERE "devices"."mat_replacement_required_flag";--> statement-breakpoint
CREATE INDEX "devices_flag_not_available" ON "devices" USING btree ("location_id" NULLS FIRST,"ip" NULLS FIRST,"id") WHERE "devices"."not_available_flag";