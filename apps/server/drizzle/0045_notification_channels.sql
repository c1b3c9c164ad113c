-- Channels besides e-mail (issue 42): a generic webhook, Slack, Microsoft Teams, Telegram. The
-- secret (a webhook's HMAC key, a Slack or Teams webhook URL, a Telegram bot token) is sealed.
CREATE TABLE "notification_channels" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" varchar(20) NOT NULL,
	"name" varchar(100) NOT NULL,
	"target" varchar(1000),
	"secret" text,
	"enabled" boolean DEFAULT true NOT NULL,
	"allow_internal" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notification_channels_kind" CHECK ("kind" IN ('WEBHOOK', 'SLACK', 'TEAMS', 'TELEGRAM'))
);--> statement-breakpoint
CREATE TABLE "notification_channel_links" (
	"notification_id" integer NOT NULL REFERENCES "notifications"("id") ON DELETE CASCADE,
	"channel_id" integer NOT NULL REFERENCES "notification_channels"("id") ON DELETE CASCADE,
	PRIMARY KEY ("notification_id", "channel_id")
);--> statement-breakpoint
CREATE INDEX "notification_channel_links_channel" ON "notification_channel_links" ("channel_id");--> statement-breakpoint
-- A channel's delivery is an outbox row of its own (channel_id set), with what it says as JSON.
ALTER TABLE "notification_messages" ADD COLUMN "channel_id" integer REFERENCES "notification_channels"("id") ON DELETE CASCADE;--> statement-breakpoint
ALTER TABLE "notification_messages" ADD COLUMN "payload" jsonb;--> statement-breakpoint
CREATE INDEX "notification_messages_channel" ON "notification_messages" ("channel_id") WHERE "channel_id" IS NOT NULL;
