import { and, eq, ne } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { networkRanges } from '../../db/schema/network-ranges.ts';

export type NetworkRangeRow = typeof networkRanges.$inferSelect;
type Values = Omit<typeof networkRanges.$inferInsert, 'id'>;

export async function rangeById(db: Db, id: number): Promise<NetworkRangeRow | null> {
  const [r] = await db.select().from(networkRanges).where(eq(networkRanges.id, id));
  return r ?? null;
}

/** How many ranges the agent scans, this one (`exceptId`) left out. */
export async function countRangesOfAgent(db: Db, agentId: number, exceptId: number | null): Promise<number> {
  const where = exceptId === null ? eq(networkRanges.agentId, agentId) : and(eq(networkRanges.agentId, agentId), ne(networkRanges.id, exceptId));
  return db.$count(networkRanges, where);
}

export async function insertRange(db: Db, values: Values): Promise<NetworkRangeRow> {
  const [row] = await db.insert(networkRanges).values(values).returning();
  return row;
}

export async function updateRange(db: Db, id: number, values: Values): Promise<NetworkRangeRow> {
  const [row] = await db.update(networkRanges).set(values).where(eq(networkRanges.id, id)).returning();
  return row;
}

export async function deleteRange(db: Db, id: number) {
  await db.delete(networkRanges).where(eq(networkRanges.id, id));
}
