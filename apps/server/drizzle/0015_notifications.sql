CREATE TABLE "notification_alerts" (
	"notification_id" integer NOT NULL,
	"device_id" integer NOT NULL,
	"supply_index" integer NOT NULL,
	"raised_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notification_alerts_notification_id_device_id_supply_index_pk" PRIMARY KEY("notification_id","device_id","supply_index")
);
--> statement-breakpoint
CREATE TABLE "notification_digest_items" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"notification_id" integer NOT NULL,
	"user_id" integer,
	"email" varchar(256) NOT NULL,
	"html" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification_locations" (
	"notification_id" integer NOT NULL,
	"location_id" integer NOT NULL,
	CONSTRAINT "notification_locations_notification_id_location_id_pk" PRIMARY KEY("notification_id","location_id")
);
--> statement-breakpoint
CREATE TABLE "notification_messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"notification_id" integer,
	"message_id" varchar(200) NOT NULL,
	"to_email" varchar(256) NOT NULL,
	"subject" varchar(1000) NOT NULL,
	"html" text NOT NULL,
	"attachments" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"location_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_until" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"failed_at" timestamp with time zone,
	"last_error" varchar(1000),
	"log_id" bigint
);
--> statement-breakpoint
CREATE TABLE "notification_subscribers" (
	"notification_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	CONSTRAINT "notification_subscribers_notification_id_user_id_pk" PRIMARY KEY("notification_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" serial PRIMARY KEY NOT NULL,
	"type_id" smallint NOT NULL,
	"name" varchar(250) NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"description" text,
	"subject" varchar(500) NOT NULL,
	"body" text NOT NULL,
	"schedule" varchar(100),
	"include_system_subscribers" boolean DEFAULT false NOT NULL,
	"statuses" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"dim01_list" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"dim02_list" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"dim03_list" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"threshold" smallint,
	"report_code" varchar(50),
	"file_extension" varchar(10),
	"attachment" varchar(2000),
	"next_run_at" timestamp with time zone,
	"last_run_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notification_alerts" ADD CONSTRAINT "notification_alerts_notification_id_notifications_id_fk" FOREIGN KEY ("notification_id") REFERENCES "public"."notifications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_alerts" ADD CONSTRAINT "notification_alerts_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_digest_items" ADD CONSTRAINT "notification_digest_items_notification_id_notifications_id_fk" FOREIGN KEY ("notification_id") REFERENCES "public"."notifications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_digest_items" ADD CONSTRAINT "notification_digest_items_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_locations" ADD CONSTRAINT "notification_locations_notification_id_notifications_id_fk" FOREIGN KEY ("notification_id") REFERENCES "public"."notifications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_locations" ADD CONSTRAINT "notification_locations_location_id_locations_id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_messages" ADD CONSTRAINT "notification_messages_notification_id_notifications_id_fk" FOREIGN KEY ("notification_id") REFERENCES "public"."notifications"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_subscribers" ADD CONSTRAINT "notification_subscribers_notification_id_notifications_id_fk" FOREIGN KEY ("notification_id") REFERENCES "public"."notifications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_subscribers" ADD CONSTRAINT "notification_subscribers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notification_digest_items_notification" ON "notification_digest_items" USING btree ("notification_id","id");--> statement-breakpoint
CREATE INDEX "notification_locations_location" ON "notification_locations" USING btree ("location_id");--> statement-breakpoint
CREATE UNIQUE INDEX "notification_messages_message_id" ON "notification_messages" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "notification_messages_pending" ON "notification_messages" USING btree ("next_attempt_at","id") WHERE "notification_messages"."sent_at" IS NULL AND "notification_messages"."failed_at" IS NULL;--> statement-breakpoint
CREATE INDEX "notification_subscribers_user" ON "notification_subscribers" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "notifications_due" ON "notifications" USING btree ("next_run_at") WHERE "notifications"."active" AND "notifications"."next_run_at" IS NOT NULL;