import type { SQL } from 'drizzle-orm';
import type { Db } from './client.ts';

/**
 * A raw statement's rows, typed by the caller: the one place the driver's untyped result meets a
 * row type. Both drivers return `{ rows }` (PGlite's database is typed as the node-postgres one,
 * client.ts), and Drizzle's `execute<T>` carries the type through, so no call site casts.
 */
export const sqlRows = async <T extends Record<string, unknown> = Record<string, unknown>>(db: Db, q: SQL) =>
  (await db.execute<T>(q)).rows;
