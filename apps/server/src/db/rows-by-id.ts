import { eq } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './client.ts';

/**
 * Adding, changing and deleting a table's rows by their serial id: the same three statements
 * that repositories otherwise each wrote out for their table.
 */
export function rowsById<T extends PgTable & { id: PgColumn }>(table: T) {
  type Values = Omit<T['$inferInsert'], 'id'>;
  return {
    insert: async (db: Db, values: Values): Promise<{ id: number }> => {
      const [row] = await db.insert(table).values(values as never).returning({ id: table.id });
      return row as { id: number };
    },
    update: async (db: Db, id: number, set: Partial<Values>) => {
      await db.update(table).set(set as never).where(eq(table.id, id));
    },
    remove: async (db: Db, id: number) => {
      await db.delete(table).where(eq(table.id, id));
    },
  };
}
