-- The event log searched in the reader's language (issue 40): each record's message as a Russian
-- reader sees it, rendered by the server when written (the log-translation job renders the
-- records written before), null where it is the stored text; a Russian caller's message filter
-- reads COALESCE(message_ru, message) through its own trigram index.
ALTER TABLE "event_logs" ADD COLUMN "message_ru" text;--> statement-breakpoint
CREATE INDEX "event_logs_top_message_ru_trgm" ON "event_logs" USING gin ((COALESCE("message_ru", "message")) gin_trgm_ops) WITH (gin_pending_list_limit=256) WHERE "event_logs"."parent_id" IS NULL;--> statement-breakpoint
-- Statistics of the searched text: the planner ignores a partial index's own (PostgreSQL
-- 15's examine_variable), and without them it took "состояние", which half the log holds, for
-- a rare text and read 500,000 records through the index (bench:logs, session 22).
CREATE STATISTICS "event_logs_message_ru_stats" ON (COALESCE("message_ru", "message")) FROM "event_logs";
