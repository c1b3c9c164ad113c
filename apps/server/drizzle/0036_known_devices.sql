-- Browsers that signed in as a user before (a device cookie, stored as its SHA-256): failures on
-- the user's login from elsewhere do not slow them down (issue 39, docs/security.md invariant 6).
CREATE TABLE "known_devices" (
	"token_hash" char(64) PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "known_devices" ADD CONSTRAINT "known_devices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "known_devices_user" ON "known_devices" USING btree ("user_id","last_used_at");
