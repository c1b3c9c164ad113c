ALTER TABLE "devices" ADD COLUMN "derived_counters" varchar(100) DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "a3_bw_count" bigint;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "a3_color_count" bigint;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "a4_bw_count" bigint;--> statement-breakpoint
ALTER TABLE "devices" ADD COLUMN "a4_color_count" bigint;--> statement-breakpoint
ALTER TABLE "dm_device_days" ADD COLUMN "a3_bw_count" bigint;--> statement-breakpoint
ALTER TABLE "dm_device_days" ADD COLUMN "a3_color_count" bigint;--> statement-breakpoint
ALTER TABLE "dm_device_days" ADD COLUMN "a4_bw_count" bigint;--> statement-breakpoint
ALTER TABLE "dm_device_days" ADD COLUMN "a4_color_count" bigint;