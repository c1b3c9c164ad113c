import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

/** The given locations and every location below them. */
export async function descendantIds(db: Db, roots: number[]): Promise<number[]> {
  if (!roots.length) return [];
  const res = await db.execute(sql`
    WITH RECURSIVE tree AS (
      SELECT id FROM locations WHERE id IN (${sql.join(roots.map((r) => sql`${r}`), sql`, `)})
      UNION
      SELECT l.id FROM locations l JOIN tree t ON l.parent_id = t.id
    )
    SELECT id FROM tree`);
  return (res.rows as { id: number }[]).map((r) => r.id);
}

export async function defaultLocationId(db: Db): Promise<number | null> {
  const res = await db.execute(sql`SELECT id FROM locations WHERE code = 'DEFAULT'`);
  return (res.rows[0] as { id: number } | undefined)?.id ?? null;
}
