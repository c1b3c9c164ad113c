import { chmodSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { PipelinedPool, type PoolStats } from './pipelined-pool.ts';
import { lockDataDir } from './data-lock.ts';
import { holdServersLock, holdServersLockAlone } from './servers-lock.ts';
import { serveBackups } from './pglite-backup.ts';
import { migrateChecked, type MigrationRun } from './migrations.ts';

/** The part of the server's logger the database writes to. */
export type DbLog = { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };

import type { Db } from './db-type.ts';

export type { Db };
/** A transaction, for functions that only make sense inside one (row locks held until it ends). */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** `url` is the PostgreSQL connection string (null for PGlite), for connections of their own. */
export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  url: string | null;
  close: () => Promise<void>;
  /** The connection pool's state; null for PGlite, which is one connection in the process. */
  poolStats: () => PoolStats | null;
  /** The migrations this start applied. */
  migrations: MigrationRun;
  /**
   * Where the database's own events go (an idle connection lost), and logs the migrations
   * applied: the server's logger exists only once the app is built, after the database opened.
   */
  setLog: (log: DbLog) => void;
};

/** Logs each migration a start applied, and the time they took together. */
function logMigrations(log: DbLog, run: MigrationRun) {
  for (const tag of run.applied) log.info({ migration: tag }, 'migration applied');
  if (run.applied.length > 0) log.info({ migrations: run.applied.length, durationMs: run.ms }, 'database upgraded');
}

const migrationsFolder = fileURLToPath(new URL('../../drizzle', import.meta.url));

/**
 * Date, time and interval values (and their arrays) stay as PostgreSQL writes them, as they do
 * through Drizzle, so a statement gives the same rows either way.
 */
const TEXT_TYPES = [1082, 1114, 1184, 1186, 1231, 1115, 1185, 1187, 1182];
const asText = (v: string) => v;
const pgTypes = { getTypeParser: (oid: number, format?: string) => (TEXT_TYPES.includes(oid) ? asText : pg.types.getTypeParser(oid, format as 'text')) };
const pgliteParsers = Object.fromEntries(TEXT_TYPES.map((oid) => [oid, asText]));
/**
 * bytea (oid 17) in and out of PGlite as hex by Buffer, not a string per byte as PGlite's own do:
 * those took seconds of the event loop, and of the one connection, for a 10 MB room plan (issue 52).
 */
const BYTEA = 17;
const pgliteBytea = {
  serializers: { [BYTEA]: (v: Uint8Array) => `\\x${Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex')}` },
  parsers: { [BYTEA]: (v: string) => Buffer.from(v.slice(2), 'hex') },
};

/** Runs one statement as a named (prepared) statement where the driver has them. */
type Runner = (text: string, values: unknown[], name: string | undefined) => Promise<Record<string, unknown>[]>;
const runners = new WeakMap<Db, Runner>();

/**
 * Runs a built statement through the driver's public API: on PostgreSQL as a named statement
 * (`name`), which each connection parses once and plans from then on as it sees fit; on PGlite,
 * one connection in the process, unnamed. For the database itself, not a transaction.
 */
export function runStatement(db: Db, q: { sql: string; params: unknown[] }, name?: string): Promise<Record<string, unknown>[]> {
  const run = runners.get(db);
  if (!run) throw new Error('runStatement runs on a database that openDatabase opened, not in a transaction');
  return run(q.sql, q.params, name);
}

/** When the newest migration applied to the database was made (ms since 1970), 0 for none. */
export async function newestMigration(db: Db): Promise<number> {
  const res = await db.execute(sql`SELECT max(created_at)::text AS newest FROM drizzle.__drizzle_migrations`);
  return Number(res.rows[0]?.newest ?? 0);
}

/**
 * The data folder is its owner's alone, whatever the umask (issue 52): it holds the tables, the
 * stored secrets and pg_hba.conf, and PGlite creates its files 666 and its folders 777 less the
 * umask. The process's umask becomes 077, so every file the server writes from now on is 600 and
 * every folder 700; what an older release left there is set so at start.
 */
function ownerOnly(dataDir: string) {
  process.umask(0o077);
  mkdirSync(dataDir, { recursive: true });
  ownerOnlyTree(dataDir);
}

/**
 * Sets what is in the folder 700 and 600: PGlite sets the files it creates 666 itself, whatever
 * the umask, so again once it has opened the folder and when it closes it (files it makes in
 * between are inside a folder that is 700).
 */
function ownerOnlyTree(dataDir: string) {
  const walk = (dir: string) => {
    chmodSync(dir, 0o700);
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else if (e.isFile()) chmodSync(join(dir, e.name), 0o600);
    }
  };
  walk(dataDir);
}

/**
 * `url` null: embedded PGlite in `dataDir` (`memory://` keeps it in memory, for tests), which
 * its opener owns alone (the folder's lock). On PostgreSQL every opener is one of the servers
 * (servers-lock.ts), or, given `alone` (what it does, e.g. "rotating the secret key"), runs
 * only while no server does. `loadDataDir`: a new PGlite's data folder as `dumpDataDir` gave it
 * (tests start from a migrated one).
 */
export async function openDatabase(opts: { url: string | null; dataDir: string; alone?: string; loadDataDir?: Blob }): Promise<Database> {
  if (opts.url) {
    let log: DbLog | null = null;
    const unlock = opts.alone ? await holdServersLockAlone(opts.url, opts.alone) : await holdServersLock(opts.url, () => log);
    // No JIT: it compiles for a second and more before a large report's first row (measured with
    // bench:reports, 1.5 s of 6.4 s for the availability of 100,000 devices), and the short
    // statements of the lists never gain from it.
    const pool = new PipelinedPool({ connectionString: opts.url, max: 20, options: '-c jit=off' }, { pipelines: 4 });
    // An idle connection that the server ends (restart, failover, DROP DATABASE ... FORCE in
    // tests) errors outside any query; unheard, that error would end the process.
    pool.on('error', (err) => log?.warn({ reason: err.message }, 'database: idle connection lost'));
    const pgDb = drizzlePg(pool as unknown as pg.Pool);
    const db: Db = pgDb;
    try {
      const migrations = await migrateChecked(db, migrationsFolder, () => migratePg(pgDb, { migrationsFolder }));
      runners.set(db, async (text, values, name) => (await pool.query({ text, values, name, types: pgTypes })).rows);
      return {
        db, kind: 'postgres', url: opts.url, close: () => pool.end().finally(unlock), poolStats: () => pool.stats(), migrations,
        setLog: (l) => {
          log = l;
          logMigrations(l, migrations);
        },
      };
    } catch (err) {
      await pool.end().catch(() => undefined);
      await unlock();
      throw err;
    }
  }
  let unlock = () => {};
  const onDisk = !opts.dataDir.startsWith('memory://');
  if (onDisk) {
    ownerOnly(opts.dataDir);
    unlock = lockDataDir(opts.dataDir);
  }
  let client: PGlite | null = null;
  try {
    client = await PGlite.create(opts.dataDir, { extensions: { pg_trgm }, ...pgliteBytea, ...(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}) });
    if (onDisk) ownerOnlyTree(opts.dataDir);
    const pglite = drizzlePglite(client);
    const db: Db = pglite;
    const migrations = await migrateChecked(db, migrationsFolder, () => migratePglite(pglite, { migrationsFolder }));
    const open = client;
    runners.set(db, async (text, values) => (await open.query<Record<string, unknown>>(text, values, { parsers: pgliteParsers })).rows);
    // `npm run backup` asks the folder's owner for a consistent copy (pglite-backup.ts).
    let log: DbLog | null = null;
    const backups = onDisk ? await serveBackups(open, opts.dataDir, (err) => log?.warn({ reason: err.message }, 'backup failed')) : null;
    return {
      db, kind: 'pglite', url: null, poolStats: () => null, migrations,
      setLog: (l) => {
        log = l;
        logMigrations(l, migrations);
      },
      close: async () => {
        await backups?.close();
        await open.close();
        if (onDisk) ownerOnlyTree(opts.dataDir);
        unlock();
      },
    };
  } catch (err) {
    await client?.close().catch(() => undefined);
    unlock();
    throw err;
  }
}
