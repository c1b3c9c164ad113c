import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';

/**
 * What a condition needs of a caller (lib/caller.ts): their locations and whether that
 * is all of them; `seesUnlocated`, whether rows without a location are theirs to see too.
 */
export type Scoped = { scope: ReadonlySet<number>; allLocations: boolean; seesUnlocated?: boolean };

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
/**
 * For a location column that may be NULL (the event log): rows in the caller's locations, and
 * rows without one when the caller `seesUnlocated`; null when that is every row.
 */
export function visibleCondition(caller: Scoped, column: SQLWrapper): SQL | null {
  if (caller.seesUnlocated && caller.allLocations) return null;
  const located = caller.scope.size ? locationIn(caller.scope, column) : null;
  if (caller.seesUnlocated) return located ? sql`(${located} OR ${column} IS NULL)` : sql`${column} IS NULL`;
  return located ?? sql`false`;
}

export function scopeCondition(caller: Scoped, column: SQLWrapper): SQL | null {
  return caller.allLocations ? null : locationIn(caller.scope, column);
}
