import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { eq, sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settings } from '../db/schema/settings.ts';
import { bearer, createTestApp, scratchPostgresDatabase, signIn } from '../test/test-app.ts';
import { readJournal } from '../db/migrations.ts';
import { createMonth, dropMonthsBefore, LOCK_TIMEOUT_MS, monthPartitions, monthStart } from '../db/partitions.ts';
import { HISTORY_TABLES, MONTHS_AHEAD } from './history-housekeeping.job.ts';

const onPostgres = process.env.PAGEWATCH_TEST_DB === 'postgres';
const folder = fileURLToPath(new URL('../../drizzle', import.meta.url));
const ym = (d: Date) => `${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
const monthsAgo = (n: number, day = 15) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - n, day, 12));
};

type Exec = (q: ReturnType<typeof sql>) => Promise<{ rows: Record<string, unknown>[] }>;

describe('migration 0038', () => {
  const drops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const d of drops) await d();
  });

  it('keeps every history row, in its month, with its keys, sequences and triggers', { timeout: 240_000 }, async () => {
    // The migrations before 0038 in a folder of their own: the database as an upgrade finds it.
    const journal = readJournal(folder);
    const before = mkdtempSync(join(tmpdir(), 'pw-0038-'));
    drops.push(async () => rmSync(before, { recursive: true, force: true }));
    mkdirSync(join(before, 'meta'));
    const older = journal.filter((e) => e.tag < '0038');
    for (const e of older) cpSync(join(folder, `${e.tag}.sql`), join(before, `${e.tag}.sql`));
    writeFileSync(join(before, 'meta', '_journal.json'), JSON.stringify({ version: '7', dialect: 'postgresql', entries: older }));

    let exec: Exec;
    let upgrade: () => Promise<void>;
    if (onPostgres) {
      const scratch = await scratchPostgresDatabase();
      const client = new pg.Client({ connectionString: scratch.url });
      await client.connect();
      drops.push(async () => {
        await client.end();
        await scratch.drop();
      });
      const db = drizzlePg(client);
      await migratePg(db, { migrationsFolder: before });
      exec = (q) => db.execute(q);
      upgrade = () => migratePg(db, { migrationsFolder: folder });
    } else {
      const client = await PGlite.create('memory://', { extensions: { pg_trgm } });
      drops.push(() => client.close());
      const db = drizzlePglite(client);
      await migratePglite(db, { migrationsFolder: before });
      exec = (q) => db.execute(q);
      upgrade = () => migratePglite(db, { migrationsFolder: folder });
    }

    const old = monthsAgo(14);
    const recent = monthsAgo(1);
    const day = (d: Date) => d.toISOString().slice(0, 10);
    await exec(sql`INSERT INTO locations (code, name) VALUES ('L', 'L')`);
    await exec(sql`INSERT INTO event_groups (code, name) VALUES ('DEVICES', 'DEVICES')`);
    await exec(sql`INSERT INTO devices (location_id, ip, serial_number, model_code) SELECT id, '127.0.0.9', 'SN0038', 'M' FROM locations`);
    const dev = sql`(SELECT id FROM devices)`;
    const loc = sql`(SELECT id FROM locations)`;
    for (const at of [old, recent]) {
      await exec(sql`INSERT INTO event_logs (log_datetime, event_group_id, log_level, message) SELECT ${at.toISOString()}, id, 'I', 'kept' FROM event_groups`);
      await exec(sql`INSERT INTO device_events (event_at, type, device_id, location_id) VALUES (${at.toISOString()}, 'STATUS_CHANGE', ${dev}, ${loc})`);
      await exec(sql`INSERT INTO device_ip_history (device_id, ip, changed_at) VALUES (${dev}, '127.0.0.9', ${at.toISOString()})`);
      await exec(sql`INSERT INTO dm_device_days (fact_date, device_id, location_id, total_count, total_start, readings) VALUES (${day(at)}, ${dev}, ${loc}, 10, 5, 1)`);
      await exec(sql`INSERT INTO dm_device_user_days (fact_date, device_id, location_id, username, printed_page_count) VALUES (${day(at)}, ${dev}, ${loc}, 'u', 1)`);
    }
    const tables = ['event_logs', 'device_events', 'device_ip_history', 'dm_device_days', 'dm_device_user_days'];
    const counts = async () => Object.fromEntries(await Promise.all(tables.map(async (t) => [t, (await exec(sql`SELECT count(*)::int AS n FROM ${sql.identifier(t)}`)).rows[0].n])));
    const was = await counts();
    expect(was.event_logs).toBe(2);

    await upgrade();

    expect(await counts()).toEqual(was);
    for (const t of tables) {
      const kind = (await exec(sql`SELECT relkind::text AS k FROM pg_class WHERE oid = ${t}::regclass`)).rows[0].k;
      expect(kind, t).toBe('p');
      const places = (await exec(sql`SELECT tableoid::regclass::text AS p FROM ${sql.identifier(t)} ORDER BY 1`)).rows.map((r) => r.p);
      expect(places, t).toEqual([`${t}_p${ym(old)}`, `${t}_p${ym(recent)}`]);
    }
    // The sequence went with the table, the months' roll-up trigger too, and the key refuses a double.
    await exec(sql`INSERT INTO device_events (event_at, type, device_id, location_id) VALUES (now(), 'STATUS_CHANGE', ${dev}, ${loc})`);
    expect((await exec(sql`SELECT max(id)::int AS id FROM device_events`)).rows[0].id).toBe(3);
    await exec(sql`INSERT INTO dm_device_days (fact_date, device_id, location_id, total_count, total_start, readings) VALUES (current_date, ${dev}, ${loc}, 20, 15, 1)`);
    expect((await exec(sql`SELECT count(*)::int AS n FROM dm_device_months WHERE month = date_trunc('month', current_date)::date`)).rows[0].n).toBe(1);
    await expect(exec(sql`INSERT INTO dm_device_user_days (fact_date, device_id, location_id, username, printed_page_count) VALUES (${day(recent)}, ${dev}, ${loc}, 'u', 1)`)).rejects.toThrow();
  });
});

describe('history housekeeping', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let device: number;
  beforeAll(async () => {
    t = await createTestApp();
    const res = await t.ctx.db.execute(sql`INSERT INTO devices (location_id, ip, serial_number, model_code) SELECT id, '127.0.0.8', 'SNHK', 'M' FROM locations WHERE code = 'DEFAULT' RETURNING id`);
    device = Number(res.rows[0].id);
  });
  afterAll(() => t.close());

  const addressAt = async (at: Date) => {
    const res = await t.ctx.db.execute(sql`INSERT INTO device_ip_history (device_id, ip, changed_at) VALUES (${device}, '127.0.0.8', ${at.toISOString()}) RETURNING id, tableoid::regclass::text AS place`);
    return res.rows[0] as { id: number; place: string };
  };
  const placeOf = async (id: number) =>
    ((await t.ctx.db.execute(sql`SELECT tableoid::regclass::text AS place FROM device_ip_history WHERE id = ${id}`)).rows[0] as { place: string } | undefined)?.place ?? null;
  const keepMonths = (months: number) => t.ctx.db.update(settings).set({ numericValue: months }).where(eq(settings.code, 'HISTORY_EVENTS_MONTHS'));

  it('puts a row in its month, and one far in the past or future in the default partition', async () => {
    const now = await addressAt(new Date());
    expect(now.place).toBe(`device_ip_history_p${ym(new Date())}`);
    expect((await addressAt(new Date('1990-03-01T00:00:00Z'))).place).toBe('device_ip_history_default');
    expect((await addressAt(new Date('2090-03-01T00:00:00Z'))).place).toBe('device_ip_history_default');
  });

  it("makes next months' partitions, moves kept rows out of the default, drops months past retention and keeps the rest", async () => {
    const gone = await addressAt(monthsAgo(24));
    const kept = await addressAt(monthsAgo(6));
    const current = await addressAt(new Date());
    const future = await addressAt(new Date('2090-05-01T00:00:00Z'));
    expect(await placeOf(kept.id)).toBe('device_ip_history_default');

    await keepMonths(12);
    expect(await t.ctx.jobs.runNow('history-housekeeping')).not.toBeNull();
    for (const table of HISTORY_TABLES) {
      const months = (await monthPartitions(t.ctx.db, table)).map(ym);
      for (let i = 0; i <= MONTHS_AHEAD; i++) expect(months, table.table).toContain(ym(monthStart(new Date(), i)));
    }
    expect(await placeOf(gone.id)).toBeNull();
    expect(await placeOf(kept.id)).toBe(`device_ip_history_p${ym(monthsAgo(6))}`);
    expect(await placeOf(current.id)).toBe(`device_ip_history_p${ym(new Date())}`);
    expect(await placeOf(future.id)).toBe('device_ip_history_default');

    // Three months now: the month 6 months back goes as a whole partition; this month stays.
    await keepMonths(3);
    await t.ctx.jobs.runNow('history-housekeeping');
    expect(await placeOf(kept.id)).toBeNull();
    expect((await monthPartitions(t.ctx.db, HISTORY_TABLES.find((x) => x.table === 'device_ip_history')!)).map(ym)).not.toContain(ym(monthsAgo(6)));
    expect(await placeOf(current.id)).toBe(`device_ip_history_p${ym(new Date())}`);
    expect(await placeOf(future.id)).toBe('device_ip_history_default');
  });

  it.runIf(onPostgres)('leaves a month to the next run when a long read holds the table, instead of queueing every read behind its lock', async () => {
    const table = HISTORY_TABLES.find((x) => x.table === 'device_ip_history')!;
    const month = monthStart(monthsAgo(30));
    await createMonth(t.ctx.db, table, month);
    const reader = new pg.Client({ connectionString: t.database.url! });
    await reader.connect();
    try {
      await reader.query('BEGIN');
      await reader.query('SELECT count(*) FROM device_ip_history');
      const started = Date.now();
      expect((await dropMonthsBefore(t.ctx.db, table, monthStart(month, 1), null)).dropped).toBe(0);
      expect(Date.now() - started).toBeLessThan(LOCK_TIMEOUT_MS + 3_000);
      await reader.query('COMMIT');
      expect((await dropMonthsBefore(t.ctx.db, table, monthStart(month, 1), null)).dropped).toBe(1);
    } finally {
      await reader.end();
    }
  });

  it('log clearing drops the event log\'s whole months older than LOG_STORAGE_DAYS as partitions', async () => {
    const logs = HISTORY_TABLES.find((x) => x.table === 'event_logs')!;
    await createMonth(t.ctx.db, logs, monthStart(monthsAgo(5)));
    const res = await t.ctx.db.execute(sql`INSERT INTO event_logs (log_datetime, event_group_id, log_level, message)
      SELECT ${monthsAgo(5).toISOString()}, min(id), 'I', 'old' FROM event_groups RETURNING tableoid::regclass::text AS place`);
    expect(res.rows[0].place).toBe(`event_logs_p${ym(monthsAgo(5))}`);
    await t.ctx.db.update(settings).set({ numericValue: 30 }).where(eq(settings.code, 'LOG_STORAGE_DAYS'));
    await t.ctx.db.update(settings).set({ flagValue: true }).where(eq(settings.code, 'CLEARING_ENABLED'));
    const runId = await t.ctx.jobs.runNow('log-clearing');
    expect((await monthPartitions(t.ctx.db, logs)).map(ym)).not.toContain(ym(monthsAgo(5)));
    const run = await t.ctx.db.execute(sql`SELECT message FROM event_logs WHERE id = ${runId}`);
    expect(run.rows[0].message).toMatch(/and 1 whole months/);
  });

  it("gives a new month's partition the table's statistics: a Russian text half the month holds is planned as common", async () => {
    // PostgreSQL plans each partition by its own statistics and keeps a partitioned table's
    // extended statistics for the whole tree only: without its own, a month took "состояние"
    // for a rare text and read half its records through the trigram index (bench:logs).
    const logs = HISTORY_TABLES.find((x) => x.table === 'event_logs')!;
    const month = monthStart(monthsAgo(2));
    const partition = sql.identifier(`event_logs_p${ym(month)}`);
    if (!(await monthPartitions(t.ctx.db, logs)).map(ym).includes(ym(month))) await createMonth(t.ctx.db, logs, month);
    await t.ctx.db.execute(sql`INSERT INTO event_logs (log_datetime, event_group_id, log_level, message, message_ru)
      SELECT ${monthsAgo(2).toISOString()}::timestamptz, (SELECT min(id) FROM event_groups), 'I', 'Device ' || i || ' status changed',
        CASE WHEN i % 2 = 0 THEN 'Состояние устройства ' || i || ' изменилось' END
      FROM generate_series(1, 2000) AS i`);
    await t.ctx.db.execute(sql`ANALYZE ${partition}`);
    const plan = await t.ctx.db.execute<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(
      sql`EXPLAIN (FORMAT JSON) SELECT 1 FROM ${partition} WHERE COALESCE(message_ru, message) ILIKE '%состояние%'`);
    const estimated = plan.rows[0]!['QUERY PLAN'][0].Plan['Plan Rows'];
    expect(estimated, `rows estimated of the 1,000 that match`).toBeGreaterThan(500);
    expect(estimated).toBeLessThan(2000);
    // The partitions the migrations made (migration 0052) have them too, the default's included.
    const bare = await t.ctx.db.execute<{ name: string }>(sql`
      SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'event_logs'::regclass AND NOT EXISTS (SELECT 1 FROM pg_statistic_ext x WHERE x.stxrelid = c.oid)`);
    expect(bare.rows).toEqual([]);
  });

  it('refuses a retention outside 0 to 120 months with the field and a message in the caller\'s language', async () => {
    const token = await signIn(t.app);
    for (const [lang, text] of [['en', 'A whole number of months'], ['ru', 'Целое число месяцев']] as const) {
      const res = await t.app.inject({ method: 'PUT', url: '/api/settings', headers: { ...bearer(token), 'accept-language': lang }, payload: [{ code: 'HISTORY_DAYS_MONTHS', numericValue: 121 }] });
      expect(res.statusCode).toBe(400);
      expect(res.json().details[0].field).toBe('HISTORY_DAYS_MONTHS');
      expect(res.json().details[0].message).toContain(text);
    }
    const ok = await t.app.inject({ method: 'PUT', url: '/api/settings', headers: bearer(token), payload: [{ code: 'HISTORY_DAYS_MONTHS', numericValue: 24 }] });
    expect(ok.statusCode).toBe(200);
    const shown = (await t.app.inject({ method: 'GET', url: '/api/settings/', headers: bearer(token) })).json() as { code: string; numericValue: number }[];
    expect(shown.find((s) => s.code === 'HISTORY_DAYS_MONTHS')?.numericValue).toBe(24);
    expect(shown.find((s) => s.code === 'HISTORY_RUNS_MONTHS')?.numericValue).toBe(12);
  });
});
