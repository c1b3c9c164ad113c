DROP INDEX "event_logs_top_datetime";--> statement-breakpoint
DROP INDEX "event_logs_top_level";--> statement-breakpoint
DROP INDEX "event_logs_top_group";--> statement-breakpoint
CREATE INDEX "event_logs_top_date" ON "event_logs" USING btree ("log_datetime" DESC NULLS LAST,"id","location_id") WHERE "event_logs"."parent_id" IS NULL;--> statement-breakpoint
CREATE INDEX "event_logs_top_level_date" ON "event_logs" USING btree ("log_level","log_datetime" DESC NULLS LAST,"id","location_id") WHERE "event_logs"."parent_id" IS NULL;--> statement-breakpoint
CREATE INDEX "event_logs_top_group_date" ON "event_logs" USING btree ("event_group_id","log_datetime" DESC NULLS LAST,"id","location_id") WHERE "event_logs"."parent_id" IS NULL;