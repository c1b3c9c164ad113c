import { sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from './client.ts';

/**
 * A history table partitioned by month on its time column (migration 0038): partitions
 * `<table>_pYYYYMM` of one UTC month each, and `<table>_default` for any other time, so that no
 * row is ever refused. The same on PostgreSQL and PGlite.
 */
export type MonthlyTable = { table: string; column: string; kind: 'date' | 'timestamptz' };

/** A month as the UTC date of its first day. */
export const monthStart = (d: Date, add = 0) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + add, 1));
const suffix = (m: Date) => `${m.getUTCFullYear()}${String(m.getUTCMonth() + 1).padStart(2, '0')}`;
const partitionName = (t: MonthlyTable, m: Date) => `${t.table}_p${suffix(m)}`;
const defaultName = (t: MonthlyTable) => `${t.table}_default`;
const bound = (t: MonthlyTable, m: Date) => (t.kind === 'date' ? m.toISOString().slice(0, 10) : `${m.toISOString().slice(0, 10)} 00:00:00+00`);
const id = (name: string) => sql.identifier(name);
/** The column's UTC month as 'YYYYMM'. */
const monthOf = (t: MonthlyTable): SQL =>
  t.kind === 'date' ? sql`to_char(${id(t.column)}, 'YYYYMM')` : sql`to_char(${id(t.column)} AT TIME ZONE 'UTC', 'YYYYMM')`;
const inMonth = (t: MonthlyTable, m: Date): SQL =>
  sql`${id(t.column)} >= ${bound(t, m)} AND ${id(t.column)} < ${bound(t, monthStart(m, 1))}`;
const parseMonth = (yyyymm: string) => new Date(Date.UTC(Number(yyyymm.slice(0, 4)), Number(yyyymm.slice(4, 6)) - 1, 1));

/** How long a drop waits for the table's lock before it leaves the month to the next run. */
export const LOCK_TIMEOUT_MS = 2_000;
const lockTimedOut = (err: unknown): boolean =>
  typeof err === 'object' && err !== null && ((err as { code?: string }).code === '55P03' || lockTimedOut((err as { cause?: unknown }).cause));

/** The months the table has a partition for, oldest first. */
export async function monthPartitions(db: Db, t: MonthlyTable): Promise<Date[]> {
  const res = await db.execute<{ name: string }>(sql`
    SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = ${t.table}::regclass ORDER BY c.relname`);
  const pattern = new RegExp(`^${t.table}_p(\\d{6})$`);
  return res.rows.flatMap((r) => {
    const m = pattern.exec(r.name);
    return m ? [parseMonth(m[1])] : [];
  });
}

/**
 * Makes the month's partition. Rows of that month already in the DEFAULT partition move into it:
 * PostgreSQL refuses a new partition while the default holds rows of its range, so the default
 * is detached, the partition made and the rows moved, and the default attached again, in one
 * transaction. Each partition takes the storage options of the default (the migration's).
 */
export async function createMonth(db: Db, t: MonthlyTable, m: Date): Promise<number> {
  return db.transaction(async (tx) => {
    const opts = await tx.execute<{ opts: string | null }>(sql`SELECT array_to_string(reloptions, ', ') AS opts FROM pg_class WHERE oid = ${defaultName(t)}::regclass`);
    const o = opts.rows[0]?.opts;
    const withOpts = o ? sql.raw(` WITH (${o})`) : sql``;
    const create = sql`CREATE TABLE ${id(partitionName(t, m))} PARTITION OF ${id(t.table)} FOR VALUES FROM (${sql.raw(`'${bound(t, m)}'`)}) TO (${sql.raw(`'${bound(t, monthStart(m, 1))}'`)})${withOpts}`;
    const waiting = await tx.execute<{ some: boolean }>(sql`SELECT EXISTS (SELECT 1 FROM ${id(defaultName(t))} WHERE ${inMonth(t, m)}) AS some`);
    if (!waiting.rows[0]!.some) {
      await tx.execute(create);
      await copyStatistics(tx, t, m);
      return 0;
    }
    await tx.execute(sql`ALTER TABLE ${id(t.table)} DETACH PARTITION ${id(defaultName(t))}`);
    await tx.execute(create);
    await copyStatistics(tx, t, m);
    await tx.execute(sql`INSERT INTO ${id(t.table)} SELECT * FROM ${id(defaultName(t))} WHERE ${inMonth(t, m)}`);
    const moved = await tx.execute<{ n: number }>(sql`WITH gone AS (DELETE FROM ${id(defaultName(t))} WHERE ${inMonth(t, m)} RETURNING 1) SELECT count(*)::int AS n FROM gone`);
    await tx.execute(sql`ALTER TABLE ${id(t.table)} ATTACH PARTITION ${id(defaultName(t))} DEFAULT`);
    return moved.rows[0]!.n;
  });
}

/** The kinds of an extended statistics object, as CREATE STATISTICS names them. */
const STAT_KINDS: Record<string, string> = { d: 'ndistinct', f: 'dependencies', m: 'mcv' };

/**
 * The table's extended statistics (CREATE STATISTICS, as migration 0041's of the Russian
 * message), made again on the month's partition as `<name>_pYYYYMM`: PostgreSQL plans each
 * partition by its own statistics and keeps a partitioned table's for the whole tree only, and
 * CREATE TABLE … PARTITION OF copies its indexes but not these. Migration 0052 did the same for
 * the partitions made before.
 */
async function copyStatistics(tx: Tx, t: MonthlyTable, m: Date): Promise<void> {
  const res = await tx.execute<{ name: string; kinds: string; items: string }>(sql`
    SELECT stxname AS name, array_to_string(stxkind, '') AS kinds, pg_get_statisticsobjdef_columns(oid) AS items
    FROM pg_statistic_ext WHERE stxrelid = ${t.table}::regclass ORDER BY stxname`);
  for (const s of res.rows) {
    // Named kinds only where the original names some of them (all, or one expression: none).
    const kinds = [...s.kinds].flatMap((k) => STAT_KINDS[k] ?? []);
    const named = kinds.length > 0 && kinds.length < Object.keys(STAT_KINDS).length ? ` (${kinds.join(', ')})` : '';
    await tx.execute(sql`CREATE STATISTICS IF NOT EXISTS ${id(`${s.name}_p${suffix(m)}`)}${sql.raw(named)} ON ${sql.raw(s.items)} FROM ${id(partitionName(t, m))}`);
  }
}

/**
 * Partitions for this month and `ahead` months after it, and for each month from `keepFrom` to
 * then whose rows landed in the DEFAULT partition (months further ahead stay there: a device
 * whose clock is years off must not make a partition per month). Returns what it made and moved.
 */
export async function ensureMonths(db: Db, t: MonthlyTable, now: Date, ahead: number, keepFrom: Date | null): Promise<{ created: number; moved: number }> {
  const have = new Set((await monthPartitions(db, t)).map(suffix));
  const last = monthStart(now, ahead);
  const res = await db.execute<{ m: string }>(sql`SELECT DISTINCT ${monthOf(t)} AS m FROM ${id(defaultName(t))}`);
  const waiting = res.rows.map((r) => parseMonth(r.m)).filter((m) => m <= last && (!keepFrom || monthStart(m, 1) > keepFrom));
  const wanted = [...Array.from({ length: ahead + 1 }, (_, i) => monthStart(now, i)), ...waiting];
  let created = 0;
  let moved = 0;
  for (const m of wanted) {
    if (have.has(suffix(m))) continue;
    moved += await createMonth(db, t, m);
    have.add(suffix(m));
    created++;
  }
  return { created, moved };
}

/**
 * Drops each month's partition that ends at or before `before` (DETACH, then DROP: a whole
 * month goes in the time of a catalogue change, whatever its size), and deletes the DEFAULT
 * partition's rows older than `before` in batches (`batchSize` null leaves them to the caller).
 * Returns the months dropped and rows deleted.
 */
export async function dropMonthsBefore(db: Db, t: MonthlyTable, before: Date, batchSize: number | null): Promise<{ dropped: number; deleted: number }> {
  let dropped = 0;
  for (const m of await monthPartitions(db, t)) {
    if (monthStart(m, 1) > before) break;
    try {
      await db.transaction(async (tx) => {
        // DETACH locks the whole table: while it waits for a long read (a report), every new
        // read of the table would queue behind it. Better to give up and try at the next run.
        await tx.execute(sql`SET LOCAL lock_timeout = '${sql.raw(String(LOCK_TIMEOUT_MS))}ms'`);
        await tx.execute(sql`ALTER TABLE ${id(t.table)} DETACH PARTITION ${id(partitionName(t, m))}`);
        await tx.execute(sql`DROP TABLE ${id(partitionName(t, m))}`);
      });
    } catch (err) {
      if (lockTimedOut(err)) break;
      throw err;
    }
    dropped++;
  }
  if (batchSize === null) return { dropped, deleted: 0 };
  const cut = t.kind === 'date' ? before.toISOString().slice(0, 10) : before.toISOString();
  let deleted = 0;
  for (;;) {
    const res = await db.execute<{ n: number }>(sql`
      WITH gone AS (
        DELETE FROM ${id(defaultName(t))} WHERE ctid = ANY(ARRAY(SELECT ctid FROM ${id(defaultName(t))} WHERE ${id(t.column)} < ${cut} LIMIT ${batchSize})) RETURNING 1
      )
      SELECT count(*)::int AS n FROM gone`);
    const n = res.rows[0]!.n;
    deleted += n;
    if (n < batchSize) return { dropped, deleted };
  }
}
