/**
 * How long to wait for one device, learned from its recent answers (RFC 6298, the way TCP sets
 * its retransmission timeout): a smoothed answer time and its variation; the timeout is the
 * first plus four times the second, bounded. A device never heard from starts at the initial
 * timeout. Each attempt of a request doubles the wait, so a device that got slower is caught on
 * the retry rather than lost.
 */
export type RttLimits = { initialMs: number; minMs: number; maxMs: number; slowMs?: number };

/**
 * 1 s for a device not heard from yet (RFC 6298's initial timeout); never under 250 ms, so
 * a fast printer's jitter does not cost retries; never over 8 s.
 */
export const DEFAULT_RTT_LIMITS: RttLimits = { initialMs: 1000, minMs: 250, maxMs: 8000 };

/** A device whose smoothed answer time is at least this is reported as slow. */
export const SLOW_ANSWER_MS = 1000;

const ALPHA = 1 / 8;
const BETA = 1 / 4;
/** The clock granularity term of RFC 6298: the variation never counts for less. */
const GRANULARITY_MS = 10;

export class RttEstimator {
  private readonly limits: RttLimits;
  srttMs: number | null = null;
  rttvarMs = 0;
  private rtoMs: number;

  constructor(limits: RttLimits = DEFAULT_RTT_LIMITS) {
    this.limits = limits;
    this.rtoMs = limits.initialMs;
  }

  /** An answer came `ms` after its request (each attempt has its own request id, so no ambiguity). */
  sample(ms: number): void {
    if (this.srttMs === null) {
      this.srttMs = ms;
      this.rttvarMs = ms / 2;
    } else {
      this.rttvarMs = (1 - BETA) * this.rttvarMs + BETA * Math.abs(this.srttMs - ms);
      this.srttMs = (1 - ALPHA) * this.srttMs + ALPHA * ms;
    }
    this.rtoMs = this.clamp(this.srttMs + Math.max(GRANULARITY_MS, 4 * this.rttvarMs));
  }

  /** Every attempt of a request went unanswered: wait longer next time (RFC 6298, 5.5). */
  failed(): void {
    this.rtoMs = this.clamp(this.rtoMs * 2);
  }

  /** The wait for attempt `n` (0 first) of a request. */
  timeoutMs(attempt = 0): number {
    return this.clamp(this.rtoMs * 2 ** attempt);
  }

  /** What to keep across a restart: the smoothed time, its variation and the current wait. */
  snapshot(): { srttMs: number | null; rttvarMs: number; rtoMs: number } {
    return { srttMs: this.srttMs, rttvarMs: this.rttvarMs, rtoMs: this.rtoMs };
  }

  /** Takes back a snapshot (values already checked by the caller), clamped to this table's limits. */
  restore(s: { srttMs: number | null; rttvarMs: number; rtoMs: number }): void {
    this.srttMs = s.srttMs;
    this.rttvarMs = s.rttvarMs;
    this.rtoMs = this.clamp(s.rtoMs);
  }

  get slow(): boolean {
    return this.srttMs !== null && this.srttMs >= (this.limits.slowMs ?? SLOW_ANSWER_MS);
  }

  private clamp(ms: number): number {
    return Math.round(Math.min(this.limits.maxMs, Math.max(this.limits.minMs, ms)));
  }
}

/**
 * The estimators of the devices an agent talks to, kept across runs (so a run starts from what
 * the last one learned), keyed by address and port; the oldest are dropped past `max`.
 */
export class RttTable {
  private readonly entries = new Map<string, RttEstimator>();
  private readonly limits: RttLimits;
  private readonly max: number;

  constructor(limits: RttLimits = DEFAULT_RTT_LIMITS, max = 200_000) {
    this.limits = limits;
    this.max = max;
  }

  get(ip: string, port: number): RttEstimator {
    const key = `${ip}:${port}`;
    let e = this.entries.get(key);
    if (!e) {
      e = new RttEstimator(this.limits);
      this.entries.set(key, e);
      if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
    }
    return e;
  }

  /** Known without creating an entry. */
  peek(ip: string, port: number): RttEstimator | undefined {
    return this.entries.get(`${ip}:${port}`);
  }

  /** Every entry, oldest first (the order the table drops them in). */
  entriesInOrder(): Array<[string, RttEstimator]> {
    return [...this.entries];
  }

  get size(): number {
    return this.entries.size;
  }

  /** Devices heard from at least once, as `ip:port`. */
  answered(): string[] {
    return [...this.entries].filter(([, e]) => e.srttMs !== null).map(([k]) => k);
  }
}
