/**
 * A cap on packets per second: `rate` tokens a second, up to a burst of `burstMs` worth (at
 * least one). The sender takes a token as soon as there is one, so tokens only pile up while
 * it was held up (a busy machine runs its timers late) or had nothing to send: the burst is what
 * it may catch up then. 10 ms by default (small even bursts, never flooding the network nor the
 * receive buffer with answers). Whatever the burst, no second (any 1,000 ms, not only whole
 * seconds) holds more than `rate` packets: the last `rate` sending times are kept to check it.
 */
export class TokenBucket {
  private rate: number;
  private burst: number;
  private burstMs: number;
  private tokens: number;
  private last: number;
  private readonly now: () => number;
  /** Sending times of the last `rate` packets, a ring (`rate` is at most 100,000: 800 KB). */
  private readonly sent: Float64Array;
  private next = 0;

  constructor(rate: number, now: () => number = () => performance.now(), burstMs = 10) {
    this.rate = rate;
    this.burstMs = burstMs;
    this.burst = Math.max(1, (rate * burstMs) / 1000);
    this.now = now;
    this.tokens = this.burst;
    this.last = now();
    this.sent = new Float64Array(Math.max(1, Math.floor(rate))).fill(-Infinity);
  }

  private refill(): number {
    const t = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((t - this.last) * this.rate) / 1000);
    this.last = t;
    return t;
  }

  /**
   * A new rate from now on (a sweep that has fallen behind slows down), at most the rate it was
   * made with: the last second's check stays at that cap, the burst follows the new rate (and
   * `burstMs`, when given).
   */
  setRate(rate: number, burstMs = this.burstMs): void {
    this.refill();
    this.burstMs = burstMs;
    this.rate = Math.min(rate, this.sent.length);
    this.burst = Math.max(1, (this.rate * this.burstMs) / 1000);
    this.tokens = Math.min(this.tokens, this.burst);
  }

  /** Takes one token if there is one and the last second has room. */
  take(): boolean {
    const t = this.refill();
    if (this.tokens < 1 || this.sent[this.next]! > t - 1000) return false;
    this.tokens -= 1;
    this.sent[this.next] = t;
    this.next = (this.next + 1) % this.sent.length;
    return true;
  }

  /** Milliseconds until the next token (0 when one is there). */
  waitMs(): number {
    const t = this.refill();
    const bucket = this.tokens >= 1 ? 0 : Math.ceil(((1 - this.tokens) * 1000) / this.rate);
    return Math.max(bucket, Math.ceil(this.sent[this.next]! + 1000 - t));
  }
}
