import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg, type NodePgDatabase, type NodePgQueryResultHKT } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import { PipelinedPool, type PoolStats } from './pipelined-pool.ts';

/**
 * What queries run on: the database or a transaction of it (a Drizzle transaction is a
 * PgDatabase too), so repository functions take either. Both drivers expose the same query API;
 * PGlite's database is typed as the node-postgres one so that services are written once.
 */
export type Db = PgDatabase<NodePgQueryResultHKT>;
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
};

const migrationsFolder = fileURLToPath(new URL('../../drizzle', import.meta.url));

/** `url` null: embedded PGlite in `dataDir` (`memory://` keeps it in memory, for tests). */
export async function openDatabase(opts: { url: string | null; dataDir: string }): Promise<Database> {
  if (opts.url) {
    const pool = new PipelinedPool({ connectionString: opts.url, max: 20 }, { pipelines: 4 });
    // An idle connection that the server ends (restart, failover, DROP DATABASE ... FORCE in
    // tests) errors outside any query; unheard, that error would end the process.
    pool.on('error', (err) => console.warn(`database: idle connection lost: ${err.message}`));
    const db = drizzlePg(pool as unknown as pg.Pool);
    await migratePg(db, { migrationsFolder });
    return { db, kind: 'postgres', url: opts.url, close: () => pool.end(), poolStats: () => pool.stats() };
  }
  if (!opts.dataDir.startsWith('memory://')) mkdirSync(opts.dataDir, { recursive: true });
  const client = await PGlite.create(opts.dataDir);
  const db = drizzlePglite(client);
  await migratePglite(db, { migrationsFolder });
  return { db: db as unknown as NodePgDatabase, kind: 'pglite', url: null, close: () => client.close(), poolStats: () => null };
}
