-- A message search (contains, starts with, ends with) of five characters or more that few records
-- match: the trigram index splits the text at dots and spaces, so "10.17.3" or "run 12345" is
-- searched by trigrams that millions of messages hold (27 ms and 10 ms of CPU a page on 5 million
-- records, bench/logs.bench.ts). The five-character substrings of the lowered message, as ILIKE
-- lowers it, punctuation kept, find the records that may hold the text; ILIKE checks them. The
-- array is not deduplicated: GIN does that itself. Plain SQL: PGlite runs it as PostgreSQL does.
CREATE OR REPLACE FUNCTION pw_fivegrams(value text) RETURNS text[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT ARRAY(SELECT substr(l.v, i, 5) FROM (SELECT lower(value) AS v) l, generate_series(1, char_length(l.v) - 4) AS i)
$$;--> statement-breakpoint
-- What a search looks for: five-grams that cover the lowered text without overlapping, and its
-- last. Each one the index must intersect costs a step per candidate ("run 12345": 0.52 ms with
-- all five, 0.34 ms with two).
CREATE OR REPLACE FUNCTION pw_fivegram_cover(value text) RETURNS text[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT ARRAY(
    SELECT substr(l.v, i, 5) FROM (SELECT lower(value) AS v) l, generate_series(1, char_length(l.v) - 4, 5) AS i
    UNION SELECT substr(l.v, char_length(l.v) - 4, 5) FROM (SELECT lower(value) AS v) l WHERE char_length(l.v) >= 5)
$$;--> statement-breakpoint
CREATE INDEX "event_logs_top_message_grams" ON "event_logs" USING gin (pw_fivegrams("message")) WITH (gin_pending_list_limit=256) WHERE "event_logs"."parent_id" IS NULL;--> statement-breakpoint
-- New entries wait in a list that every search reads whole, 4 MB of it by default: on a log
-- written all the time, 256 kB (a search for "10.17.3": 40 ms instead of 1.7 ms after 20,000
-- new records). The same setting as a rebuild would give, without rebuilding the index.
ALTER INDEX "event_logs_top_message_trgm" SET (gin_pending_list_limit=256);
