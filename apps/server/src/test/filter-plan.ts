import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { parseFilter, type ListDef } from '../lib/list-query.ts';

/**
 * The plan for a list's filter when reading a whole table or index is ruled out: a few thousand
 * rows are read faster whole, so this asks whether an index can serve the filter at all (on a
 * benchmark's millions of rows the planner takes it by itself: `npm run bench:lists`, `bench:logs`).
 */
export async function filterPlan(db: Db, def: ListDef, from: SQL, filter: unknown): Promise<string> {
  const { where } = parseFilter(def, JSON.stringify(filter));
  return db.transaction(async (tx) => {
    // Only an index that the filter itself searches (a bitmap scan) is left: no whole index
    // read in its order and tested row by row either.
    for (const path of ['enable_seqscan', 'enable_indexscan', 'enable_indexonlyscan']) await tx.execute(sql`SELECT set_config(${path}, 'off', true)`);
    const rows = (await tx.execute(sql`EXPLAIN SELECT 1 FROM ${from} WHERE ${where!}`)).rows as { 'QUERY PLAN': string }[];
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  });
}
