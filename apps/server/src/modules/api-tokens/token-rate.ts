import { AppError } from '../../lib/app-error.ts';

const MINUTE = 60_000;

/**
 * Calls per token per minute (a fixed window), counted in this server's memory: a check on every
 * call must not be a database write. With several instances behind a balancer a token may make
 * up to this many calls on each; the limit is against a runaway script, not an attacker (who
 * would need the token, and acts as its user anyway).
 */
export class TokenRate {
  perMinute: number;
  private readonly windows = new Map<number, { start: number; count: number }>();
  private readonly clock: () => number;

  constructor(perMinute: number, clock: () => number = Date.now) {
    this.perMinute = perMinute;
    this.clock = clock;
  }

  /** Counts a call of token `id`, or refuses it (429 with Retry-After) once the minute's calls are spent. */
  count(id: number) {
    const now = this.clock();
    let w = this.windows.get(id);
    if (!w || now - w.start >= MINUTE) {
      if (!w) this.forgetIdle(now);
      w = { start: now, count: 0 };
      this.windows.set(id, w);
    }
    if (w.count >= this.perMinute) {
      const seconds = Math.max(1, Math.ceil((w.start + MINUTE - now) / 1000));
      throw new AppError('TOO_MANY_ATTEMPTS', { key: 'auth.tooManyRequests', params: { seconds }, headers: { 'retry-after': String(seconds) } });
    }
    w.count++;
  }

  /** Windows of tokens idle for a minute are dropped, so the map holds only tokens in use. */
  private forgetIdle(now: number) {
    if (this.windows.size < 1000) return;
    for (const [id, w] of this.windows) if (now - w.start >= MINUTE) this.windows.delete(id);
  }
}
