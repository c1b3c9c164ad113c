import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { Db } from './db-type.ts';

/** One migration of the server's own journal: its file's name and when it was made. */
type JournalEntry = { tag: string; when: number };

/** What the start applied: each new migration's tag, and how long applying them all took. */
export type MigrationRun = { applied: string[]; ms: number };

export function readJournal(migrationsFolder: string): JournalEntry[] {
  const journal = JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: JournalEntry[] };
  return journal.entries;
}

/** When each migration applied to the database was made (drizzle keeps the journal's `when`). */
async function appliedStamps(db: Db): Promise<number[]> {
  const table = await db.execute(sql`SELECT to_regclass('drizzle.__drizzle_migrations') IS NOT NULL AS present`);
  if (!table.rows[0]?.present) return [];
  const rows = await db.execute(sql`SELECT created_at::text AS created_at FROM drizzle.__drizzle_migrations ORDER BY created_at`);
  return rows.rows.map((r) => Number(r.created_at));
}

/**
 * Applies the migrations the database lacks, after checking that it is not newer than this
 * server: drizzle's migrator compares only the newest stamp and would start an older server on
 * a database whose tables it does not know (after a downgrade or a restored newer backup),
 * which then fails request by request. Drizzle applies all new migrations in one transaction,
 * so the run reports which were applied and the total time, not a time for each.
 */
export async function migrateChecked(db: Db, migrationsFolder: string, migrate: () => Promise<void>): Promise<MigrationRun> {
  const journal = readJournal(migrationsFolder);
  const known = new Map(journal.map((e) => [e.when, e.tag]));
  const before = await appliedStamps(db);
  const unknown = before.filter((when) => !known.has(when));
  if (unknown.length > 0 || before.length > journal.length) {
    throw new Error(
      `The database was upgraded by a newer Pagewatch: it has ${before.length} migrations applied, ` +
        `${unknown.length} of them unknown to this version (which has ${journal.length}, the newest ${journal.at(-1)?.tag}). ` +
        `Start the newer version, or restore a backup made with this one.`,
    );
  }
  const started = performance.now();
  await migrate();
  const ms = Math.round(performance.now() - started);
  const had = new Set(before);
  const applied = (await appliedStamps(db)).filter((when) => !had.has(when)).map((when) => known.get(when) ?? String(when));
  return { applied, ms };
}
