-- Models and part names, which a text filter often matches by the thousand, are read in the grid's
-- order and tested row by row: their grid indexes end with the lowered text, which the filter
-- (lower(column) LIKE lower(pattern), list-query.ts) then reads from the index instead of lowering
-- each row as ILIKE does; their trigram indexes hold the lowered text as well.
DROP INDEX "consumables_grid_level";--> statement-breakpoint
DROP INDEX "consumables_grid_location_level";--> statement-breakpoint
DROP INDEX "consumables_grid_location_model";--> statement-breakpoint
DROP INDEX "consumables_grid_colorant_level";--> statement-breakpoint
DROP INDEX "consumables_part_name_trgm";--> statement-breakpoint
DROP INDEX "devices_grid_model";--> statement-breakpoint
DROP INDEX "devices_grid_location_model";--> statement-breakpoint
DROP INDEX "devices_grid_location_type_model";--> statement-breakpoint
DROP INDEX "devices_model_trgm";--> statement-breakpoint
CREATE INDEX "consumables_grid_level" ON "consumables" USING btree ("percent" NULLS FIRST,"part_name" NULLS FIRST,"device_id","supply_index",lower("part_name"));--> statement-breakpoint
CREATE INDEX "consumables_grid_location_level" ON "consumables" USING btree ("location_id","percent" NULLS FIRST,"part_name" NULLS FIRST,"device_id","supply_index",lower("part_name"));--> statement-breakpoint
CREATE INDEX "consumables_grid_location_model" ON "consumables" USING btree ("location_id","model_code" NULLS FIRST,"part_name" NULLS FIRST,"device_id","supply_index",lower("part_name"));--> statement-breakpoint
CREATE INDEX "consumables_grid_colorant_level" ON "consumables" USING btree ("colorant","percent" NULLS FIRST,"part_name" NULLS FIRST,"device_id","supply_index",lower("part_name"));--> statement-breakpoint
CREATE INDEX "consumables_part_name_trgm" ON "consumables" USING gin (lower("part_name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "devices_grid_model" ON "devices" USING btree ("model_code" NULLS FIRST,"serial_number" NULLS FIRST,"id",lower("model_code"));--> statement-breakpoint
CREATE INDEX "devices_grid_location_model" ON "devices" USING btree ("location_id","model_code" NULLS FIRST,"serial_number" NULLS FIRST,"id",lower("model_code"));--> statement-breakpoint
CREATE INDEX "devices_grid_location_type_model" ON "devices" USING btree ("location_id","device_type","model_code" NULLS FIRST,"serial_number" NULLS FIRST,"id",lower("model_code"));--> statement-breakpoint
CREATE INDEX "devices_model_trgm" ON "devices" USING gin (lower("model_code") gin_trgm_ops);;--> statement-breakpoint
-- The planner's statistics of the lowered texts come with the next ANALYZE (they are the new
-- indexes' expressions); until then it would guess how many rows a pattern matches.
ANALYZE "devices";--> statement-breakpoint
ANALYZE "consumables";
