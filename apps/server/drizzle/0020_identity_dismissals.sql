CREATE TABLE "device_identity_dismissals" (
	"older_id" integer NOT NULL,
	"newer_id" integer NOT NULL,
	"dismissed_by" integer,
	"dismissed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "device_identity_dismissals_older_id_newer_id_pk" PRIMARY KEY("older_id","newer_id")
);
--> statement-breakpoint
ALTER TABLE "device_identity_dismissals" ADD CONSTRAINT "device_identity_dismissals_older_id_devices_id_fk" FOREIGN KEY ("older_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "device_identity_dismissals" ADD CONSTRAINT "device_identity_dismissals_newer_id_devices_id_fk" FOREIGN KEY ("newer_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_identity_dismissals_newer" ON "device_identity_dismissals" USING btree ("newer_id");