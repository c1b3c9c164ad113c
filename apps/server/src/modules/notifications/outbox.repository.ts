import { and, isNotNull, lt, or, sql } from 'drizzle-orm';
import { deleteInBatches } from '../../db/batched-delete.ts';
import { notificationMessages } from './notifications.tables.ts';
import type { Db } from '../../db/client.ts';
import type { OutboxAttachment } from './notifications.tables.ts';

export type LeasedMessage = {
  id: number;
  notificationId: number | null;
  messageId: string;
  toEmail: string;
  subject: string;
  html: string;
  attachments: OutboxAttachment[];
  locationId: number | null;
  attempts: number;
};

/**
 * Leases the messages that are due (not sent, not given up, next attempt passed, no live lease),
 * oldest first, counting the attempt: another instance skips them until the lease runs out.
 */
export async function leaseMessages(db: Db, limit: number, leaseMs: number): Promise<LeasedMessage[]> {
  const res = await db.execute(sql`
    UPDATE notification_messages m SET lease_until = now() + ${`${leaseMs} milliseconds`}::interval, attempts = m.attempts + 1
    WHERE m.id IN (
      SELECT id FROM notification_messages
      WHERE sent_at IS NULL AND failed_at IS NULL AND next_attempt_at <= now() AND (lease_until IS NULL OR lease_until < now())
      ORDER BY next_attempt_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    RETURNING m.id, m.notification_id AS "notificationId", m.message_id AS "messageId", m.to_email AS "toEmail", m.subject, m.html,
      m.attachments, m.location_id AS "locationId", m.attempts`);
  return (res.rows as LeasedMessage[])
    .map((r) => ({ ...r, id: Number(r.id), notificationId: r.notificationId == null ? null : Number(r.notificationId), locationId: r.locationId == null ? null : Number(r.locationId), attempts: Number(r.attempts) }))
    .sort((a, b) => a.id - b.id);
}

const idList = (ids: number[]) => sql.join(ids.map((i) => sql`${i}`), sql`, `);

export async function markSent(db: Db, ids: number[]) {
  if (ids.length) await db.execute(sql`UPDATE notification_messages SET sent_at = now(), lease_until = NULL, last_error = NULL WHERE id IN (${idList(ids)})`);
}

/** A failed attempt: the next one after `delayMs`, or none (`giveUp`). */
export async function markFailed(db: Db, ids: number[], error: string, delayMs: number, giveUp: boolean) {
  if (!ids.length) return;
  await db.execute(sql`
    UPDATE notification_messages SET lease_until = NULL, last_error = ${error.slice(0, 1000)},
      next_attempt_at = now() + ${`${delayMs} milliseconds`}::interval, failed_at = ${giveUp ? sql`now()` : sql`NULL`}
    WHERE id IN (${idList(ids)})`);
}

/** How the outbox stands (tests, metrics). */
export async function outboxCounts(db: Db): Promise<{ pending: number; sent: number; failed: number }> {
  const res = await db.execute(sql`
    SELECT count(*) FILTER (WHERE sent_at IS NULL AND failed_at IS NULL) AS pending, count(sent_at) AS sent, count(failed_at) AS failed FROM notification_messages`);
  const r = res.rows[0] as Record<string, unknown>;
  return { pending: Number(r.pending), sent: Number(r.sent), failed: Number(r.failed) };
}

/** Deletes messages sent before `sentBefore` and messages given up before `failedBefore`. */
export function pruneMessages(db: Db, sentBefore: Date, failedBefore: Date, batchSize: number): Promise<number> {
  const m = notificationMessages;
  return deleteInBatches(db, m, or(and(isNotNull(m.sentAt), lt(m.sentAt, sentBefore)), and(isNotNull(m.failedAt), lt(m.failedAt, failedBefore)))!, batchSize);
}
