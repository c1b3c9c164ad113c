import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Db } from './client.ts';

/**
 * Whether a row other than `exceptId` holds `value` in `column` in any letter case (codes and
 * logins are unique that way); `within` narrows the rows compared (a dictionary's items).
 */
export async function takenIgnoringCase(
  db: Db,
  column: PgColumn,
  id: PgColumn,
  value: string,
  exceptId: number | null,
  within?: SQL,
): Promise<boolean> {
  const res = await db.execute<{ id: unknown }>(sql`SELECT ${id} AS id FROM ${column.table} WHERE lower(${column}) = lower(${value}) ${within ? sql`AND ${within}` : sql``}`);
  return res.rows.some((r) => Number(r.id) !== exceptId);
}
