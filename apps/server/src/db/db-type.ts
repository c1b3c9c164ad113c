import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { Assume } from 'drizzle-orm';

/**
 * What a raw statement gives on either driver: its rows, typed by `execute<T>` (node-postgres's
 * result and PGlite's both have them; their other fields differ and nothing reads them).
 */
export interface DbResultHKT extends PgQueryResultHKT {
  type: DbResult<this['row']>;
}
type DbResult<Row> = { rows: Assume<Row, Record<string, unknown>>[] };

/**
 * What queries run on: the database or a transaction of it (a Drizzle transaction is a
 * PgDatabase too), so repository functions take either. Both drivers' databases are one, so
 * services are written once. Its own file, so that client.ts and migrations.ts share it.
 */
export type Db = PgDatabase<DbResultHKT>;
