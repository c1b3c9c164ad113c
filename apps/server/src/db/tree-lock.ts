import { sql } from 'drizzle-orm';
import type { Tx } from './client.ts';

/**
 * Holds the tree's lock until the transaction ends: one move at a time, since two concurrent
 * moves could each pass the cycle check and together make a loop.
 */
export async function lockTree(tx: Tx, tree: 'locations' | 'dictionary_items') {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`pagewatch.${tree}.tree`}))`);
}
