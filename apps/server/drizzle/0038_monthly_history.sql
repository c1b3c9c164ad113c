-- History has a lifecycle (issue 40): the large history tables are partitioned by month on their
-- time column, so that retention (jobs/history-housekeeping.job.ts) drops a whole month as one
-- table instead of deleting its rows. The same schema on PostgreSQL and PGlite.
--
-- pw_partition_by_month converts a table keeping its rows: a partitioned copy (LIKE the table),
-- one partition per month from the oldest row (at most 10 years back) to 3 months ahead, a
-- DEFAULT partition that takes any other date (no row is ever refused), the rows copied, the
-- sequences handed over, the old table dropped and the copy given its name, then its primary
-- key (with the time column added), indexes, foreign keys and triggers made again from what
-- the old table had. A unique index without the time column cannot exist on a partitioned
-- table: the function refuses one, and the statements before it change theirs. Storage options
-- (the event log's parallel_workers = 0) go to every partition; the housekeeping job copies
-- them from the DEFAULT partition to each partition it makes.
CREATE FUNCTION pw_partition_by_month(tbl text, col text, pk text[]) RETURNS void LANGUAGE plpgsql AS $fn$
DECLARE
  rel regclass := tbl::regclass;
  is_date boolean;
  pk_name text;
  opts text;
  indexes text[];
  fks text[];
  triggers text[];
  seqs text[];
  oldest date;
  m date;
  stop date := (date_trunc('month', now() AT TIME ZONE 'UTC') + interval '4 months')::date;
  parted text := tbl || '_parted';
  s text;
BEGIN
  IF EXISTS (SELECT 1 FROM pg_constraint WHERE confrelid = rel) THEN
    RAISE EXCEPTION 'pw_partition_by_month: a foreign key references %', tbl;
  END IF;
  IF EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = rel AND i.indisunique AND NOT i.indisprimary) THEN
    RAISE EXCEPTION 'pw_partition_by_month: % has a unique index without %', tbl, col;
  END IF;
  SELECT format_type(a.atttypid, a.atttypmod) = 'date' INTO is_date FROM pg_attribute a WHERE a.attrelid = rel AND a.attname = col;
  SELECT conname INTO pk_name FROM pg_constraint WHERE conrelid = rel AND contype = 'p';
  SELECT array_to_string(reloptions, ', ') INTO opts FROM pg_class WHERE oid = rel;
  SELECT coalesce(array_agg(pg_get_indexdef(indexrelid)), '{}') INTO indexes FROM pg_index WHERE indrelid = rel AND NOT indisprimary;
  SELECT coalesce(array_agg(format('ALTER TABLE %I ADD CONSTRAINT %I %s', tbl, conname, pg_get_constraintdef(oid))), '{}') INTO fks
    FROM pg_constraint WHERE conrelid = rel AND contype = 'f';
  SELECT coalesce(array_agg(pg_get_triggerdef(oid)), '{}') INTO triggers FROM pg_trigger WHERE tgrelid = rel AND NOT tgisinternal;
  SELECT coalesce(array_agg(format('ALTER SEQUENCE %s OWNED BY %I.%I', pg_get_serial_sequence(tbl, attname), parted, attname)), '{}') INTO seqs
    FROM pg_attribute WHERE attrelid = rel AND attnum > 0 AND NOT attisdropped AND pg_get_serial_sequence(tbl, attname) IS NOT NULL;

  EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING GENERATED INCLUDING COMMENTS) PARTITION BY RANGE (%I)', parted, tbl, col);
  EXECUTE format('SELECT min(%I)::date FROM %I', col, tbl) INTO oldest;
  m := greatest(date_trunc('month', least(coalesce(oldest, now()::date), now()::date))::date, (date_trunc('month', now()) - interval '10 years')::date);
  WHILE m < stop LOOP
    EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)%s', tbl || '_p' || to_char(m, 'YYYYMM'), parted,
      CASE WHEN is_date THEN m::text ELSE m::text || ' 00:00:00+00' END,
      CASE WHEN is_date THEN (m + interval '1 month')::date::text ELSE (m + interval '1 month')::date::text || ' 00:00:00+00' END,
      CASE WHEN opts IS NULL THEN '' ELSE ' WITH (' || opts || ')' END);
    m := (m + interval '1 month')::date;
  END LOOP;
  EXECUTE format('CREATE TABLE %I PARTITION OF %I DEFAULT%s', tbl || '_default', parted, CASE WHEN opts IS NULL THEN '' ELSE ' WITH (' || opts || ')' END);
  EXECUTE format('INSERT INTO %I SELECT * FROM %I', parted, tbl);
  FOREACH s IN ARRAY seqs LOOP EXECUTE s; END LOOP;
  EXECUTE format('DROP TABLE %I', tbl);
  EXECUTE format('ALTER TABLE %I RENAME TO %I', parted, tbl);
  EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I PRIMARY KEY (%s)', tbl, coalesce(pk_name, tbl || '_pkey'),
    (SELECT string_agg(quote_ident(c), ', ') FROM unnest(pk) AS c));
  FOREACH s IN ARRAY indexes LOOP EXECUTE s; END LOOP;
  FOREACH s IN ARRAY fks LOOP EXECUTE s; END LOOP;
  FOREACH s IN ARRAY triggers LOOP EXECUTE s; END LOOP;
END
$fn$;--> statement-breakpoint
-- Daily history (kept 3 years by default).
SELECT pw_partition_by_month('dm_device_days', 'fact_date', ARRAY['fact_date', 'device_id']);--> statement-breakpoint
SELECT pw_partition_by_month('dm_device_part_days', 'fact_date', ARRAY['fact_date', 'device_id', 'supply_index']);--> statement-breakpoint
-- Its key (device, day, user) already holds the day.
DROP INDEX "dm_device_user_days_key";--> statement-breakpoint
SELECT pw_partition_by_month('dm_device_user_days', 'fact_date', ARRAY['id', 'fact_date']);--> statement-breakpoint
CREATE UNIQUE INDEX "dm_device_user_days_key" ON "dm_device_user_days" USING btree ("device_id", "fact_date", "username");--> statement-breakpoint
-- Events and runs (kept a year by default).
SELECT pw_partition_by_month('device_events', 'event_at', ARRAY['id', 'event_at']);--> statement-breakpoint
SELECT pw_partition_by_month('device_ip_history', 'changed_at', ARRAY['id', 'changed_at']);--> statement-breakpoint
SELECT pw_partition_by_month('agent_runs', 'started_at', ARRAY['run_id', 'started_at']);--> statement-breakpoint
-- The key (queue, job id) takes the completion time as well, as a partitioned table's unique key
-- must; a job is still stored once per queue and job id (queue-jobs.repository.ts looks first).
DROP INDEX "queue_jobs_key";--> statement-breakpoint
SELECT pw_partition_by_month('queue_jobs', 'completed_at', ARRAY['id', 'completed_at']);--> statement-breakpoint
CREATE UNIQUE INDEX "queue_jobs_key" ON "queue_jobs" USING btree ("queue_id", "external_job_id", "completed_at");--> statement-breakpoint
-- The event log (kept LOG_STORAGE_DAYS, the log clearing setting).
SELECT pw_partition_by_month('event_logs', 'log_datetime', ARRAY['id', 'log_datetime']);--> statement-breakpoint
DROP FUNCTION pw_partition_by_month(text, text, text[]);
