import type { SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { parseFilter, type ListDef } from '../lib/list-query.ts';
import { bitmapPlan } from './plans.ts';

/**
 * The plan for a list's filter when reading a whole table or index is ruled out: a few thousand
 * rows are read faster whole, so this asks whether an index can serve the filter at all (on a
 * benchmark's millions of rows the planner takes it by itself: `npm run bench:lists`, `bench:logs`).
 */
export async function filterPlan(db: Db, def: ListDef, from: SQL, filter: unknown): Promise<string> {
  const { where } = parseFilter(def, JSON.stringify(filter));
  return bitmapPlan(db, from, where!);
}
