-- Issue 40, a plain search policy: "contains" of 3 characters or more through the trigram
-- indexes, 1 or 2 characters as "starts with" (the trigram index's word starts, or the address's
-- prefix index), one SQL form for a filter (lib/list-text.ts). The machinery that made two
-- characters and rare five-character texts as fast as other filters goes: each device's pairs
-- of serial characters and their triggers (about 250 MB for 100,000 devices), the bigram and
-- five-gram indexes and their functions (bench/README.md, session 21).
DROP TRIGGER IF EXISTS device_serial_pairs_insert ON devices;--> statement-breakpoint
DROP TRIGGER IF EXISTS device_serial_pairs_update ON devices;--> statement-breakpoint
DROP FUNCTION IF EXISTS device_serial_pairs_write();--> statement-breakpoint
DROP TABLE IF EXISTS device_serial_pairs;--> statement-breakpoint
DROP INDEX IF EXISTS devices_serial_fivegrams;--> statement-breakpoint
DROP INDEX IF EXISTS devices_serial_bigrams;--> statement-breakpoint
DROP INDEX IF EXISTS event_logs_top_message_grams;--> statement-breakpoint
DROP FUNCTION IF EXISTS pw_fivegrams(text);--> statement-breakpoint
DROP FUNCTION IF EXISTS pw_bigrams(text);
