-- Sessions of a device's own web page through its agent (issue 55): the path's token kept as its
-- hash, ended with the console session that opened it, the printer's cookies kept here.
CREATE TABLE "device_web_sessions" (
	"id" serial PRIMARY KEY NOT NULL,
	"token_hash" char(64) NOT NULL UNIQUE,
	"user_id" integer NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"session_id" integer NOT NULL REFERENCES "sessions"("id") ON DELETE cascade,
	"device_id" integer NOT NULL REFERENCES "devices"("id") ON DELETE cascade,
	"agent_id" integer NOT NULL REFERENCES "agents"("id") ON DELETE cascade,
	"host" varchar(45) NOT NULL,
	"port" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"closed_at" timestamp with time zone,
	"cookies" jsonb DEFAULT '{}'::jsonb NOT NULL,
	CONSTRAINT "device_web_sessions_port" CHECK ("port" IN (80, 443, 8080))
);--> statement-breakpoint
CREATE INDEX "device_web_sessions_device" ON "device_web_sessions" ("device_id", "expires_at");--> statement-breakpoint
-- The new grant BTN_DEVICE_WEB for the roles that exist already, as a new installation's seed gives it.
INSERT INTO "role_grants" ("role_id", "component", "operation")
SELECT r.id, 'BTN_DEVICE_WEB', o.op FROM "roles" r CROSS JOIN (VALUES ('READ'), ('EDIT'), ('EXECUTE')) AS o(op)
WHERE r.code IN ('ADMIN', 'DEVELOPER')
ON CONFLICT DO NOTHING;
