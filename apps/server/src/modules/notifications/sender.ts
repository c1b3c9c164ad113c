import type { Transporter } from 'nodemailer';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { mailTransport, sendOn, type SmtpSettings } from '../../lib/mailer.ts';
import type { EventLog } from '../event-logs/event-logs.service.ts';
import * as outbox from './outbox.repository.ts';

/** Tries before a message is given up (about a day and a half of back-off). */
export const MAX_ATTEMPTS = 12;
const LEASE_MS = 5 * 60_000;
const BATCH = 200;

/** The wait before attempt `n + 1` after `n` failed ones: 30 s, doubling, at most 4 hours. */
export const backoffMs = (attempts: number) => Math.min(30_000 * 2 ** (attempts - 1), 4 * 3_600_000);

const reasonOf = (err: unknown) => (err instanceof AppError ? String(err.params.reason ?? err.code) : err instanceof Error ? err.message : String(err)).slice(0, 300);

/**
 * Sends the outbox through the SMTP settings, on a pooled connection that is kept while the
 * settings stay the same. Each message is leased before it is sent and marked after, so two
 * instances never send it both; a crash between the send and the mark sends it again after the
 * lease, with the same Message-ID. Every send and every failure is in the event log.
 */
export class NotificationSender {
  private readonly db: Db;
  private readonly log: EventLog;
  private readonly smtp: () => Promise<SmtpSettings>;
  private transport: { key: string; t: Transporter } | null = null;

  /** Told each failed send's reason once, with how many messages it held back (the server log). */
  private readonly onFailed: (failures: { reason: string; messages: number }[]) => void;

  constructor(db: Db, log: EventLog, smtp: () => Promise<SmtpSettings>, onFailed: (failures: { reason: string; messages: number }[]) => void = () => {}) {
    this.db = db;
    this.log = log;
    this.smtp = smtp;
    this.onFailed = onFailed;
  }

  /** Sends what is due, batch after batch, until nothing is. */
  async sendDue(): Promise<{ sent: number; failed: number }> {
    const total = { sent: 0, failed: 0 };
    for (;;) {
      const batch = await outbox.leaseMessages(this.db, BATCH, LEASE_MS);
      if (!batch.length) return total;
      const r = await this.sendBatch(batch);
      total.sent += r.sent;
      total.failed += r.failed;
      if (r.sent === 0) return total;
    }
  }

  private async sendBatch(batch: outbox.LeasedMessage[]): Promise<{ sent: number; failed: number }> {
    let smtp: SmtpSettings;
    try {
      smtp = await this.smtp();
    } catch (err) {
      await this.failed(batch.map((m) => ({ m, reason: reasonOf(err) })));
      return { sent: 0, failed: batch.length };
    }
    const transport = this.transportFor(smtp);
    const results = await Promise.all(
      batch.map((m) =>
        sendOn(transport, smtp, {
          to: m.toEmail,
          subject: m.subject,
          html: m.html,
          messageId: m.messageId,
          attachments: m.attachments.map((a) => ({ filename: a.filename, content: a.encoding === 'base64' ? Buffer.from(a.content, 'base64') : a.content, contentType: a.contentType })),
        }).then(
          () => ({ m, reason: null }),
          (err: unknown) => ({ m, reason: reasonOf(err) }),
        ),
      ),
    );
    const sent = results.filter((r) => r.reason === null).map((r) => r.m);
    const failed = results.filter((r): r is { m: outbox.LeasedMessage; reason: string } => r.reason !== null);
    await outbox.markSent(this.db, sent.map((m) => m.id));
    await this.log.writeMany(
      sent.map((m) => ({ group: 'NOTIFICATIONS', level: 'I', messageCode: 'notification.sent', params: { to: m.toEmail, subject: m.subject }, locationId: m.locationId })),
    );
    await this.failed(failed);
    // A connection that failed is not kept: the next batch opens a new one.
    if (failed.length) this.close();
    return { sent: sent.length, failed: failed.length };
  }

  private async failed(rows: { m: outbox.LeasedMessage; reason: string }[]) {
    if (!rows.length) return;
    const byDelay = new Map<string, number[]>();
    for (const { m, reason } of rows) {
      const giveUp = m.attempts >= MAX_ATTEMPTS;
      const key = JSON.stringify([reason, giveUp ? 0 : backoffMs(m.attempts), giveUp]);
      byDelay.set(key, [...(byDelay.get(key) ?? []), m.id]);
    }
    for (const [key, ids] of byDelay) {
      const [reason, delay, giveUp] = JSON.parse(key) as [string, number, boolean];
      await outbox.markFailed(this.db, ids, reason, delay, giveUp);
    }
    const byReason = new Map<string, number>();
    for (const { reason } of rows) byReason.set(reason, (byReason.get(reason) ?? 0) + 1);
    this.onFailed([...byReason].map(([reason, messages]) => ({ reason, messages })));
    await this.log.writeMany(
      rows.map(({ m, reason }) => {
        const giveUp = m.attempts >= MAX_ATTEMPTS;
        return {
          group: 'NOTIFICATIONS' as const,
          level: giveUp ? ('E' as const) : ('W' as const),
          messageCode: giveUp ? 'notification.givenUp' : 'notification.sendFailed',
          params: { to: m.toEmail, subject: m.subject, reason, attempt: m.attempts },
          locationId: m.locationId,
        };
      }),
    );
  }

  private transportFor(smtp: SmtpSettings): Transporter {
    const key = JSON.stringify(smtp);
    if (this.transport?.key !== key) {
      this.close();
      this.transport = { key, t: mailTransport(smtp, true) };
    }
    return this.transport.t;
  }

  close() {
    this.transport?.t.close();
    this.transport = null;
  }
}
