import type { FastifyBaseLogger } from 'fastify';
import type { NotificationDispatcher } from './dispatcher.ts';
import { STOP_GRACE_MS, type NotificationSender } from './sender.ts';

/**
 * Runs the dispatcher and the sender every few seconds, and at once when kicked (after an
 * ingest). Several server instances may run it: the database decides who takes what.
 */
export class NotificationWorker {
  private readonly dispatcher: NotificationDispatcher;
  private readonly sender: NotificationSender;
  private readonly logger: FastifyBaseLogger | null;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;

  constructor(dispatcher: NotificationDispatcher, sender: NotificationSender, logger: FastifyBaseLogger | null) {
    this.dispatcher = dispatcher;
    this.sender = sender;
    this.logger = logger;
  }

  start(tickMs = 5_000) {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), tickMs);
    this.timer.unref();
    void this.sender.recover().then(
      () => this.tick(),
      (err: unknown) => this.logger?.error({ err }, 'notification outbox recovery failed'),
    );
  }

  /** Something happened: run as soon as the current round ends. */
  kick() {
    if (this.timer) void this.tick();
  }

  /** One round: dispatch, then send. A round asked for while one runs follows it. */
  tick(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          await this.dispatcher.dispatch();
          await this.sender.sendDue();
        } catch (err) {
          // The database or the mail server went away: the next round tries again, nothing is lost.
          this.logger?.error({ err }, 'notification round failed');
        }
      } while (this.again && this.timer);
    })().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /**
   * Within 5 s: no new claims; the sends in flight finish or are given back after the sender's
   * grace. A dispatch round still running then (a report to render) is left to end with the
   * database connections: its transaction rolls back and the next start does it again.
   */
  async stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.sender.stop();
    let waited: NodeJS.Timeout | undefined;
    await Promise.race([this.running, new Promise<void>((r) => (waited = setTimeout(r, STOP_GRACE_MS + 1_000)))]);
    clearTimeout(waited);
    this.sender.close();
  }
}
