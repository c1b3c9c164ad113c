-- A room plan's bytes in parts of 128 KB, one statement each (issue 52): on PGlite, the one
-- connection in the server's process, storing or reading a 10 MB plan in one statement held
-- every request, the health probe included, for seconds. location_plans keeps the type and
-- names the upload whose parts are the bytes; the plans stored so far become upload 0.
CREATE SEQUENCE "public"."location_plan_uploads" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "location_plan_parts" (
	"location_id" integer NOT NULL,
	"upload" bigint NOT NULL,
	"part" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "location_plan_parts_location_id_upload_part_pk" PRIMARY KEY("location_id","upload","part")
);
--> statement-breakpoint
ALTER TABLE "location_plan_parts" ADD CONSTRAINT "location_plan_parts_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
INSERT INTO "location_plan_parts" ("location_id", "upload", "part", "data")
SELECT p."location_id", 0, g.n, substring(p."data" FROM g.n * 131072 + 1 FOR 131072)
FROM "location_plans" p, generate_series(0, (length(p."data") - 1) / 131072) AS g(n);--> statement-breakpoint
ALTER TABLE "location_plans" ADD COLUMN "upload" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "location_plans" ALTER COLUMN "upload" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "location_plans" DROP COLUMN "data";
