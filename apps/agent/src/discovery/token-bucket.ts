/**
 * A cap on packets per second: `rate` tokens a second, up to a burst of a hundredth of a
 * second's worth (at least one), so a sweep sends in small even bursts and never floods the
 * network, nor its own receive buffer with the answers.
 */
export class TokenBucket {
  private readonly rate: number;
  private readonly burst: number;
  private tokens: number;
  private last: number;
  private readonly now: () => number;

  constructor(rate: number, now: () => number = () => performance.now()) {
    this.rate = rate;
    this.burst = Math.max(1, rate / 100);
    this.now = now;
    this.tokens = this.burst;
    this.last = now();
  }

  private refill(): void {
    const t = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((t - this.last) * this.rate) / 1000);
    this.last = t;
  }

  /** Takes one token if there is one. */
  take(): boolean {
    this.refill();
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  /** Milliseconds until the next token (0 when one is there). */
  waitMs(): number {
    this.refill();
    return this.tokens >= 1 ? 0 : Math.ceil(((1 - this.tokens) * 1000) / this.rate);
  }
}
