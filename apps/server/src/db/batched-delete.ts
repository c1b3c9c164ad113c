import { sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './client.ts';

/**
 * Deletes the rows of `table` matching `where`, at most `batchSize` per statement, so that a big
 * backlog never holds one long transaction (each statement commits on its own). Rows are picked
 * by ctid, so any table works, on PostgreSQL and PGlite alike. Returns how many rows went.
 */
export async function deleteInBatches(db: Db, table: PgTable, where: SQL, batchSize: number): Promise<number> {
  let deleted = 0;
  for (;;) {
    const res = await db.execute<{ n: number }>(sql`
      WITH gone AS (
        DELETE FROM ${table} WHERE ctid = ANY(ARRAY(SELECT ctid FROM ${table} WHERE ${where} LIMIT ${batchSize})) RETURNING 1
      )
      SELECT count(*)::int AS n FROM gone`);
    const n = Number(res.rows[0]!.n);
    deleted += n;
    if (n < batchSize) return deleted;
  }
}
