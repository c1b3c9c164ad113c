CREATE TABLE "auth_throttle" (
	"key" varchar(400) PRIMARY KEY NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	"next_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "auth_throttle_updated_at" ON "auth_throttle" USING btree ("updated_at");