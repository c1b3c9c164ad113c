import { desc, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { modelsPacks } from '../../db/schema/models.ts';

export async function newestVersion(db: Db): Promise<number | null> {
  const [row] = await db.select({ v: sql<number | null>`max(${modelsPacks.version})` }).from(modelsPacks);
  return row?.v == null ? null : Number(row.v);
}

export async function newestPack(db: Db) {
  const [row] = await db.select().from(modelsPacks).orderBy(desc(modelsPacks.version)).limit(1);
  return row ?? null;
}

/** `unlessStored`: a version already stored stays as it is (the bundled pack at start-up). */
export async function insertPack(db: Db, pack: typeof modelsPacks.$inferInsert, opts: { unlessStored?: boolean } = {}) {
  const insert = db.insert(modelsPacks).values(pack);
  await (opts.unlessStored ? insert.onConflictDoNothing() : insert);
}
