-- The device's own web page on an origin of its own (issue 55, PAGEWATCH_DEVICE_WEB_ORIGIN): each
-- session's host label, the one-time ticket its URL carries (hashed, short-lived), and the hash
-- of the cookie the ticket was swapped for, which binds the session to that browser.
ALTER TABLE "device_web_sessions" ADD COLUMN "host_label" varchar(32); --> statement-breakpoint
ALTER TABLE "device_web_sessions" ADD COLUMN "ticket_hash" char(64); --> statement-breakpoint
ALTER TABLE "device_web_sessions" ADD COLUMN "ticket_expires_at" timestamp with time zone; --> statement-breakpoint
ALTER TABLE "device_web_sessions" ADD COLUMN "cookie_hash" char(64);
