import { and, eq, inArray, sql } from 'drizzle-orm';
import type { AgentQueue, AgentQueueJob } from '@pagewatch/contracts/agent-queues';
import type { Db } from '../../db/client.ts';
import { agents } from '../agents/agents.tables.ts';
import { devices } from '../devices/devices.tables.ts';
import { dmDeviceUserDays } from '../devices/device-activity.tables.ts';
import { queueJobs, queues } from './queues.tables.ts';

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

/** The queues an agent reads, with their secrets: the agent needs them. */
export async function agentQueues(db: Db, agentId: number): Promise<AgentQueue[]> {
  const rows = await db.select().from(queues).where(eq(queues.agentId, agentId)).orderBy(queues.id);
  return rows.map((q) => ({
    id: q.id, type: q.type as AgentQueue['type'], host: q.host, port: q.port, url: q.url, username: q.username,
    password: q.password, token: q.token, sinceJobId: q.lastJobId, stateVersion: q.stateVersion,
  }));
}

/** The device at this address among the locations given (the agent's), if exactly one. */
export async function deviceAt(db: Db, locationIds: number[], ip: string): Promise<number | null> {
  if (!locationIds.length) return null;
  const rows = await db.select({ id: devices.id }).from(devices)
    .where(and(eq(devices.ip, ip), inArray(devices.locationId, locationIds))).limit(2);
  return rows.length === 1 ? rows[0].id : null;
}

export async function deviceLocation(db: Db, id: number): Promise<number | null> {
  const [d] = await db.select({ locationId: devices.locationId }).from(devices).where(eq(devices.id, id));
  return d?.locationId ?? null;
}

/**
 * Stores the jobs not stored yet and adds the pages of those to the device's user days (UTC
 * days), in one statement: a batch costs one round trip, however many jobs it holds.
 */
export async function insertJobs(db: Db, queueId: number, device: { id: number; locationId: number } | null, jobs: AgentQueueJob[]): Promise<number> {
  if (!jobs.length) return 0;
  const res = await db.execute(sql`
    WITH ins AS (
      INSERT INTO queue_jobs (queue_id, device_id, external_job_id, name, username, client_machine, created_at, completed_at,
                              printed_page_count, color_page_count, size_kb, paper_size, duplex)
      SELECT ${queueId}, ${device?.id ?? null}::int, x."externalJobId", x.name, x.username, x."clientMachine", x."createdAt", x."completedAt",
             x."printedPageCount", x."colorPageCount", x."sizeKb", x."paperSize", x.duplex
      FROM jsonb_to_recordset(${JSON.stringify(jobs)}::jsonb) AS x("externalJobId" int, name text, username text, "clientMachine" text,
        "createdAt" timestamptz, "completedAt" timestamptz, "printedPageCount" int, "colorPageCount" int, "sizeKb" int, "paperSize" text, duplex boolean)
      ON CONFLICT (queue_id, external_job_id) DO NOTHING
      RETURNING completed_at, username, printed_page_count
    ), days AS (
      INSERT INTO ${dmDeviceUserDays} (fact_date, device_id, location_id, username, printed_page_count)
      SELECT (completed_at AT TIME ZONE 'UTC')::date, ${device?.id ?? null}::int, ${device?.locationId ?? null}::int, username, sum(printed_page_count)
      FROM ins WHERE ${device?.id ?? null}::int IS NOT NULL
      GROUP BY 1, username
      ON CONFLICT (device_id, fact_date, username)
      DO UPDATE SET printed_page_count = dm_device_user_days.printed_page_count + excluded.printed_page_count, location_id = excluded.location_id
    )
    SELECT count(*)::int AS stored FROM ins`);
  return Number((res.rows[0] as { stored: number }).stored);
}

/**
 * The queue of a batch, locked so two batches of a queue add up one after the other, with its
 * agent's location and its device's.
 */
export async function lockQueueForBatch(db: Db, id: number) {
  const res = await db.execute(sql`
    SELECT q.id, q.agent_id, q.host, q.status, q.status_message, q.last_job_id, q.state_version, q.printer_address, q.device_id,
           a.location_id, d.location_id AS device_location_id
    FROM queues q JOIN agents a ON a.id = q.agent_id LEFT JOIN devices d ON d.id = q.device_id
    WHERE q.id = ${id} FOR UPDATE OF q`);
  const r = res.rows[0] as Record<string, unknown> | undefined;
  if (!r) return null;
  const n = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return {
    id: Number(r.id), agentId: Number(r.agent_id), host: String(r.host), status: String(r.status), statusMessage: r.status_message as string | null,
    lastJobId: n(r.last_job_id), stateVersion: Number(r.state_version), printerAddress: r.printer_address as string | null,
    deviceId: n(r.device_id), locationId: Number(r.location_id), deviceLocationId: n(r.device_location_id),
  };
}
