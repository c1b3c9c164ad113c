-- A device not available is an alert (issue 54): at most one open DEVICE_OFFLINE per device,
-- and the devices not available now have theirs from when they were last read (their start was
-- told by their NOT_AVAILABLE event), so that their return is told as "back online after …".
ALTER TABLE "alerts" DROP CONSTRAINT "alerts_kind";--> statement-breakpoint
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_kind" CHECK ("kind" IN ('DEVICE_ERROR', 'DEVICE_OFFLINE', 'SUPPLY_LOW', 'AGENT_SILENT'));--> statement-breakpoint
CREATE UNIQUE INDEX "alerts_open_offline" ON "alerts" USING btree ("device_id") WHERE "kind" = 'DEVICE_OFFLINE' AND "resolved_at" IS NULL;--> statement-breakpoint
INSERT INTO "alerts" ("kind", "device_id", "started_at", "start_mailed", "last_notified_at")
SELECT 'DEVICE_OFFLINE', "id", coalesce("refreshed_at", now()), true, now() FROM "devices" WHERE "not_available_flag"
ON CONFLICT DO NOTHING;
