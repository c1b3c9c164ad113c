import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { fingerprint, seedOperatorData } from '../test/operator-data.ts';
import { sqlRows } from '../test/sql-rows.ts';
import { ADMIN_PASSWORD, bearer, scratchPostgresDatabase, signIn } from '../test/test-app.ts';
import { openDatabase, type Database } from './client.ts';

/**
 * `npm run backup` and `npm run restore` as an operator runs them (the command in a process of
 * its own), on the database of the project: the embedded one with the server running on its
 * folder, or PostgreSQL.
 */
const serverDir = fileURLToPath(new URL('../..', import.meta.url));
const onPostgres = process.env.PAGEWATCH_TEST_DB === 'postgres';
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});
const scratch = mkdtempSync(join(tmpdir(), 'pw-backup-'));
cleanups.push(async () => rmSync(scratch, { recursive: true, force: true }));

/** A place for a database: a new data folder, or a new PostgreSQL database; the environment that points the commands at it. */
async function place(name: string): Promise<{ env: Record<string, string>; open: () => Promise<Database> }> {
  if (onPostgres) {
    const db = await scratchPostgresDatabase();
    cleanups.push(db.drop);
    return { env: { DATABASE_URL: db.url }, open: () => openDatabase({ url: db.url, dataDir: '' }) };
  }
  const dir = join(scratch, name);
  return { env: { PAGEWATCH_DATA_DIR: dir }, open: () => openDatabase({ url: null, dataDir: dir }) };
}

function command(args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['-r', '../../tools/require-node.cjs', 'src/backup-tool.ts', ...args], { cwd: serverDir, env: { PATH: process.env.PATH!, ...env } });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, output })));
}

/** The stored secrets' key of every server here, given so that no key file lands in the working folder. */
const TEST_KEY = Buffer.alloc(32, 7);

const appOn = async (database: Database) =>
  (await buildApp({ ...loadConfig({}), secretKey: TEST_KEY, adminPassword: ADMIN_PASSWORD, webDist: '/nonexistent', licenseIssuerKey: '/nonexistent/license-issuer.pem' }, database, { logger: false })).app;

async function devicesList(app: Awaited<ReturnType<typeof appOn>>) {
  const res = await app.inject({ url: '/api/devices/page?page=100,1', headers: bearer(await signIn(app)) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().pageRows as Record<string, unknown>[];
}

describe(`backup and restore (${onPostgres ? 'PostgreSQL' : 'embedded database'})`, () => {
  it('backs up a running server while it writes, and a server on the restored copy has every device, reading, user and setting', { timeout: 300_000 }, async () => {
    const source = await place('source');
    const database = await source.open();
    const app = await appOn(database);
    await seedOperatorData(app, database.db);
    const before = await fingerprint(database.db);
    const devices = await devicesList(app);
    expect(devices).toHaveLength(3);

    // Writes go on during the backup, two rows a transaction: the copy holds whole transactions
    // only. They come a millisecond apart, as requests would: PGlite answers without any I/O, so
    // a loop of its statements alone would keep the event loop, and the backup's socket, waiting.
    await database.db.execute(sql`CREATE TABLE backup_probe (n int NOT NULL)`);
    let written = 0;
    let stop = false;
    const writing = (async () => {
      while (!stop) {
        await database.db.transaction(async (tx) => {
          await tx.execute(sql`INSERT INTO backup_probe VALUES (${written})`);
          await tx.execute(sql`INSERT INTO backup_probe VALUES (${written})`);
        });
        written++;
        await new Promise((r) => setTimeout(r, 1));
      }
    })();
    while (written < 5) await new Promise((r) => setTimeout(r, 1));
    const committedBefore = written;
    const file = join(scratch, 'pagewatch.backup');
    // Files of ours in the folder (a key file, say) stay out of the backup: it holds the database only.
    if (!onPostgres) writeFileSync(join(source.env.PAGEWATCH_DATA_DIR!, 'secret.key'), 'not for backups');
    const backup = await command(['backup', file], source.env);
    stop = true;
    await writing;
    expect(backup.code, backup.output).toBe(0);
    expect(backup.output).toContain('The secret key is not in the backup');
    if (!onPostgres) expect(backup.output).toContain('The running server on');
    await app.close();
    await database.close();

    const target = await place('target');
    const restore = await command(['restore', file], target.env);
    expect(restore.code, restore.output).toBe(0);
    if (!onPostgres) {
      const files = readdirSync(target.env.PAGEWATCH_DATA_DIR!);
      expect(files).toContain('PG_VERSION');
      expect(files.filter((f) => !/^(PG_VERSION|base|global|pg_[\w.]+|postgresql(\.auto)?\.conf)$/.test(f))).toEqual([]);
    }
    const restored = await target.open();
    cleanups.push(() => restored.close());
    expect(restored.migrations.applied).toEqual([]);
    expect(await fingerprint(restored.db)).toEqual(before);
    const probe = await sqlRows<{ n: number; copies: number }>(restored.db, sql`SELECT n, count(*)::int AS copies FROM backup_probe GROUP BY n ORDER BY n`);
    expect(probe.length).toBeGreaterThanOrEqual(committedBefore);
    expect(probe.every((r, i) => r.n === i && r.copies === 2)).toBe(true);
    const restoredApp = await appOn(restored);
    cleanups.push(() => restoredApp.close());
    expect(await devicesList(restoredApp)).toEqual(devices);

    const again = await command(['restore', file], target.env);
    expect(again.code).toBe(1);
    expect(again.output).toMatch(onPostgres ? /The database pw_test_\w+ is not empty/ : /holds a database already/);
  });
});
