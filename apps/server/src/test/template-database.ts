import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { openDatabase, type Database } from '../db/client.ts';

/**
 * The migrated database every test file starts from, made once and copied: all migrations on
 * a new database take 7 s on a quiet machine and 70-90 s at load 30, past the hooks' timeout.
 * PGlite's is a dump of its data folder in a file under the system temp folder, PostgreSQL's a
 * template database (`CREATE DATABASE ... TEMPLATE`). Both are named by a hash of the
 * migrations folder and the PGlite version, and by the UTC month: migration 0038 makes the
 * history partitions from the month it runs in, so a template from another month is not what a
 * new installation gets. Only the migrations are in it: what the server seeds at its first
 * start (roles, the DEFAULT location, dictionaries, admin) it still seeds on each copy.
 */
const migrationsFolder = fileURLToPath(new URL('../../drizzle', import.meta.url));
// The package exports no package.json: its entry is dist/index.cjs.
const pglitePackage = join(dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')), '..', 'package.json');
const PGLITE_VERSION = (JSON.parse(readFileSync(pglitePackage, 'utf8')) as { version: string }).version;
const PREFIX = 'pagewatch-test-template-';

const month = () => new Date().toISOString().slice(0, 7).replace('-', '');

function templateKey(): string {
  const hash = createHash('sha256').update(PGLITE_VERSION);
  for (const dir of [migrationsFolder, join(migrationsFolder, 'meta')]) {
    for (const name of readdirSync(dir).filter((n) => n.includes('.')).sort()) hash.update(`\0${name}\0`).update(readFileSync(join(dir, name)));
  }
  return `${month()}_${hash.digest('hex').slice(0, 16)}`;
}

/** The dump of a migrated PGlite, from the temp folder or made now (and stored there). */
export async function pgliteTemplate(): Promise<Blob> {
  const file = join(tmpdir(), `${PREFIX}${templateKey()}.tar`);
  try {
    return new Blob([readFileSync(file)]);
  } catch {
    // Not made yet: runs started at once may each make it, and each renames its own whole file.
  }
  const database = await openDatabase({ url: null, dataDir: 'memory://' });
  // Not compressed: a new PGlite loads the 46 MB a second sooner than the 5.6 MB of gzip (at load 16).
  const dump = await (database.db as unknown as { $client: PGlite }).$client.dumpDataDir('none');
  await database.close();
  const partial = `${file}.${randomBytes(4).toString('hex')}`;
  writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  renameSync(partial, file);
  // Templates of months before the last are of no run any more.
  const stale = (name: string) => name.startsWith(PREFIX) && name.slice(PREFIX.length, PREFIX.length + 6) < lastMonth();
  for (const name of readdirSync(tmpdir()).filter(stale)) rmSync(join(tmpdir(), name), { force: true });
  return dump;
}

function lastMonth(): string {
  const d = new Date();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() - 1);
  return d.toISOString().slice(0, 7).replace('-', '');
}

const withUrlPath = (base: string, database: string) => {
  const url = new URL(base);
  url.pathname = `/${database}`;
  return url.toString();
};

async function onAdmin<T>(base: string, run: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  return run(c).finally(() => c.end());
}

/**
 * The name of the migrated template database on the PostgreSQL of `base`, made now if it is not
 * there. Workers and Vitest runs that start at once take turns on an advisory lock; the one
 * that makes it marks it a template (closed to connections) last, so a half-made one (a run
 * killed while migrating) is made again.
 */
export async function postgresTemplate(base: string): Promise<string> {
  const name = `pw_template_${templateKey()}`;
  return onAdmin(base, async (c) => {
    const ready = async () => (await c.query<{ ok: boolean }>('SELECT datistemplate AND NOT datallowconn AS ok FROM pg_database WHERE datname = $1', [name])).rows[0]?.ok === true;
    if (await ready()) return name;
    await c.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
    try {
      if (await ready()) return name;
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.query(`CREATE DATABASE ${name}`);
      const database = await openDatabase({ url: withUrlPath(base, name), dataDir: '' });
      await database.close();
      await c.query(`ALTER DATABASE ${name} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
      const stale = await c.query<{ datname: string }>(
        `SELECT datname FROM pg_database WHERE datname LIKE 'pw\\_template\\_%' AND substr(datname, 13, 6) < $1`, [lastMonth()]);
      for (const { datname } of stale.rows) {
        await c.query(`ALTER DATABASE ${datname} WITH IS_TEMPLATE false`);
        await c.query(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
      }
      return name;
    } finally {
      await c.query('SELECT pg_advisory_unlock(hashtext($1))', [name]);
    }
  });
}

/**
 * A database of its own on the PostgreSQL of `base`, empty or a copy of `template`. A copy
 * waits and tries again while another session is still connected to the template (PostgreSQL
 * refuses to copy it then).
 */
export async function createPostgresDatabase(base: string, template?: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `pw_test_${randomBytes(6).toString('hex')}`;
  await onAdmin(base, async (c) => {
    for (let attempt = 1; ; attempt++) {
      try {
        await c.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
        return;
      } catch (err) {
        // 55006: "source database is being accessed by other users".
        if ((err as { code?: string }).code !== '55006' || attempt >= 20) throw err;
        await new Promise((r) => setTimeout(r, 250 * attempt));
      }
    }
  });
  return { url: withUrlPath(base, name), drop: () => onAdmin(base, async (c) => void (await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))) };
}

/** The test's own copy of the template, on the database of its project, and how to drop it. */
export async function templateCopy(): Promise<{ database: Database; drop: () => Promise<void> }> {
  if (process.env.PAGEWATCH_TEST_DB !== 'postgres') {
    return { database: await openDatabase({ url: null, dataDir: 'memory://', loadDataDir: await pgliteTemplate() }), drop: async () => {} };
  }
  const base = process.env.DATABASE_URL!;
  const copy = await createPostgresDatabase(base, await postgresTemplate(base));
  try {
    return { database: await openDatabase({ url: copy.url, dataDir: '' }), drop: copy.drop };
  } catch (err) {
    await copy.drop();
    throw err;
  }
}
