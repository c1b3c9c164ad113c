-- Each partition has its table's extended statistics (issue 40): PostgreSQL plans each
-- partition by its own statistics and keeps a partitioned table's for the whole tree only, so
-- migration 0041's statistics of the Russian message never reached a month, and "состояние",
-- which half the log holds, was again read through the trigram index (bench:logs, session 24).
-- Partitions made from now on get them with the partition (db/partitions.ts, copyStatistics,
-- named the same way); the ones made before get them here, and are analysed to fill them.
DO $$
DECLARE
  s record;
  p record;
BEGIN
  FOR s IN
    SELECT x.stxname, x.stxrelid, c.relname AS tab, pg_get_statisticsobjdef_columns(x.oid) AS items
    FROM pg_statistic_ext x JOIN pg_class c ON c.oid = x.stxrelid
    WHERE c.relkind = 'p'
  LOOP
    FOR p IN
      SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = s.stxrelid
    LOOP
      EXECUTE format('CREATE STATISTICS IF NOT EXISTS %I ON %s FROM %I',
        s.stxname || substr(p.relname, length(s.tab) + 1), s.items, p.relname);
    END LOOP;
  END LOOP;
END $$;--> statement-breakpoint
ANALYZE "event_logs";
