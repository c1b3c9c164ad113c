import type { FastifyBaseLogger } from 'fastify';
import type { Transporter } from 'nodemailer';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import { mailTransport, sendOn, type SmtpSettings } from '../../lib/mailer.ts';
import type { EventLog } from '../event-logs/index.ts';
import * as outbox from './outbox.repository.ts';
import { ChannelFailed, type ChannelDelivery } from './channel-delivery.ts';

/** Tries before a message is given up (about a day and a half of back-off). */
export const MAX_ATTEMPTS = 12;
/** Messages sent at once: one per connection of the transport's pool (`mailTransport`). */
const LANES = 3;
/** Channel messages sent at once (each a request of its own). */
const CHANNEL_LANES = 2;
/** PGlite's claim: longer than one send can take (connection, greeting and socket timeouts). */
const LEASE_MS = 2 * 60_000;
/**
 * On PostgreSQL a claim is the row lock of a transaction held over the send; should the
 * instance's host vanish without closing its connection, PostgreSQL ends it after this.
 */
const CLAIM_IDLE_LIMIT = '120s';
/** How long a stop lets the sends in flight finish before it cuts them and gives them back. */
export const STOP_GRACE_MS = 3_000;

/** The wait before attempt `n + 1` after `n` failed ones: 30 s, doubling, at most 4 hours. */
export const backoffMs = (attempts: number) => Math.min(30_000 * 2 ** (attempts - 1), 4 * 3_600_000);

const reasonOf = (err: unknown) => (err instanceof AppError ? String(err.params.reason ?? err.code) : err instanceof Error ? err.message : String(err)).slice(0, 300);

type Outcome = { sent: true } | { sent: false; reason: string } | { released: true };
type Settings = { smtp: SmtpSettings } | { reason: string };

/** Thrown inside a claim's transaction to roll it back: the message goes back untried. */
class Released extends Error {}

export type SenderOptions = {
  /** How a claim is held: PostgreSQL's row lock for the send, or PGlite's lease. */
  kind: 'pglite' | 'postgres';
  logger?: FastifyBaseLogger | null;
  /** Sends the channels' messages (issue 42); without it they wait. */
  channels?: ChannelDelivery;
  /** Counts a message sent and a failed attempt, by channel kind (the metrics: email, webhook, slack, teams, telegram). */
  onSent?: (channel: string) => void;
  onFailure?: (channel: string) => void;
};

/** The metrics' label of a message: `email`, or its channel's kind. */
const channelLabel = (m: outbox.LeasedMessage) => (m.channelId === null ? 'email' : (m.channelKind ?? 'webhook').toLowerCase());

/**
 * Sends the outbox through the SMTP settings, on a pooled connection that is kept while the
 * settings stay the same. Each message is claimed on its own, sent, and marked sent at once, one
 * at a time on each of the pool's connections: an instance that dies (kill -9) between the SMTP
 * server's acceptance and the mark sends at most that one message again per connection, with
 * the same Message-ID. On PostgreSQL the claim is the row lock of a transaction held over the
 * send, so the database gives a dead instance's message to another at once; on PGlite (one
 * process) it is a lease that the next start ends. Every send and every failure is in the event
 * log; every failure also in the server's log and the failures metric.
 */
export class NotificationSender {
  private readonly db: Db;
  private readonly log: EventLog;
  private readonly smtp: () => Promise<SmtpSettings>;
  private readonly opts: SenderOptions;
  private transport: { key: string; t: Transporter } | null = null;
  private stopping = false;
  private cutNow: () => void = () => undefined;
  private readonly cut = new Promise<{ released: true }>((resolve) => (this.cutNow = () => resolve({ released: true })));

  constructor(db: Db, log: EventLog, smtp: () => Promise<SmtpSettings>, opts: SenderOptions) {
    this.db = db;
    this.log = log;
    this.smtp = smtp;
    this.opts = opts;
  }

  /** Before the first round: on PGlite, a lease left is a crashed run's (one process holds the data). */
  async recover() {
    if (this.opts.kind === 'pglite') await outbox.endLeases(this.db);
  }

  /** Sends what is due, message after message on each connection, until nothing is or a send fails. */
  async sendDue(): Promise<{ sent: number; failed: number }> {
    const total = { sent: 0, failed: 0 };
    if (this.stopping) return total;
    const settings: Settings = await this.smtp().then((smtp) => ({ smtp }), (err: unknown) => ({ reason: reasonOf(err) }));
    const lane = (channels: boolean) => async () => {
      while (!this.stopping) {
        const claimed = await this.claimAndSend(settings, channels);
        if (!claimed || 'released' in claimed.outcome) return;
        await this.report(claimed.m, claimed.outcome);
        if (!claimed.outcome.sent) {
          total.failed++;
          // The SMTP server or the settings fail: the next round tries the rest. A channel's
          // failure is its receiver's alone: the next message (its back-off keeps this one
          // waiting) may go elsewhere.
          if (!channels) return;
          continue;
        }
        total.sent++;
      }
    };
    // Channels have lanes of their own: a mail server that is down never holds up a webhook, nor the reverse.
    const lanes = [...Array.from({ length: LANES }, () => lane(false)), ...(this.opts.channels ? Array.from({ length: CHANNEL_LANES }, () => lane(true)) : [])];
    await Promise.all(lanes.map((run) => run()));
    // A connection that failed is not kept: the next round opens a new one.
    if (total.failed) this.close();
    return total;
  }

  /** Claims the next due message, sends it and marks the outcome; null when none is due. */
  private async claimAndSend(settings: Settings, channels: boolean): Promise<{ m: outbox.LeasedMessage; outcome: Outcome } | null> {
    if (this.opts.kind === 'pglite') {
      const m = await outbox.claimOne(this.db, LEASE_MS, channels);
      if (!m) return null;
      const outcome = await this.attempt(m, settings);
      if ('released' in outcome) await outbox.releaseClaim(this.db, m.id);
      else await this.mark(this.db, m, outcome);
      return { m, outcome };
    }
    let claimed: outbox.LeasedMessage | null = null;
    try {
      return await this.db.transaction(async (tx) => {
        await outbox.limitIdleTransaction(tx, CLAIM_IDLE_LIMIT);
        const m = (claimed = await outbox.claimOne(tx, null, channels));
        if (!m) return null;
        const outcome = await this.attempt(m, settings);
        if ('released' in outcome) throw new Released();
        await this.mark(tx, m, outcome);
        return { m, outcome };
      });
    } catch (err) {
      if (err instanceof Released && claimed) return { m: claimed, outcome: { released: true } };
      throw err;
    }
  }

  /** One SMTP hand-off or channel request; cut short by a stop past its grace (then the message is given back). */
  private attempt(m: outbox.LeasedMessage, settings: Settings): Promise<Outcome> {
    if (m.channelId !== null) return Promise.race([this.attemptChannel(m), this.cut]);
    if ('reason' in settings) return Promise.resolve({ sent: false, reason: settings.reason });
    const send = sendOn(this.transportFor(settings.smtp), settings.smtp, {
      to: m.toEmail,
      subject: m.subject,
      html: m.html,
      messageId: m.messageId,
      attachments: m.attachments.map((a) => ({ filename: a.filename, content: a.encoding === 'base64' ? Buffer.from(a.content, 'base64') : a.content, contentType: a.contentType })),
    }).then(
      (): Outcome => ({ sent: true }),
      (err: unknown): Outcome => ({ sent: false, reason: reasonOf(err) }),
    );
    return Promise.race([send, this.cut]);
  }

  private attemptChannel(m: outbox.LeasedMessage): Promise<Outcome> {
    if (!this.opts.channels) return Promise.resolve({ sent: false, reason: 'no channel delivery on this server' });
    return this.opts.channels.deliver(m).then(
      (): Outcome => ({ sent: true }),
      (err: unknown): Outcome => ({ sent: false, reason: err instanceof ChannelFailed ? err.message : reasonOf(err) }),
    );
  }

  private async mark(db: Db, m: outbox.LeasedMessage, outcome: { sent: boolean; reason?: string }) {
    if (outcome.sent) return outbox.markSent(db, [m.id]);
    const giveUp = m.attempts >= MAX_ATTEMPTS;
    await outbox.markFailed(db, [m.id], outcome.reason ?? '', giveUp ? 0 : backoffMs(m.attempts), giveUp);
  }

  /** The event log's record of the attempt; a failure also once in the server's log (no address, no secret) and the metric. */
  private async report(m: outbox.LeasedMessage, outcome: { sent: true } | { sent: false; reason: string }) {
    // A channel's messages have their own wording ("delivered to Slack: ops"), not an e-mail's.
    const what = m.channelId === null ? 'notification' : 'channel';
    const channel = channelLabel(m);
    if (outcome.sent) {
      this.opts.onSent?.(channel);
      await this.log.write({ group: 'NOTIFICATIONS', level: 'I', messageCode: `${what}.sent`, params: { to: m.toEmail, subject: m.subject }, locationId: m.locationId });
      return;
    }
    const giveUp = m.attempts >= MAX_ATTEMPTS;
    this.opts.onFailure?.(channel);
    const line = { outboxId: m.id, messageId: m.messageId, channel, attempt: m.attempts, givenUp: giveUp, reason: outcome.reason };
    if (giveUp) this.opts.logger?.error(line, `notification ${channel === 'email' ? 'e-mail' : 'channel message'} given up`);
    else this.opts.logger?.warn(line, `notification ${channel === 'email' ? 'e-mail' : 'channel message'} not sent`);
    await this.log.write({
      group: 'NOTIFICATIONS',
      level: giveUp ? 'E' : 'W',
      messageCode: giveUp ? `${what}.givenUp` : `${what}.sendFailed`,
      params: { to: m.toEmail, subject: m.subject, reason: outcome.reason, attempt: m.attempts },
      locationId: m.locationId,
    });
  }

  private transportFor(smtp: SmtpSettings): Transporter {
    const key = JSON.stringify(smtp);
    if (this.transport?.key !== key) {
      this.close();
      this.transport = { key, t: mailTransport(smtp, true) };
    }
    return this.transport.t;
  }

  /**
   * Stops claiming; the sends in flight have `graceMs` to finish, then they are cut and their
   * messages given back untried (a message the SMTP server had taken just then is sent again).
   */
  stop(graceMs = STOP_GRACE_MS) {
    this.stopping = true;
    setTimeout(() => {
      this.cutNow();
      this.close();
    }, graceMs).unref();
  }

  close() {
    this.transport?.t.close();
    this.transport = null;
  }
}
