CREATE TABLE "device_walk_requests" (
	"device_id" integer PRIMARY KEY NOT NULL,
	"agent_id" integer,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"requested_by" integer
);
--> statement-breakpoint
CREATE TABLE "dm_device_user_days" (
	"id" serial PRIMARY KEY NOT NULL,
	"fact_date" date NOT NULL,
	"device_id" integer NOT NULL,
	"location_id" integer NOT NULL,
	"username" varchar(255) NOT NULL,
	"printed_page_count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "device_walk_requests" ADD CONSTRAINT "device_walk_requests_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dm_device_user_days" ADD CONSTRAINT "dm_device_user_days_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_walk_requests_agent" ON "device_walk_requests" USING btree ("agent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "dm_device_user_days_key" ON "dm_device_user_days" USING btree ("device_id","fact_date","username");