import { and, isNotNull, lt, or, sql } from 'drizzle-orm';
import { deleteInBatches } from '../../db/batched-delete.ts';
import { notificationMessages } from '../../db/schema/notifications.ts';
import type { Db } from '../../db/client.ts';
import type { NewMessage } from './dispatch.repository.ts';

/** A message as the outbox hands it to a sender: as it was queued, with its attempt and its channel's kind. */
export type LeasedMessage = Required<NewMessage> & {
  id: number;
  attempts: number;
  /** Its channel's kind (WEBHOOK, ...); null for an e-mail. */
  channelKind: string | null;
};

const CLAIMED = sql`m.id, m.notification_id AS "notificationId", m.message_id AS "messageId", m.to_email AS "toEmail", m.subject, m.html,
  m.attachments, m.location_id AS "locationId", m.attempts, m.channel_id AS "channelId", m.payload,
  (SELECT c.kind FROM notification_channels c WHERE c.id = m.channel_id) AS "channelKind"`;

/**
 * Claims the oldest due message (not sent, not given up, next attempt passed, no live lease),
 * counting the attempt; null when none is due. Another instance skips it while the row is locked
 * (in a transaction: until it ends, or the connection dies with its process) and, with
 * `leaseMs`, while the lease lasts.
 */
/** Ends this transaction (and gives its claim back) if its connection idles past `limit`, e.g. '120s'. */
export async function limitIdleTransaction(tx: Db, limit: string) {
  await tx.execute(sql`SET LOCAL idle_in_transaction_session_timeout = ${sql.raw(`'${limit.replace(/[^0-9a-z]/gi, '')}'`)}`);
}

/** `channels`: a channel's message (issue 42) rather than an e-mail: each has lanes of its own. */
export async function claimOne(db: Db, leaseMs: number | null, channels = false): Promise<LeasedMessage | null> {
  const lease = leaseMs === null ? sql`NULL` : sql`now() + ${`${leaseMs} milliseconds`}::interval`;
  const res = await db.execute<LeasedMessage>(sql`
    UPDATE notification_messages m SET lease_until = ${lease}, attempts = m.attempts + 1
    WHERE m.id = (
      SELECT id FROM notification_messages
      WHERE sent_at IS NULL AND failed_at IS NULL AND next_attempt_at <= now() AND (lease_until IS NULL OR lease_until < now())
        AND channel_id IS ${channels ? sql`NOT NULL` : sql`NULL`}
      ORDER BY next_attempt_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
    RETURNING ${CLAIMED}`);
  const r = res.rows[0];
  return r ? { ...r, id: Number(r.id), notificationId: r.notificationId == null ? null : Number(r.notificationId), locationId: r.locationId == null ? null : Number(r.locationId), attempts: Number(r.attempts), channelId: r.channelId == null ? null : Number(r.channelId) } : null;
}

/** Gives a claimed message back untried (a stop cut its send short): not an attempt. */
export async function releaseClaim(db: Db, id: number) {
  await db.execute(sql`UPDATE notification_messages SET lease_until = NULL, attempts = attempts - 1 WHERE id = ${id} AND sent_at IS NULL`);
}

/** Ends every lease: on PGlite, one process, a lease found at the start is a crashed run's. */
export async function endLeases(db: Db) {
  await db.execute(sql`UPDATE notification_messages SET lease_until = NULL WHERE lease_until IS NOT NULL AND sent_at IS NULL AND failed_at IS NULL`);
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

/** A message given up without an attempt: where it was going and what it said. */
export type HeldMessage = { toEmail: string; subject: string; locationId: number | null; channelId: number | null };

/** Gives up every message not sent yet, untried, with `reason`; returns them. */
export async function giveUpPending(db: Db, reason: string): Promise<HeldMessage[]> {
  const res = await db.execute<HeldMessage>(sql`
    UPDATE notification_messages SET failed_at = now(), lease_until = NULL, last_error = ${reason}
    WHERE sent_at IS NULL AND failed_at IS NULL
    RETURNING to_email AS "toEmail", subject, location_id AS "locationId", channel_id AS "channelId"`);
  return res.rows.map((r) => ({ ...r, locationId: r.locationId == null ? null : Number(r.locationId), channelId: r.channelId == null ? null : Number(r.channelId) }));
}

/** How the outbox stands (tests, metrics). */
export async function outboxCounts(db: Db): Promise<{ pending: number; sent: number; failed: number }> {
  const res = await db.execute(sql`
    SELECT count(*) FILTER (WHERE sent_at IS NULL AND failed_at IS NULL) AS pending, count(sent_at) AS sent, count(failed_at) AS failed FROM notification_messages`);
  const r = res.rows[0]!;
  return { pending: Number(r.pending), sent: Number(r.sent), failed: Number(r.failed) };
}

/** Deletes messages sent before `sentBefore` and messages given up before `failedBefore`. */
export function pruneMessages(db: Db, sentBefore: Date, failedBefore: Date, batchSize: number): Promise<number> {
  const m = notificationMessages;
  return deleteInBatches(db, m, or(and(isNotNull(m.sentAt), lt(m.sentAt, sentBefore)), and(isNotNull(m.failedAt), lt(m.failedAt, failedBefore)))!, batchSize);
}
