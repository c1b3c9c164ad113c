import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestAppOn, scratchPostgresDatabase } from '../test/test-app.ts';
import { openDatabase } from './client.ts';
import { readJournal } from './migrations.ts';

const journal = readJournal(fileURLToPath(new URL('../../drizzle', import.meta.url)));
const onPostgres = process.env.PAGEWATCH_TEST_DB === 'postgres';

/** A database that outlives one openDatabase: a folder for PGlite, a database of its own on PostgreSQL. */
async function durableDatabase(): Promise<{ open: () => ReturnType<typeof openDatabase>; drop: () => Promise<void> }> {
  if (!onPostgres) {
    const dir = mkdtempSync(join(tmpdir(), 'pw-migrations-'));
    return { open: () => openDatabase({ url: null, dataDir: dir }), drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const scratch = await scratchPostgresDatabase();
  return { open: () => openDatabase({ url: scratch.url, dataDir: '' }), drop: scratch.drop };
}

const drops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const drop of drops) await drop();
});

// Each test migrates new databases for real: a minute and more each on a loaded machine.
const MIGRATING = { timeout: 300_000 };

describe('upgrades', () => {
  it('logs each migration a start applies and the time they took, and nothing on a start with none to apply', MIGRATING, async () => {
    const lines: string[] = [];
    // On a new database: a test app's own is a copy of one migrated already.
    const fresh = await durableDatabase();
    const t = await createTestAppOn(await fresh.open(), fresh.drop, { logStream: { write: (line) => void lines.push(line) } });
    await t.close();
    const entries = lines.map((l) => JSON.parse(l));
    const applied = entries.filter((e) => e.msg === 'migration applied').map((e) => e.migration);
    expect(applied).toEqual(journal.map((e) => e.tag));
    const summary = entries.find((e) => e.msg === 'database upgraded');
    expect(summary).toMatchObject({ migrations: journal.length });
    expect(summary.durationMs).toBeGreaterThanOrEqual(0);

    const d = await durableDatabase();
    drops.push(d.drop);
    const first = await d.open();
    expect(first.migrations.applied).toHaveLength(journal.length);
    await first.close();
    const again = await d.open();
    expect(again.migrations.applied).toEqual([]);
    await again.close();
  });

  it('refuses to start on a database that a newer version upgraded', MIGRATING, async () => {
    const d = await durableDatabase();
    drops.push(d.drop);
    const first = await d.open();
    const newer = journal.at(-1)!.when + 86_400_000;
    await first.db.execute(sql`INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES ('from-a-newer-version', ${newer})`);
    await first.close();
    await expect(d.open()).rejects.toThrow(/database was upgraded by a newer Pagewatch: it has \d+ migrations applied, 1 of them unknown to this version/);
  });
});
