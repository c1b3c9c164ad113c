-- Agent self-updates (issue 44): an agent's updates can be paused on their own, and the release
-- an agent refused (and why) is kept for the agents grid. Pausing every agent is a setting.
ALTER TABLE "agents" ADD COLUMN "updates_paused" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "update_refused_version" varchar(50);--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "update_refused_reason" text;--> statement-breakpoint
INSERT INTO "settings" ("code", "name", "value_type", "flag_value", "system_component") VALUES ('AGENT_UPDATES_PAUSED', 'Agent updates paused', 'F', false, 'AGENT') ON CONFLICT DO NOTHING;
