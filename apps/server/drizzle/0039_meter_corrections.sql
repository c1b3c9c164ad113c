-- Meter corrections (issue 41): an offset a meter reads from a day on (a board swapped, a counter
-- reset), applied by the reports and exports; the stored readings never change. A correction is
-- never deleted: it is withdrawn, with who, when and why, and stays listed.
CREATE TABLE "meter_corrections" (
	"id" serial PRIMARY KEY NOT NULL,
	"device_id" integer NOT NULL,
	"meter" varchar(20) NOT NULL,
	"from_date" date NOT NULL,
	"offset_pages" bigint NOT NULL,
	"reason" varchar(500) NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"withdrawn_by" integer,
	"withdrawn_at" timestamp with time zone,
	"withdraw_reason" varchar(500)
);
--> statement-breakpoint
ALTER TABLE "meter_corrections" ADD CONSTRAINT "meter_corrections_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meter_corrections" ADD CONSTRAINT "meter_corrections_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "meter_corrections" ADD CONSTRAINT "meter_corrections_withdrawn_by_users_id_fk" FOREIGN KEY ("withdrawn_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "meter_corrections_device" ON "meter_corrections" USING btree ("device_id","from_date");
