CREATE TABLE "dictionaries" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" varchar(50) NOT NULL,
	"name" varchar(250) NOT NULL,
	"name_ru" varchar(250),
	"hierarchical" boolean DEFAULT false NOT NULL,
	"is_system" boolean DEFAULT false NOT NULL,
	CONSTRAINT "dictionaries_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "dictionary_attribute_values" (
	"id" serial PRIMARY KEY NOT NULL,
	"attribute_id" integer NOT NULL,
	"item_id" integer NOT NULL,
	"valid_from" date,
	"string_value" text,
	"numeric_value" numeric,
	"date_value" date,
	"flag_value" boolean,
	CONSTRAINT "dictionary_attribute_values_key" UNIQUE NULLS NOT DISTINCT("attribute_id","item_id","valid_from")
);
--> statement-breakpoint
CREATE TABLE "dictionary_attributes" (
	"id" serial PRIMARY KEY NOT NULL,
	"dictionary_id" integer NOT NULL,
	"code" varchar(50) NOT NULL,
	"name" varchar(250) NOT NULL,
	"value_type" char(1) NOT NULL,
	"versioned" boolean DEFAULT false NOT NULL,
	CONSTRAINT "dictionary_attributes_code" UNIQUE("dictionary_id","code")
);
--> statement-breakpoint
CREATE TABLE "dictionary_items" (
	"id" integer PRIMARY KEY DEFAULT nextval('locations_id_seq') NOT NULL,
	"dictionary_id" integer NOT NULL,
	"code" varchar(50) NOT NULL,
	"name" varchar(250) NOT NULL,
	"name_ru" varchar(250),
	"parent_id" integer,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"description" text,
	CONSTRAINT "dictionary_items_code" UNIQUE("dictionary_id","code")
);
--> statement-breakpoint
CREATE TABLE "location_plan_placements" (
	"location_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	"x" real NOT NULL,
	"y" real NOT NULL,
	CONSTRAINT "location_plan_placements_location_id_device_id_pk" PRIMARY KEY("location_id","device_id")
);
--> statement-breakpoint
CREATE TABLE "location_plans" (
	"location_id" integer PRIMARY KEY NOT NULL,
	"content_type" varchar(50) NOT NULL,
	"data" "bytea" NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "sort_order" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "description" text;--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "address_index" varchar(20);--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "city" varchar(250);--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "street" varchar(250);--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "house" varchar(50);--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "floor" varchar(50);--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "room" varchar(50);--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "contact_name" varchar(250);--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "contact_position" varchar(250);--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "contact_phones" varchar(250);--> statement-breakpoint
ALTER TABLE "locations" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "dictionary_attribute_values" ADD CONSTRAINT "dictionary_attribute_values_attribute_id_dictionary_attributes_id_fk" FOREIGN KEY ("attribute_id") REFERENCES "public"."dictionary_attributes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dictionary_attributes" ADD CONSTRAINT "dictionary_attributes_dictionary_id_dictionaries_id_fk" FOREIGN KEY ("dictionary_id") REFERENCES "public"."dictionaries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dictionary_items" ADD CONSTRAINT "dictionary_items_dictionary_id_dictionaries_id_fk" FOREIGN KEY ("dictionary_id") REFERENCES "public"."dictionaries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dictionary_items" ADD CONSTRAINT "dictionary_items_parent_id_dictionary_items_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."dictionary_items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "location_plan_placements" ADD CONSTRAINT "location_plan_placements_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "location_plans" ADD CONSTRAINT "location_plans_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dictionary_attribute_values_item" ON "dictionary_attribute_values" USING btree ("item_id");--> statement-breakpoint
CREATE INDEX "dictionary_items_parent" ON "dictionary_items" USING btree ("parent_id");