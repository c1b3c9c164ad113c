import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

/**
 * The statements behind the state gauges (metrics-state.ts): each one short, over small tables
 * (agents, licenses, job schedules) or an index (the outbox's pending messages).
 */
const rows = async <T>(db: Db, q: SQL): Promise<T[]> => (await db.execute(q)).rows as T[];

export type OutboxState = { channel: string; queued: number; failed: number; oldestAge: number };

/** The outbox by channel: `email`, or a channel's kind in lower case (webhook, slack, teams, telegram). */
export async function outboxState(db: Db): Promise<OutboxState[]> {
  const found = await rows<{ channel: string; queued: number; failed: number; age: number }>(db, sql`
    SELECT coalesce(lower(c.kind), 'email') AS channel,
           count(*) FILTER (WHERE m.sent_at IS NULL AND m.failed_at IS NULL)::int AS queued,
           count(*) FILTER (WHERE m.failed_at IS NOT NULL)::int AS failed,
           coalesce(extract(epoch FROM now() - min(m.created_at) FILTER (WHERE m.sent_at IS NULL AND m.failed_at IS NULL)), 0)::float8 AS age
    FROM notification_messages m LEFT JOIN notification_channels c ON c.id = m.channel_id
    WHERE m.sent_at IS NULL OR m.failed_at IS NOT NULL
    GROUP BY 1`);
  return found.map((r) => ({ channel: r.channel, queued: Number(r.queued), failed: Number(r.failed), oldestAge: Number(r.age) }));
}

export const agentAges = (db: Db) =>
  rows<{ id: number; age: number }>(db, sql`SELECT id, extract(epoch FROM now() - last_contact_at)::float8 AS age FROM agents WHERE last_contact_at IS NOT NULL`);

/** Print queues by their last read's status, and the age of each queue's last successful read. */
export const queueStates = (db: Db) =>
  rows<{ id: number; status: string; age: number | null }>(db, sql`
    SELECT id, status, extract(epoch FROM now() - last_read_at)::float8 AS age FROM queues`);

export const licenseDaysLeft = (db: Db) =>
  rows<{ location: string; days: number }>(db, sql`
    SELECT location_id::text AS location, (date_to - current_date) AS days FROM licenses
    UNION ALL SELECT 'instance', (date_to - current_date) FROM instance_license WHERE date_to IS NOT NULL`);

/** The last run of each job that ended without an error, by any instance (the schedule keeps it). */
export const jobsFinishedWell = (db: Db) =>
  rows<{ name: string; at: number }>(db, sql`
    SELECT s.name, extract(epoch FROM s.last_finished_at)::float8 AS at FROM job_schedules s
    JOIN event_logs e ON e.id = s.last_log_id WHERE s.last_finished_at IS NOT NULL AND e.log_level <> 'E'`);
