ALTER TABLE "consumables" ADD COLUMN "pages_left" integer;--> statement-breakpoint
ALTER TABLE "consumables" ADD COLUMN "days_left" real;--> statement-breakpoint
ALTER TABLE "consumables" ADD COLUMN "runs_out_on" date;--> statement-breakpoint
ALTER TABLE "consumables" ADD COLUMN "forecast_reason" varchar(30);--> statement-breakpoint
ALTER TABLE "consumables" ADD COLUMN "forecast_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "consumables_runs_out" ON "consumables" USING btree ("runs_out_on","device_id","supply_index");--> statement-breakpoint
CREATE INDEX "consumables_location_runs_out" ON "consumables" USING btree ("location_id","runs_out_on","device_id","supply_index");