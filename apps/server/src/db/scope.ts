import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';

/** What a condition needs of a caller (modules/auth/caller.ts). */
export type Scoped = { scope: ReadonlySet<number>; allLocations: boolean };

/** `column IN (ids)`; `false` when there are none (an empty IN list is not SQL). */
export function locationIn(ids: Iterable<number>, column: SQLWrapper): SQL {
  const list = [...ids];
  return list.length ? sql`${column} IN (${sql.join(list.map((id) => sql`${id}`), sql`, `)})` : sql`false`;
}

/**
 * The caller's locations as a condition on `column`; null (no condition) when they see every
 * location, which keeps big queries on their plain indexes. Only for NOT NULL location columns:
 * a row without a location would be seen by such a caller.
 */
export function scopeCondition(caller: Scoped, column: SQLWrapper): SQL | null {
  return caller.allLocations ? null : locationIn(caller.scope, column);
}
