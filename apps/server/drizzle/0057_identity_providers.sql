-- Single sign-on (issue 55): identity providers of a location, their group mappings, the users
-- they sign in (by provider and external id), and the one-time tickets of OpenID sign-ins.
CREATE TABLE "identity_providers" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" varchar(10) NOT NULL,
	"name" varchar(100) NOT NULL,
	"location_id" integer NOT NULL REFERENCES "locations"("id"),
	"enabled" boolean DEFAULT true NOT NULL,
	"settings" jsonb NOT NULL,
	"secret" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE TABLE "identity_provider_mappings" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider_id" integer NOT NULL REFERENCES "identity_providers"("id") ON DELETE cascade,
	"group_name" varchar(256) NOT NULL,
	"role_id" integer NOT NULL REFERENCES "roles"("id"),
	"location_id" integer NOT NULL REFERENCES "locations"("id") ON DELETE cascade
);--> statement-breakpoint
CREATE INDEX "identity_provider_mappings_provider" ON "identity_provider_mappings" USING btree ("provider_id");--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "identity_provider_id" integer REFERENCES "identity_providers"("id") ON DELETE set null;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "external_id" varchar(512);--> statement-breakpoint
CREATE UNIQUE INDEX "users_external" ON "users" USING btree ("identity_provider_id","external_id");--> statement-breakpoint
CREATE TABLE "sso_tickets" (
	"ticket_hash" char(64) PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"expires_at" timestamp with time zone NOT NULL
);--> statement-breakpoint
-- The new grant MNU_IDENTITY_PROVIDERS for the roles that exist already, as a new installation's seed gives it.
INSERT INTO "role_grants" ("role_id", "component", "operation")
SELECT r.id, 'MNU_IDENTITY_PROVIDERS', o.op FROM "roles" r CROSS JOIN (VALUES ('READ'), ('EDIT'), ('EXECUTE')) AS o(op)
WHERE r.code IN ('ADMIN', 'DEVELOPER')
ON CONFLICT DO NOTHING;
