CREATE INDEX "device_supplies_grid_level" ON "device_supplies" USING btree ("percent" NULLS FIRST,"part_name" NULLS FIRST,"device_id","supply_index");--> statement-breakpoint
CREATE INDEX "devices_grid_model" ON "devices" USING btree ("model_code" NULLS FIRST,"serial_number" NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "devices_grid_location_model" ON "devices" USING btree ("location_id","model_code" NULLS FIRST,"serial_number" NULLS FIRST,"id");--> statement-breakpoint
CREATE INDEX "devices_flag_attention" ON "devices" USING btree ("location_id","id") WHERE "devices"."need_attention_flag";--> statement-breakpoint
CREATE INDEX "devices_flag_replacement" ON "devices" USING btree ("location_id","id") WHERE "devices"."mat_replacement_required_flag";--> statement-breakpoint
CREATE INDEX "devices_flag_not_available" ON "devices" USING btree ("location_id","id") WHERE "devices"."not_available_flag";