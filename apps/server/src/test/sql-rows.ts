import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { sqlRows } from '../db/sql-rows.ts';

/** Test helpers that read and clear tables directly, to check what the server stored. */
export { sqlRows };

export const countRows = async (db: Db, table: string, where: SQL = sql`true`) =>
  Number((await sqlRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE ${where}`))[0]!.n);

/** Deletes every row of the tables, in the order given. */
export async function deleteAll(db: Db, tables: string[]): Promise<void> {
  for (const table of tables) await db.execute(sql`DELETE FROM ${sql.identifier(table)}`);
}
