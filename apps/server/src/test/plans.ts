import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

/**
 * The plan of `SELECT 1 FROM <from> WHERE <where>` with only an index that the filter itself
 * searches (a bitmap scan) left: no sequential scan, and no whole index read in its order and
 * tested row by row. A partition's index is named as the index of the partitioned table it
 * belongs to (migration 0038 partitions the history tables by month), so a test names the
 * index it expects once, whatever the months.
 */
export async function bitmapPlan(db: Db, from: SQL, where: SQL): Promise<string> {
  const text = await db.transaction(async (tx) => {
    for (const path of ['enable_seqscan', 'enable_indexscan', 'enable_indexonlyscan']) await tx.execute(sql`SELECT set_config(${path}, 'off', true)`);
    const rows = (await tx.execute(sql`EXPLAIN SELECT 1 FROM ${from} WHERE ${where}`)).rows as { 'QUERY PLAN': string }[];
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  });
  const parts = (await db.execute(sql`
    SELECT c.relname AS child, p.relname AS parent FROM pg_inherits i
    JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent WHERE c.relkind = 'i'`)).rows as { child: string; parent: string }[];
  return parts.reduce((plan, r) => plan.replace(new RegExp(`\\b${r.child}\\b`, 'g'), r.parent), text);
}
