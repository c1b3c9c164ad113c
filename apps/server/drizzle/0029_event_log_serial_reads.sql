-- The event log is read a page at a time, and a message search through its five-grams has one
-- plan for any text (lib/list-grams.ts), estimated at thousands of rows. PostgreSQL then split
-- the read among parallel workers: 7 ms and three processes instead of 0.8 ms and one for
-- "10.17.3" on 3 million records. On a server that answers many requests at once, a worker
-- only takes a core from another request.
ALTER TABLE "event_logs" SET (parallel_workers = 0);--> statement-breakpoint
-- A search now picks its five-grams itself (rare ones first), in lib/list-grams.ts.
DROP FUNCTION IF EXISTS pw_fivegram_cover(text);
