CREATE TABLE "job_schedules" (
	"name" varchar(100) PRIMARY KEY NOT NULL,
	"next_run_at" timestamp with time zone NOT NULL,
	"lease_until" timestamp with time zone,
	"last_started_at" timestamp with time zone,
	"last_finished_at" timestamp with time zone,
	"last_log_id" bigint
);
--> statement-breakpoint
DROP INDEX "event_logs_parent";--> statement-breakpoint
CREATE INDEX "event_logs_top_datetime" ON "event_logs" USING btree ("log_datetime" DESC NULLS LAST,"id") WHERE "event_logs"."parent_id" IS NULL;--> statement-breakpoint
CREATE INDEX "event_logs_top_level" ON "event_logs" USING btree ("log_level","log_datetime" DESC NULLS LAST,"id") WHERE "event_logs"."parent_id" IS NULL;--> statement-breakpoint
CREATE INDEX "event_logs_top_group" ON "event_logs" USING btree ("event_group_id","log_datetime" DESC NULLS LAST,"id") WHERE "event_logs"."parent_id" IS NULL;--> statement-breakpoint
CREATE INDEX "event_logs_location" ON "event_logs" USING btree ("location_id","log_datetime" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "event_logs_parent" ON "event_logs" USING btree ("parent_id","log_datetime","id");