import { sql } from 'drizzle-orm';
import type { AgentQueueJob } from '@pagewatch/contracts/agent-queues';
import type { Db } from '../../db/client.ts';

/** A queue of a run, locked, with its agent's location and its device's. */
export type LockedQueue = {
  id: number; host: string; status: string; statusMessage: string | null; lastJobId: number | null; stateVersion: number;
  printerAddress: string | null; deviceId: number | null; locationId: number; deviceLocationId: number | null;
};

const n = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const json = (rows: unknown[]) => sql`${JSON.stringify(rows)}::jsonb`;
const ids = (xs: number[]) => sql.join(xs.map((x) => sql`${x}`), sql`, `);

/**
 * The agent's queues among `queueIds`, locked in id order (two runs of an agent add up one
 * after the other, and never deadlock); another agent's queue is not returned. Locked first
 * and read after: a run that waited for the lock reads what the run before it wrote (its
 * device too), which the locking statement itself would not show of the joined rows.
 */
export async function lockQueues(db: Db, agentId: number, queueIds: number[]): Promise<LockedQueue[]> {
  if (!queueIds.length) return [];
  const locked = await db.execute<{ id: number }>(sql`SELECT id FROM queues WHERE id IN (${ids(queueIds)}) AND agent_id = ${agentId} ORDER BY id FOR UPDATE`);
  const mine = locked.rows.map((r) => Number(r.id));
  if (!mine.length) return [];
  const res = await db.execute(sql`
    SELECT q.id, q.host, q.status, q.status_message, q.last_job_id, q.state_version, q.printer_address, q.device_id,
           a.location_id, d.location_id AS device_location_id
    FROM queues q JOIN agents a ON a.id = q.agent_id LEFT JOIN devices d ON d.id = q.device_id
    WHERE q.id IN (${ids(mine)})`);
  return res.rows.map((r) => ({
    id: Number(r.id), host: String(r.host), status: String(r.status), statusMessage: r.status_message as string | null,
    lastJobId: n(r.last_job_id), stateVersion: Number(r.state_version), printerAddress: r.printer_address as string | null,
    deviceId: n(r.device_id), locationId: Number(r.location_id), deviceLocationId: n(r.device_location_id),
  }));
}

/** A printer address to look up: an IPv4 matches a device's IP; a host name the IP the agent resolved it to, else its host name. */
export type AddressKey = { addr: string; ip: string | null; name: string | null; resolved: string | null };

/**
 * The device at each address among the locations given (the agent's), where exactly one is
 * there. A host name matches by the address the agent resolved it to (where the print server
 * sends the jobs); where that finds no single device, by the device's host name,
 * case-insensitively, with or without its domain (`myprinter` and `MyPrinter.corp.example`;
 * `.local` counts as no domain). One statement for every address of a run.
 */
export async function devicesAt(db: Db, locationIds: number[], keys: AddressKey[]): Promise<Map<string, { id: number; locationId: number }>> {
  const out = new Map<string, { id: number; locationId: number }>();
  if (!locationIds.length || !keys.length) return out;
  const res = await db.execute<{ addr: string; id: number; location_id: number }>(sql`
    WITH x AS (SELECT * FROM jsonb_to_recordset(${json(keys)}) AS x(addr text, ip text, name text, resolved text)),
    d AS (
      SELECT id, location_id, ip, regexp_replace(regexp_replace(lower(host_name), '\\.$', ''), '\\.local$', '') AS name
      FROM devices WHERE location_id IN (${ids(locationIds)})
    ),
    m AS (
      SELECT x.addr, 1 AS how, d.id, d.location_id FROM x JOIN d ON d.ip = x.ip
      UNION
      SELECT x.addr, 2, d.id, d.location_id FROM x JOIN d ON x.name IS NOT NULL AND d.name IS NOT NULL AND (
        d.name = x.name
        OR (position('.' IN x.name) = 0 AND split_part(d.name, '.', 1) = x.name)
        OR (position('.' IN d.name) = 0 AND split_part(x.name, '.', 1) = d.name))
      UNION
      SELECT x.addr, 1, d.id, d.location_id FROM x JOIN d ON d.ip = x.resolved
    ),
    one AS (SELECT addr, how, min(id) AS id, min(location_id) AS location_id FROM m GROUP BY addr, how HAVING count(*) = 1)
    SELECT DISTINCT ON (addr) addr, id::int AS id, location_id::int AS location_id FROM one ORDER BY addr, how`);
  for (const r of res.rows) out.set(r.addr, { id: Number(r.id), locationId: Number(r.location_id) });
  return out;
}

export type RunQueue = { queueId: number; deviceId: number | null; locationId: number | null };
export type RunJob = AgentQueueJob & { q: number };

/**
 * Stores the jobs of a run not stored yet, every queue at once, and adds the pages of those to
 * their devices' user days (UTC days; colour pages of the jobs that told them, null while none did): one statement, however many queues and jobs. Returns
 * how many were stored per queue.
 */
export async function insertRunJobs(db: Db, queues: RunQueue[], jobs: RunJob[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (!jobs.length) return out;
  const res = await db.execute<{ queue_id: number; stored: number }>(sql`
    WITH qs AS (
      SELECT * FROM jsonb_to_recordset(${json(queues)}) AS x("queueId" int, "deviceId" int, "locationId" int)
    ), ins AS (
      INSERT INTO queue_jobs (queue_id, device_id, external_job_id, name, username, client_machine, created_at, completed_at,
                              printed_page_count, color_page_count, size_kb, paper_size, duplex)
      SELECT x.q, qs."deviceId", x."externalJobId", x.name, x.username, x."clientMachine", x."createdAt", x."completedAt",
             x."printedPageCount", x."colorPageCount", x."sizeKb", x."paperSize", x.duplex
      FROM jsonb_to_recordset(${json(jobs)}) AS x(q int, "externalJobId" int, name text, username text, "clientMachine" text,
        "createdAt" timestamptz, "completedAt" timestamptz, "printedPageCount" int, "colorPageCount" int, "sizeKb" int, "paperSize" text, duplex boolean)
      JOIN qs ON qs."queueId" = x.q
      -- A job is one per queue and job id. The unique key also holds the completion time (the
      -- table is partitioned by it, migration 0038), so a job sent again with another time is
      -- found here; the run holds its queues' locks, so no other run stores it meanwhile.
      WHERE NOT EXISTS (SELECT 1 FROM queue_jobs j WHERE j.queue_id = x.q AND j.external_job_id = x."externalJobId")
      ON CONFLICT (queue_id, external_job_id, completed_at) DO NOTHING
      RETURNING queue_id, device_id, completed_at, username, printed_page_count, color_page_count
    ), days AS (
      INSERT INTO dm_device_user_days (fact_date, device_id, location_id, username, printed_page_count, color_page_count)
      SELECT (ins.completed_at AT TIME ZONE 'UTC')::date, ins.device_id, min(qs."locationId"), ins.username, sum(ins.printed_page_count), sum(ins.color_page_count)
      FROM ins JOIN qs ON qs."queueId" = ins.queue_id
      WHERE ins.device_id IS NOT NULL AND qs."locationId" IS NOT NULL
      GROUP BY 1, ins.device_id, ins.username
      -- In key order: two runs adding to the same device's days lock its rows in one order, never deadlock.
      ORDER BY ins.device_id, 1, ins.username
      ON CONFLICT (device_id, fact_date, username)
      DO UPDATE SET printed_page_count = dm_device_user_days.printed_page_count + excluded.printed_page_count, location_id = excluded.location_id,
        color_page_count = CASE WHEN dm_device_user_days.color_page_count IS NULL AND excluded.color_page_count IS NULL THEN NULL
                                ELSE coalesce(dm_device_user_days.color_page_count, 0) + coalesce(excluded.color_page_count, 0) END
    )
    SELECT queue_id, count(*)::int AS stored FROM ins GROUP BY queue_id`);
  for (const r of res.rows) out.set(Number(r.queue_id), Number(r.stored));
  return out;
}

export type QueueReadState = {
  id: number; status: string; statusMessage: string | null; lastReadAt: string;
  printerAddress: string | null; deviceId: number | null; lastJobId: number | null;
};

/** What a run read of each queue, one statement for all of them. */
export async function updateQueuesRead(db: Db, rows: QueueReadState[]) {
  if (!rows.length) return;
  await db.execute(sql`
    UPDATE queues q SET status = x.status, status_message = x."statusMessage", last_read_at = x."lastReadAt",
      printer_address = x."printerAddress", device_id = x."deviceId", last_job_id = x."lastJobId"
    FROM jsonb_to_recordset(${json(rows)}) AS x(id int, status text, "statusMessage" text, "lastReadAt" timestamptz,
      "printerAddress" text, "deviceId" int, "lastJobId" int)
    WHERE q.id = x.id`);
}
