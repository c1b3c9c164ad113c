-- Plausibility of meter reads (issue 41): what ingest found implausible in a reading against the
-- device's previous one (a step faster than the device prints, a meter going backwards, black-and-
-- white plus colour not adding up to the total). The reading itself is stored as always; this is
-- its note, for the device card, home's data quality and the meter-read report.
CREATE TABLE "meter_flags" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"device_id" integer NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"kind" varchar(10) NOT NULL,
	"meter" varchar(20) NOT NULL,
	"previous_value" bigint,
	"value" bigint,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "meter_flags" ADD CONSTRAINT "meter_flags_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "meter_flags_device_at" ON "meter_flags" USING btree ("device_id","at");--> statement-breakpoint
CREATE INDEX "meter_flags_at" ON "meter_flags" USING btree ("at");
