-- A text filter of two characters has no trigram: the bigrams (two-character substrings) of the
-- lowered text, as ILIKE lowers it, in a GIN index find the rows that may hold it, and ILIKE checks
-- them (list-query.ts). Plain SQL: PGlite runs it as PostgreSQL does.
CREATE OR REPLACE FUNCTION pw_bigrams(value text) RETURNS text[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT substr(l.v, i, 2)), '{}'::text[])
  FROM (SELECT lower(value) AS v) l, generate_series(1, char_length(l.v) - 1) AS i
$$;--> statement-breakpoint
CREATE INDEX "devices_serial_bigrams" ON "devices" USING gin (pw_bigrams("serial_number"));--> statement-breakpoint
-- "IP starts with" (digits and dots: LIKE) as a range of this index, the page's keys beside it.
CREATE INDEX "devices_ip_prefix" ON "devices" USING btree ("ip" varchar_pattern_ops,"location_id","id");