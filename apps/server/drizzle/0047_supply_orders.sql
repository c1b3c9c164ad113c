-- Supply orders (issue 45): one row per device supply ordered; at most one open (ORDERED or
-- SHIPPED) per supply, which the unique partial index enforces against two orders at once.
CREATE TABLE "supply_orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"device_id" integer NOT NULL REFERENCES "devices"("id") ON DELETE cascade,
	"supply_index" integer NOT NULL,
	"part_code" varchar(50),
	"part_name" varchar(500),
	"part_model_code" varchar(100),
	"state" varchar(20) NOT NULL,
	"reference" varchar(100),
	"ordered_by" integer REFERENCES "users"("id") ON DELETE set null,
	"ordered_at" timestamp with time zone DEFAULT now() NOT NULL,
	"shipped_at" timestamp with time zone,
	"installed_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"closed_by" integer REFERENCES "users"("id") ON DELETE set null,
	CONSTRAINT "supply_orders_state" CHECK ("state" IN ('ORDERED', 'SHIPPED', 'INSTALLED', 'CANCELLED'))
);--> statement-breakpoint
CREATE UNIQUE INDEX "supply_orders_one_open" ON "supply_orders" ("device_id", "supply_index") WHERE state IN ('ORDERED', 'SHIPPED');--> statement-breakpoint
CREATE INDEX "supply_orders_device" ON "supply_orders" ("device_id", "ordered_at");--> statement-breakpoint
-- A location's lead time and margin (days) and its supplier's address; no row: 7 and 7, none.
CREATE TABLE "supply_order_settings" (
	"location_id" integer PRIMARY KEY NOT NULL REFERENCES "locations"("id") ON DELETE cascade,
	"lead_days" smallint NOT NULL,
	"margin_days" smallint NOT NULL,
	"supplier_email" varchar(254),
	CONSTRAINT "supply_order_settings_days" CHECK ("lead_days" BETWEEN 0 AND 365 AND "margin_days" BETWEEN 0 AND 365)
);--> statement-breakpoint
-- The new grant MNU_CONSUMABLES for the roles that exist already, as a new installation's seed gives it.
INSERT INTO "role_grants" ("role_id", "component", "operation")
SELECT r.id, 'MNU_CONSUMABLES', o.op FROM "roles" r CROSS JOIN (VALUES ('READ'), ('EDIT'), ('EXECUTE')) AS o(op)
WHERE r.code IN ('ADMIN', 'DEVELOPER') OR (r.code = 'OPERATOR' AND o.op = 'READ')
ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- The forecast job's past forecasts (issue 45), one per supply and day it was made, kept a year:
-- a replacement is compared with what was forecast 30, 14 and 7 days before it.
CREATE TABLE "supply_forecast_history" (
	"device_id" integer NOT NULL REFERENCES "devices"("id") ON DELETE cascade,
	"supply_index" integer NOT NULL,
	"made_on" date NOT NULL,
	"runs_out_on" date NOT NULL,
	"part_code" varchar(50),
	CONSTRAINT "supply_forecast_history_pk" PRIMARY KEY ("device_id", "supply_index", "made_on")
);--> statement-breakpoint
CREATE INDEX "supply_forecast_history_made_on" ON "supply_forecast_history" ("made_on");
--> statement-breakpoint
-- The smallest step the supply's level moves by (percentage points): 10 or more is a coarse level.
ALTER TABLE "consumables" ADD COLUMN "level_step" smallint;
