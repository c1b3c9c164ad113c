import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { agents } from '../../db/schema/agents.ts';
import { devices } from '../../db/schema/devices.ts';
import { queueJobs, queues } from '../../db/schema/queues.ts';

export type QueueRow = typeof queues.$inferSelect & { locationId: number; agentName: string };
type Values = Partial<Omit<typeof queues.$inferInsert, 'id'>>;

/** A queue with its agent's location and name. */
export async function queueById(db: Db, id: number): Promise<QueueRow | null> {
  const [r] = await db
    .select({ q: queues, locationId: agents.locationId, agentName: agents.name })
    .from(queues)
    .innerJoin(agents, eq(agents.id, queues.agentId))
    .where(eq(queues.id, id));
  return r ? { ...r.q, locationId: r.locationId, agentName: r.agentName } : null;
}

export async function jobCount(db: Db, queueId: number): Promise<number> {
  const [r] = await db.select({ n: sql<number>`count(*)::int` }).from(queueJobs).where(eq(queueJobs.queueId, queueId));
  return r?.n ?? 0;
}

export async function deviceRef(db: Db, id: number) {
  const [d] = await db.select({ id: devices.id, serialNumber: devices.serialNumber, ip: devices.ip }).from(devices).where(eq(devices.id, id));
  return d ?? null;
}

export async function insertQueue(db: Db, values: typeof queues.$inferInsert): Promise<number> {
  const [row] = await db.insert(queues).values(values).returning({ id: queues.id });
  return row.id;
}

export async function updateQueue(db: Db, id: number, values: Values) {
  await db.update(queues).set(values).where(eq(queues.id, id));
}

export async function deleteQueue(db: Db, id: number) {
  await db.delete(queues).where(eq(queues.id, id));
}

/** Forgets what was read: the agent reads every job again, and the stored ones stay single. */
export async function resetQueue(db: Db, id: number) {
  await db.update(queues).set({
    lastJobId: null, stateVersion: sql`${queues.stateVersion} + 1`, status: 'NEW', statusMessage: null, updatedAt: new Date(),
  }).where(eq(queues.id, id));
}

