CREATE TABLE "instance_license" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"instance_id" uuid NOT NULL,
	"document" text,
	"company_name" varchar(250),
	"date_from" date,
	"date_to" date,
	"device_count" integer,
	"uploaded_at" timestamp with time zone,
	"uploaded_by" integer,
	CONSTRAINT "instance_license_single_row" CHECK ("instance_license"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "licenses" (
	"id" serial PRIMARY KEY NOT NULL,
	"location_id" integer NOT NULL,
	"date_from" date NOT NULL,
	"date_to" date NOT NULL,
	"device_count" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "licenses_location_id_unique" UNIQUE("location_id"),
	CONSTRAINT "licenses_dates" CHECK ("licenses"."date_from" <= "licenses"."date_to"),
	CONSTRAINT "licenses_count" CHECK ("licenses"."device_count" >= 1)
);
--> statement-breakpoint
ALTER TABLE "instance_license" ADD CONSTRAINT "instance_license_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licenses" ADD CONSTRAINT "licenses_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE cascade ON UPDATE no action;