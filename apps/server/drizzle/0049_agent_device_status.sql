-- Issue 44. The agent API version an agent last spoke (header X-Pagewatch-Agent-Api), so that the
-- console can say "update required" of an agent the server refuses; NULL until it calls.
ALTER TABLE "agents" ADD COLUMN "api_version" integer;--> statement-breakpoint
-- The latest outcome of each device of an agent's ranges (no history: one row per address,
-- replaced by each run): its last good read and how long it took, its last failure with its
-- reason and time, and how many runs in a row failed to read it (0 after a good read).
CREATE TABLE "agent_device_status" (
  "agent_id" integer NOT NULL REFERENCES "agents"("id") ON DELETE CASCADE,
  "ip" varchar(15) NOT NULL,
  "range_id" integer REFERENCES "network_ranges"("id") ON DELETE SET NULL,
  "last_ok_at" timestamp with time zone,
  "last_ok_ms" integer,
  "last_failure_at" timestamp with time zone,
  "last_failure_reason" varchar(20),
  "last_failure_ms" integer,
  "failures_in_row" integer NOT NULL DEFAULT 0,
  "updated_at" timestamp with time zone NOT NULL DEFAULT now(),
  CONSTRAINT "agent_device_status_pkey" PRIMARY KEY ("agent_id", "ip"),
  CONSTRAINT "agent_device_status_reason" CHECK ("last_failure_reason" IN ('TIMEOUT', 'REFUSED', 'AUTH', 'NO_PRINTER_MIB', 'PROFILE_ERROR'))
);--> statement-breakpoint
CREATE INDEX "agent_device_status_failing" ON "agent_device_status" ("agent_id") WHERE "failures_in_row" >= 3;
