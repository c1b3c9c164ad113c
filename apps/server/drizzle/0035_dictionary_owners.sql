-- A dictionary belongs to a location (a customer's, in cloud mode), whose scope reads and changes
-- it; a system dictionary belongs to none and only the default administrator changes it (issue
-- 39: one customer's administrator read, renamed and deleted another's). The dictionaries made
-- before had no owner: they become the DEFAULT location's, the default administrator's to hand on.
ALTER TABLE "dictionaries" ADD COLUMN "location_id" integer;--> statement-breakpoint
UPDATE "dictionaries" SET "location_id" = COALESCE((SELECT "id" FROM "locations" WHERE "code" = 'DEFAULT'), (SELECT min("id") FROM "locations")) WHERE NOT "is_system";--> statement-breakpoint
ALTER TABLE "dictionaries" ADD CONSTRAINT "dictionaries_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dictionaries" ADD CONSTRAINT "dictionaries_owner" CHECK ("is_system" = ("location_id" IS NULL));--> statement-breakpoint
CREATE INDEX "dictionaries_location" ON "dictionaries" USING btree ("location_id");
