import { describe, expect, it } from 'vitest';
import { TokenBucket } from '../discovery/token-bucket.ts';
import { DEFAULT_RTT_LIMITS, RttEstimator, RttTable } from './rtt-estimator.ts';

describe('answer time estimator (RFC 6298)', () => {
  it('starts at the initial timeout and doubles it per attempt, within bounds', () => {
    const e = new RttEstimator();
    expect(e.timeoutMs(0)).toBe(DEFAULT_RTT_LIMITS.initialMs);
    expect(e.timeoutMs(1)).toBe(2000);
    expect(e.timeoutMs(5)).toBe(DEFAULT_RTT_LIMITS.maxMs);
  });

  it('follows a device: the first answer sets it, then smoothed, never under the minimum', () => {
    const e = new RttEstimator({ initialMs: 1000, minMs: 50, maxMs: 8000 });
    e.sample(100);
    // SRTT 100, RTTVAR 50: 100 + 4 × 50.
    expect(e.timeoutMs()).toBe(300);
    for (let i = 0; i < 50; i++) e.sample(100);
    expect(e.srttMs).toBeCloseTo(100, 5);
    expect(e.timeoutMs()).toBe(110); // the variation counts at least the 10 ms granularity
    const fast = new RttEstimator();
    for (let i = 0; i < 20; i++) fast.sample(5);
    expect(fast.timeoutMs()).toBe(DEFAULT_RTT_LIMITS.minMs);
  });

  it('widens on a jittery or slower device and when every attempt went unanswered', () => {
    const e = new RttEstimator({ initialMs: 1000, minMs: 10, maxMs: 8000 });
    for (let i = 0; i < 20; i++) e.sample(i % 2 ? 40 : 120);
    const jittery = e.timeoutMs();
    expect(jittery).toBeGreaterThan(160);
    for (let i = 0; i < 30; i++) e.sample(1200);
    expect(e.timeoutMs()).toBeGreaterThan(1200);
    expect(e.slow).toBe(true);
    const before = e.timeoutMs();
    e.failed();
    expect(e.timeoutMs()).toBe(Math.min(8000, before * 2));
  });

  it('keeps one estimator per device and knows who answered', () => {
    const table = new RttTable(DEFAULT_RTT_LIMITS, 2);
    table.get('10.0.0.1', 161).sample(10);
    table.get('10.0.0.2', 161);
    expect(table.answered()).toEqual(['10.0.0.1:161']);
    table.get('10.0.0.3', 161);
    expect(table.peek('10.0.0.1', 161)).toBeUndefined(); // the oldest went past the cap
  });
});

describe('packet cap (token bucket)', () => {
  it('gives `rate` tokens a second after a burst of a hundredth of a second', () => {
    let now = 0;
    const bucket = new TokenBucket(1000, () => now);
    let sent = 0;
    for (; now <= 2000; now += 1) while (bucket.take()) sent++;
    // 10 at once, then 1,000 a second for 2 s.
    expect(sent).toBeGreaterThanOrEqual(2005);
    expect(sent).toBeLessThanOrEqual(2011);
    expect(bucket.waitMs()).toBeGreaterThanOrEqual(0);
  });

  it('catches up after the sender was held up, yet never sends more than `rate` in any second', () => {
    // A sender on a busy machine whose timer fires every 50 ms instead of every millisecond.
    const late = (burstMs?: number): number[] => {
      let now = 0;
      const bucket = new TokenBucket(1000, () => now, burstMs);
      const times: number[] = [];
      for (; now <= 3000; now += 50) while (bucket.take()) times.push(now);
      return times;
    };
    // 10 ms of catch-up loses four fifths of the budget; 50 ms keeps it.
    expect(late().length).toBeLessThan(700);
    const times = late(50);
    expect(times.length).toBeGreaterThanOrEqual(2950);
    for (let i = 0; i + 1000 < times.length; i++) expect(times[i + 1000]! - times[i]!).toBeGreaterThanOrEqual(1000);
  });

  it('says how long until the next token', () => {
    let now = 0;
    const bucket = new TokenBucket(10, () => now);
    expect(bucket.take()).toBe(true);
    expect(bucket.take()).toBe(false);
    expect(bucket.waitMs()).toBe(100);
    now = 100;
    expect(bucket.take()).toBe(true);
  });
});
