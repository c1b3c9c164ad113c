/**
 * History lifecycle benchmark (issue 40): one month of a history table filled with many rows
 * (generate_series, in the database), then that month dropped as the housekeeping and log
 * clearing jobs drop it (db/partitions.ts: DETACH and DROP of its partition). Prints the fill,
 * the month's size on disk and how long the drop took (after a vacuum and a checkpoint), per table and database.
 * Target: dropping a month under 1 s at any size.
 *
 *   npm run bench:history   (BENCH_TABLES=event_logs,device_events BENCH_ROWS=1500000
 *                            BENCH_DBS=postgres,pglite BENCH_PGLITE_ROWS=100000;
 *                            BENCH_DATABASE_URL or DATABASE_URL, default the test PostgreSQL)
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { createTestApp } from '../apps/server/src/test/test-app.ts';
import { createMonth, dropMonthsBefore, monthPartitions, monthStart } from '../apps/server/src/db/partitions.ts';
import { HISTORY_TABLES } from '../apps/server/src/jobs/history-housekeeping.job.ts';
import { SERVER_URL } from './lib/bench-server.ts';

const TABLES = (process.env.BENCH_TABLES ?? 'event_logs,device_events').split(',');
const ROWS = Number(process.env.BENCH_ROWS ?? 1_500_000);
const PGLITE_ROWS = Number(process.env.BENCH_PGLITE_ROWS ?? 100_000);
const DBS = (process.env.BENCH_DBS ?? 'postgres,pglite').split(',');
process.env.DATABASE_URL = SERVER_URL;

const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** Rows of the month starting at `$1`, spread over it, in the database itself. */
const FILL: Record<string, (from: string, rows: number) => ReturnType<typeof sql>> = {
  event_logs: (from, rows) => sql`
    INSERT INTO event_logs (log_datetime, event_group_id, log_level, location_id, message, object_class, object_id)
    SELECT ${from}::timestamptz + (i * (interval '28 days' / ${rows})), (SELECT min(id) FROM event_groups), 'I',
           (SELECT min(id) FROM locations), 'Status of device ' || (i % 100000) || ' changed to WARNING (toner low)', 'DEVICE', i % 100000
    FROM generate_series(1, ${rows}) AS i`,
  device_events: (from, rows) => sql`
    INSERT INTO device_events (event_at, type, device_id, location_id, old_value, new_value, processed)
    SELECT ${from}::timestamptz + (i * (interval '28 days' / ${rows})), 'STATUS_CHANGE', d.id, d.location_id, 'OK', 'WARNING', true
    FROM generate_series(1, ${rows}) AS i, (SELECT id, location_id FROM devices LIMIT 1) AS d`,
};

for (const kind of DBS) {
  process.env.PAGEWATCH_TEST_DB = kind;
  const rows = kind === 'pglite' ? PGLITE_ROWS : ROWS;
  const t = await createTestApp();
  try {
    const db = t.ctx.db;
    console.log(`History benchmark on ${kind}; load average ${load()}`);
    await db.execute(sql`INSERT INTO devices (location_id, ip, serial_number, model_code) SELECT id, '127.0.0.7', 'BENCH-H', 'M' FROM locations WHERE code = 'DEFAULT'`);
    // A month two years back, older than any default retention, and this month beside it.
    const month = monthStart(new Date(), -24);
    for (const name of TABLES) {
      const table = HISTORY_TABLES.find((x) => x.table === name)!;
      await createMonth(db, table, month);
      let at = performance.now();
      await db.execute(FILL[name](month.toISOString(), rows));
      const fill = performance.now() - at;
      const part = `${name}_p${month.toISOString().slice(0, 7).replace('-', '')}`;
      const size = (await db.execute(sql`SELECT pg_total_relation_size(${part}::regclass)::bigint AS b`)).rows[0] as { b: number };
      const before = (await db.execute(sql`SELECT count(*)::int AS n FROM ${sql.identifier(name)}`)).rows[0] as { n: number };
      // The month as the job finds it, written long before: vacuumed (an autovacuum at work on
      // it would hold the drop's lock until it is cancelled, a second later: deadlock_timeout),
      // and not in the write-ahead log and dirty buffers that a checkpoint is still writing.
      await db.execute(sql`VACUUM ANALYZE ${sql.identifier(part)}`);
      await db.execute(sql`CHECKPOINT`);
      at = performance.now();
      const gone = await dropMonthsBefore(db, table, monthStart(month, 1), 10_000);
      const drop = performance.now() - at;
      const after = (await db.execute(sql`SELECT count(*)::int AS n FROM ${sql.identifier(name)}`)).rows[0] as { n: number };
      const left = (await monthPartitions(db, table)).some((m) => m.getTime() === month.getTime());
      console.log(
        `  ${name}: ${rows.toLocaleString('en')} rows in one month filled in ${secs(fill)} (${(Number(size.b) / 1e6).toFixed(0)} MB with indexes); ` +
          `month dropped in ${secs(drop)} (${gone.dropped} partition, ${(before.n - after.n).toLocaleString('en')} rows gone, partition ${left ? 'still there' : 'gone'}): ` +
          `${drop < 1000 ? 'met' : 'NOT met'} (< 1 s)`,
      );
    }
  } finally {
    await t.close();
  }
}
