-- Alerts (issue 42): a condition (a device in error, a supply under its threshold, a silent
-- agent) from its start to its end, so that it is mailed once when it starts and once when it
-- clears, not at every poll; acknowledged from the console. At most one open alert per subject
-- and kind (the partial unique indexes): a second "start" while one is open is nothing.
CREATE TABLE "alerts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" varchar(20) NOT NULL,
	"device_id" integer,
	"supply_index" integer,
	"agent_id" integer,
	"started_at" timestamp with time zone NOT NULL,
	"resolved_at" timestamp with time zone,
	"acknowledged_by" integer,
	"acknowledged_at" timestamp with time zone,
	"last_notified_at" timestamp with time zone,
	"start_mailed" boolean DEFAULT false NOT NULL,
	"resolve_mailed" boolean DEFAULT false NOT NULL,
	CONSTRAINT "alerts_kind" CHECK ("kind" IN ('DEVICE_ERROR', 'SUPPLY_LOW', 'AGENT_SILENT')),
	CONSTRAINT "alerts_subject" CHECK (("kind" = 'AGENT_SILENT') = ("agent_id" IS NOT NULL AND "device_id" IS NULL) AND ("kind" = 'SUPPLY_LOW') = ("supply_index" IS NOT NULL))
);--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_acknowledged_by_users_id_fk" FOREIGN KEY ("acknowledged_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_open_device" ON "alerts" USING btree ("device_id") WHERE "kind" = 'DEVICE_ERROR' AND "resolved_at" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_open_supply" ON "alerts" USING btree ("device_id", "supply_index") WHERE "kind" = 'SUPPLY_LOW' AND "resolved_at" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_open_agent" ON "alerts" USING btree ("agent_id") WHERE "kind" = 'AGENT_SILENT' AND "resolved_at" IS NULL;--> statement-breakpoint
CREATE INDEX "alerts_to_mail" ON "alerts" USING btree ("id") WHERE NOT "start_mailed" OR ("resolved_at" IS NOT NULL AND NOT "resolve_mailed");--> statement-breakpoint
CREATE INDEX "alerts_open" ON "alerts" USING btree ("started_at") WHERE "resolved_at" IS NULL;--> statement-breakpoint
CREATE INDEX "alerts_device" ON "alerts" USING btree ("device_id", "started_at");
