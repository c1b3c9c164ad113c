-- The event log's structured fields (issue 40): the device (its model), serial and address a
-- record is about, written with the record from its message params (event-log-subject.ts) and
-- filled here for the records written before, so that the logs grid filters on them as columns
-- instead of searching the message text. The same reading of the params as the server's: a
-- string `model`, `sn` or `serial`, `ip` or `address`, at the top of the params first, then
-- anywhere in their translatable parts (`{ key, params }`).
ALTER TABLE "event_logs" ADD COLUMN "device" varchar(250);--> statement-breakpoint
ALTER TABLE "event_logs" ADD COLUMN "serial" varchar(100);--> statement-breakpoint
ALTER TABLE "event_logs" ADD COLUMN "address" varchar(100);--> statement-breakpoint
UPDATE "event_logs" SET
  "device" = left(coalesce(
    jsonb_path_query_first(message_params, '$.model ? (@.type() == "string")'),
    jsonb_path_query_first(message_params, '$.**.model ? (@.type() == "string")')) #>> '{}', 250),
  "serial" = left(coalesce(
    jsonb_path_query_first(message_params, '$.sn ? (@.type() == "string")'),
    jsonb_path_query_first(message_params, '$.serial ? (@.type() == "string")'),
    jsonb_path_query_first(message_params, '$.**.sn ? (@.type() == "string")'),
    jsonb_path_query_first(message_params, '$.**.serial ? (@.type() == "string")')) #>> '{}', 100),
  "address" = left(coalesce(
    jsonb_path_query_first(message_params, '$.ip ? (@.type() == "string")'),
    jsonb_path_query_first(message_params, '$.address ? (@.type() == "string")'),
    jsonb_path_query_first(message_params, '$.**.ip ? (@.type() == "string")'),
    jsonb_path_query_first(message_params, '$.**.address ? (@.type() == "string")')) #>> '{}', 100)
WHERE message_params IS NOT NULL;--> statement-breakpoint
-- Equality and prefix (`=`, and LIKE 'text%' of a text without letters, list-text.ts) read
-- these; only the records that name one are in them.
CREATE INDEX "event_logs_device" ON "event_logs" USING btree ("device" text_pattern_ops) WHERE "event_logs"."device" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "event_logs_serial" ON "event_logs" USING btree ("serial" text_pattern_ops) WHERE "event_logs"."serial" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "event_logs_address" ON "event_logs" USING btree ("address" text_pattern_ops) WHERE "event_logs"."address" IS NOT NULL;
