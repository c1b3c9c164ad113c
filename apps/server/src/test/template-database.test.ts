import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database, type Db } from '../db/client.ts';
import { countRows, sqlRows } from './sql-rows.ts';
import { createTestApp, createTestAppOn, scratchPostgresDatabase, signIn, type TestApp } from './test-app.ts';

const onPostgres = process.env.PAGEWATCH_TEST_DB === 'postgres';
const apps: TestApp[] = [];
afterAll(async () => {
  for (const t of apps) await t.close();
});
const kept = (t: TestApp) => (apps.push(t), t);

/** A new database that its opening migrates for real, and how to drop it. */
async function migratedNow(): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (!onPostgres) return { database: await openDatabase({ url: null, dataDir: 'memory://' }), drop: async () => {} };
  const scratch = await scratchPostgresDatabase();
  return { database: await openDatabase({ url: scratch.url, dataDir: '' }), drop: scratch.drop };
}

/** What a database holds: its tables' columns, indexes, constraints, functions and triggers, and each table's rows. */
async function contents(db: Db): Promise<{ schema: string[]; rows: Record<string, number> }> {
  const schema = await sqlRows<{ item: string }>(db, sql`
    SELECT 'column ' || table_schema || '.' || table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || coalesce(column_default, '') AS item
      FROM information_schema.columns WHERE table_schema IN ('public', 'drizzle')
    UNION ALL SELECT 'index ' || indexdef FROM pg_indexes WHERE schemaname IN ('public', 'drizzle')
    UNION ALL SELECT 'constraint ' || conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid) FROM pg_constraint WHERE connamespace = 'public'::regnamespace
    UNION ALL SELECT 'function ' || proname || ' ' || md5(prosrc) FROM pg_proc WHERE pronamespace = 'public'::regnamespace
    UNION ALL SELECT 'trigger ' || pg_get_triggerdef(t.oid) FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid WHERE NOT t.tgisinternal AND c.relnamespace = 'public'::regnamespace
    UNION ALL SELECT 'extension ' || extname FROM pg_extension
    ORDER BY 1`);
  const tables = await sqlRows<{ name: string }>(db, sql`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`);
  const rows: Record<string, number> = {};
  for (const { name } of tables) rows[name] = await countRows(db, name);
  rows['drizzle.__drizzle_migrations'] = Number((await sqlRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`))[0]!.n);
  return { schema: schema.map((r) => r.item), rows };
}

describe(`a test file's database (${onPostgres ? 'PostgreSQL' : 'embedded database'})`, () => {
  it('is a copy of the migrated template: its start applies no migration, seeds it as a new installation, and shares nothing with another copy', async () => {
    const t = kept(await createTestApp());
    expect(t.database.migrations.applied).toEqual([]);
    await signIn(t.app);
    expect(await countRows(t.database.db, 'locations', sql`code = 'DEFAULT'`)).toBe(1);
    expect(await countRows(t.database.db, 'dictionaries')).toBeGreaterThan(0);

    await t.database.db.execute(sql`INSERT INTO locations (code, name) VALUES ('ONLY-HERE', 'Only in the first copy')`);
    const other = kept(await createTestApp());
    expect(await countRows(other.database.db, 'locations', sql`code = 'ONLY-HERE'`)).toBe(0);
    expect(await countRows(t.database.db, 'locations', sql`code = 'ONLY-HERE'`)).toBe(1);
  });

  // Migrating for real takes a minute and more on a loaded machine.
  it('holds, once the server has started on it, what a new database migrated and started on holds: the same schema, the same rows', { timeout: 300_000 }, async () => {
    const fresh = await migratedNow();
    const started = kept(await createTestAppOn(fresh.database, fresh.drop));
    expect(started.database.migrations.applied.length).toBeGreaterThan(0);
    const copy = kept(await createTestApp());
    const [want, got] = [await contents(started.database.db), await contents(copy.database.db)];
    expect(got.schema).toEqual(want.schema);
    expect(got.rows).toEqual(want.rows);
    expect(want.schema.length).toBeGreaterThan(500);
  });
});
