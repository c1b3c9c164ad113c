-- The text filters of the grids (contains, starts with, ends with) read trigram indexes. pg_trgm ships with PostgreSQL and with PGlite.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE INDEX "consumables_part_name_trgm" ON "consumables" USING gin ("part_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "consumables_part_model_trgm" ON "consumables" USING gin ("part_model_code" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "devices_serial_trgm" ON "devices" USING gin ("serial_number" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "devices_inventory_trgm" ON "devices" USING gin ("inventory_number" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "devices_model_trgm" ON "devices" USING gin ("model_code" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "devices_host_trgm" ON "devices" USING gin ("host_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "devices_ip_trgm" ON "devices" USING gin ("ip" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "devices_snmp_location_trgm" ON "devices" USING gin ("snmp_location" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "event_logs_top_message_trgm" ON "event_logs" USING gin ("message" gin_trgm_ops) WHERE "event_logs"."parent_id" IS NULL;