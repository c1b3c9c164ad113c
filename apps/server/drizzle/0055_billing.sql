-- Contracts and billing runs (issue 54): a customer location's contracts, their devices by
-- serial (a device keeps its contract across IP and agent changes), the runs of a period and
-- each run's boundary reads per device and meter. A closed run's rows are never written again.
CREATE TABLE "contracts" (
	"id" serial PRIMARY KEY NOT NULL,
	"location_id" integer NOT NULL REFERENCES "locations"("id") ON DELETE cascade,
	"name" varchar(200) NOT NULL,
	"billing_day" smallint NOT NULL,
	"period" varchar(10) NOT NULL,
	"currency" char(3) NOT NULL,
	"base_fee_minor" bigint NOT NULL,
	"prices" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"starts_on" date NOT NULL,
	"ends_on" date,
	"created_by" integer REFERENCES "users"("id") ON DELETE set null,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contracts_billing_day" CHECK ("billing_day" BETWEEN 1 AND 28),
	CONSTRAINT "contracts_period" CHECK ("period" IN ('MONTHLY', 'QUARTERLY'))
);--> statement-breakpoint
CREATE INDEX "contracts_location" ON "contracts" ("location_id");--> statement-breakpoint
CREATE TABLE "contract_devices" (
	"id" serial PRIMARY KEY NOT NULL,
	"contract_id" integer NOT NULL REFERENCES "contracts"("id") ON DELETE cascade,
	"serial_number" varchar(100) NOT NULL,
	"equipment_id" varchar(100),
	"joined_on" date NOT NULL,
	"left_on" date
);--> statement-breakpoint
CREATE UNIQUE INDEX "contract_devices_serial" ON "contract_devices" ("contract_id", lower("serial_number"), "joined_on");--> statement-breakpoint
CREATE INDEX "contract_devices_lower_serial" ON "contract_devices" (lower("serial_number"));--> statement-breakpoint
CREATE TABLE "billing_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"contract_id" integer NOT NULL REFERENCES "contracts"("id") ON DELETE cascade,
	"period_from" date NOT NULL,
	"period_to" date NOT NULL,
	"state" varchar(10) NOT NULL,
	"currency" char(3) NOT NULL,
	"base_fee_minor" bigint NOT NULL,
	"total_minor" bigint NOT NULL,
	"computed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer REFERENCES "users"("id") ON DELETE set null,
	"closed_by" integer REFERENCES "users"("id") ON DELETE set null,
	"closed_at" timestamp with time zone,
	CONSTRAINT "billing_runs_state" CHECK ("state" IN ('OPEN', 'CLOSED'))
);--> statement-breakpoint
CREATE UNIQUE INDEX "billing_runs_period" ON "billing_runs" ("contract_id", "period_from");--> statement-breakpoint
CREATE TABLE "billing_run_devices" (
	"id" serial PRIMARY KEY NOT NULL,
	"run_id" integer NOT NULL REFERENCES "billing_runs"("id") ON DELETE cascade,
	"serial_number" varchar(100) NOT NULL,
	"equipment_id" varchar(100),
	"device_id" integer REFERENCES "devices"("id") ON DELETE set null,
	"model_code" varchar(200),
	"window_from" date NOT NULL,
	"window_to" date NOT NULL,
	"flags" varchar(10)[] DEFAULT '{}' NOT NULL,
	"estimated" boolean DEFAULT false NOT NULL,
	"amount_minor" bigint NOT NULL,
	"reviewed_by" integer REFERENCES "users"("id") ON DELETE set null,
	"reviewed_at" timestamp with time zone,
	"review_note" varchar(500)
);--> statement-breakpoint
CREATE INDEX "billing_run_devices_run" ON "billing_run_devices" ("run_id", "id");--> statement-breakpoint
CREATE TABLE "billing_run_meters" (
	"run_device_id" integer NOT NULL REFERENCES "billing_run_devices"("id") ON DELETE cascade,
	"meter" varchar(20) NOT NULL,
	"opening_value" bigint,
	"opening_date" date,
	"opening_source" varchar(12),
	"closing_value" bigint,
	"closing_date" date,
	"closing_source" varchar(12),
	"pages" bigint,
	"included_pages" bigint NOT NULL,
	"billable_pages" bigint NOT NULL,
	"price_micros" bigint NOT NULL,
	"amount_minor" bigint NOT NULL,
	CONSTRAINT "billing_run_meters_pk" PRIMARY KEY ("run_device_id", "meter")
);--> statement-breakpoint
-- The new grant MNU_BILLING for the roles that exist already, as a new installation's seed gives it.
INSERT INTO "role_grants" ("role_id", "component", "operation")
SELECT r.id, 'MNU_BILLING', o.op FROM "roles" r CROSS JOIN (VALUES ('READ'), ('EDIT'), ('EXECUTE')) AS o(op)
WHERE r.code IN ('ADMIN', 'DEVELOPER') OR (r.code = 'OPERATOR' AND o.op = 'READ')
ON CONFLICT DO NOTHING;
