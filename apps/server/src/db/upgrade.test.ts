import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { Writable } from 'node:stream';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { OPERATOR_TABLES } from '../test/operator-data.ts';
import { ADMIN_PASSWORD, bearer, scratchPostgresDatabase, signIn } from '../test/test-app.ts';
import { openDatabase, type Database } from './client.ts';
import { backupDataDir } from './pglite-backup.ts';
import { readJournal } from './migrations.ts';

/**
 * An upgrade from the previous release: its database, with an operator's data, is checked in
 * as a plain SQL dump (test/fixtures/previous-release.sql.gz, see the README there). Loaded
 * into a fresh database, it is upgraded by this version's start, and everything is still there.
 */
const onPostgres = process.env.PAGEWATCH_TEST_DB === 'postgres';
const journal = readJournal(fileURLToPath(new URL('../../drizzle', import.meta.url)));
// psql's own commands (\restrict and \unrestrict, which pg_dump writes) are not SQL.
const dump = gunzipSync(readFileSync(new URL('../../test/fixtures/previous-release.sql.gz', import.meta.url)))
  .toString()
  .split('\n')
  .filter((line) => !line.startsWith('\\'))
  .join('\n');

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

type Loaded = { counts: Record<string, number>; migrations: number; open: () => Promise<Database> };
const countsQuery = `SELECT ${OPERATOR_TABLES.map((t) => `(SELECT count(*)::int FROM public.${t}) AS ${t}`).join(', ')}, (SELECT count(*)::int FROM drizzle.__drizzle_migrations) AS migrations`;

/** Loads the dump into a new database and reads what it holds, before any migration of this version. */
async function load(extra = ''): Promise<Loaded & { dir: string | null }> {
  let row: Record<string, number>;
  let open: Loaded['open'];
  let dir: string | null = null;
  if (onPostgres) {
    const scratch = await scratchPostgresDatabase();
    cleanups.push(scratch.drop);
    const client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    await client.query(dump + extra);
    row = (await client.query(countsQuery)).rows[0];
    await client.end();
    open = () => openDatabase({ url: scratch.url, dataDir: '' });
  } else {
    const folder = mkdtempSync(join(tmpdir(), 'pw-upgrade-'));
    dir = folder;
    cleanups.push(async () => rmSync(folder, { recursive: true, force: true }));
    const client = await PGlite.create(folder, { extensions: { pg_trgm } });
    await client.exec(dump + extra);
    row = (await client.query<Record<string, number>>(countsQuery)).rows[0]!;
    await client.close();
    open = () => openDatabase({ url: null, dataDir: folder });
  }
  const { migrations, ...counts } = row;
  return { counts, migrations: migrations!, open, dir };
}

describe(`an upgrade from the previous release (${onPostgres ? 'PostgreSQL' : 'embedded database'})`, () => {
  it("applies this version's newer migrations, keeps every row, and serves the data", { timeout: 300_000 }, async () => {
    const before = await load();
    expect(before.counts).toMatchObject({ devices: 3, ingested_readings: 9, consumables: 4, notifications: 1 });

    const database = await before.open();
    cleanups.push(() => database.close());
    expect(database.migrations.applied).toEqual(journal.slice(before.migrations).map((e) => e.tag));
    const after = (await database.db.execute(sql.raw(countsQuery))).rows[0] as Record<string, number>;
    const { migrations, ...counts } = after;
    expect(migrations).toBe(journal.length);
    // Every row kept; the rows this version's migrations add are the only difference: the grant
    // MNU_CONSUMABLES (0047) and MNU_BILLING (0055) for the three seeded roles (ADMIN and DEVELOPER
    // all three operations, OPERATOR READ), the setting AGENT_UPDATES_PAUSED (0048), and the grants
    // MNU_IDENTITY_PROVIDERS (0057) and BTN_DEVICE_WEB (0058) for ADMIN and DEVELOPER, all three operations.
    expect(counts).toEqual({ ...before.counts, role_grants: before.counts.role_grants! + 14 + 6 + 6, settings: before.counts.settings! + 1 });

    const { app } = await buildApp({ ...loadConfig({}), secretKey: Buffer.alloc(32, 7), adminPassword: 'not-the-one-in-the-dump', webDist: '/nonexistent', licenseIssuerKey: '/nonexistent/license-issuer.pem' }, database, { logger: false });
    cleanups.push(() => app.close());
    // The administrator of the old database signs in with the password they had.
    const admin = await signIn(app, 'admin', ADMIN_PASSWORD);
    const get = async (url: string) => {
      const res = await app.inject({ url, headers: bearer(admin) });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    const devices = (await get('/api/devices/page?page=100,1')).pageRows as { serialNumber: string }[];
    expect(devices.map((d) => d.serialNumber).sort()).toEqual(['BK1', 'BK2', 'BK3']);
    const users = (await get('/api/managed-users-v/?page=100,1')).pageRows as { login: string }[];
    expect(users.map((u) => u.login)).toEqual(expect.arrayContaining(['admin', 'bk_admin', 'bk_operator']));
    const settings = new Map((await get('/api/settings/') as { code: string; stringValue: string | null; numericValue: number | null }[]).map((s) => [s.code, s]));
    expect(settings.get('SMTP_HOST')?.stringValue).toBe('mail.example.com');
    expect(settings.get('LOG_STORAGE_DAYS')?.numericValue).toBe(45);
    const notifications = (await get('/api/notifications/page?page=100,1')).pageRows as { name: string }[];
    expect(notifications.map((n) => n.name)).toEqual(['Errors at the site']);
  });
});

describe.skipIf(onPostgres)('an upgrade from the previous release leaves no secret in clear (issue 52)', () => {
  it('rewrites the tables it sealed: neither the data folder nor a backup taken after holds the old clear values', { timeout: 120_000 }, async () => {
    const COMMUNITY = 'pw-old-clear-community-5e1d';
    const before = await load(`UPDATE public.network_ranges SET community = '${COMMUNITY}';`);
    const database = await before.open();
    const { app } = await buildApp({ ...loadConfig({}), secretKey: Buffer.alloc(32, 7), adminPassword: 'not-the-one-in-the-dump', webDist: '/nonexistent', licenseIssuerKey: '/nonexistent/license-issuer.pem' }, database, { logger: false });
    const [range] = (await database.db.execute(sql`SELECT community FROM network_ranges`)).rows as { community: string }[];
    expect(range.community).toMatch(/^enc:v1:/);
    await app.close();
    await database.close();
    const files = readdirSync(before.dir!, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    const holding = files.filter((e) => readFileSync(join(e.parentPath, e.name)).includes(COMMUNITY)).map((e) => join(e.parentPath, e.name));
    expect(holding).toEqual([]);
    const chunks: Buffer[] = [];
    await backupDataDir(before.dir!, new Writable({ write: (c: Buffer, _e, done) => { chunks.push(c); done(); } }));
    expect(gunzipSync(Buffer.concat(chunks)).includes(COMMUNITY)).toBe(false);
  });
});

describe(`an upgrade from the previous release keeps the room plans (${onPostgres ? 'PostgreSQL' : 'embedded database'})`, () => {
  it('moves a stored plan into its parts and serves it whole', { timeout: 120_000 }, async () => {
    // 320 KB: three parts of 128 KB.
    const before = await load(`INSERT INTO public.location_plans (location_id, content_type, data) VALUES (1, 'image/png', decode(repeat('89504e470d0a1a0a', 40000), 'hex'));`);
    const database = await before.open();
    cleanups.push(() => database.close());
    const { app } = await buildApp({ ...loadConfig({}), secretKey: Buffer.alloc(32, 7), adminPassword: 'not-the-one-in-the-dump', webDist: '/nonexistent', licenseIssuerKey: '/nonexistent/license-issuer.pem' }, database, { logger: false });
    cleanups.push(() => app.close());
    const res = await app.inject({ url: '/api/locations/1/plan/image', headers: bearer(await signIn(app, 'admin', ADMIN_PASSWORD)) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.rawPayload.equals(Buffer.from('89504e470d0a1a0a'.repeat(40000), 'hex'))).toBe(true);
    const [{ parts }] = (await database.db.execute(sql`SELECT count(*)::int AS parts FROM location_plan_parts WHERE location_id = 1`)).rows as { parts: number }[];
    expect(parts).toBe(3);
  });
});
