import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFleet } from '@pagewatch/printer-sim/fleet';
import type { Fleet } from '@pagewatch/printer-sim/fleet';
import { RttTable } from '../snmp/rtt-estimator.ts';
import { parseIpv4 } from './address-range.ts';
import { sweep } from './snmp-sweep.ts';

/** Three printers that each answer after 600 ms: later than the first wait of 400 ms. */
describe('sweep on a slow network', () => {
  const port = 20_000 + Math.floor(Math.random() * 40_000);
  let fleet: Fleet;
  beforeAll(async () => {
    fleet = await startFleet({ count: 3, port, base: '127.0.66.1', seed: 4, speed: 0, randomEvents: false, network: { latencyMs: 600, latencySigma: 0 } });
  });
  afterAll(() => fleet?.stop());

  const options = { port, community: 'public', version: 1 as const, concurrency: 100, timeoutMs: 400 };
  const first = parseIpv4('127.0.66.1');

  it('misses them without a retry', async () => {
    expect(await sweep(first, first + 2, { ...options, retries: 0 })).toEqual([]);
  });

  it('counts a late answer to the first try while the retry waits, and times it from the first try', async () => {
    const rtt = new RttTable();
    const found = await sweep(first, first + 2, { ...options, retries: 1, rtt });
    expect(found.map((a) => a.ip)).toEqual(['127.0.66.1', '127.0.66.2', '127.0.66.3']);
    for (const a of found) {
      const ms = rtt.peek(a.ip, port)!.srttMs!;
      // ±20% jitter around 600 ms; an answer matched to the retry would read about 100 to 300 ms.
      expect(ms).toBeGreaterThan(450);
      expect(ms).toBeLessThan(800);
    }
  });
});

/** Keeps the event loop busy `busyMs` out of every `busyMs + freeMs`, as a starved agent's is. */
function starve(busyMs: number, freeMs: number): () => void {
  const timer = setInterval(() => {
    const until = performance.now() + busyMs;
    while (performance.now() < until) {
      // another process has the core
    }
  }, freeMs);
  return () => clearInterval(timer);
}

/** 200 printers of a /24 answering in about 20 ms, swept by an agent whose event loop runs a tenth of the time. */
describe('sweep on a starved agent', () => {
  const port = 20_000 + Math.floor(Math.random() * 40_000);
  let fleet: Fleet;
  beforeAll(async () => {
    fleet = await startFleet({ count: 200, port, base: '127.0.67.1', seed: 6, speed: 0, randomEvents: false, network: { latencyMs: 20 } });
  });
  afterAll(() => fleet?.stop());
  const options = { port, community: 'public', version: 1 as const, concurrency: 32_768, timeoutMs: 400, retries: 1 };
  const first = parseIpv4('127.0.67.1');

  it('finds every printer while its event loop is held up in bursts of 300 ms', async () => {
    const stop = starve(300, 30);
    try {
      const found = await sweep(first, first + 253, options);
      expect(found.map((a) => a.ip)).toEqual(fleet.list().map((p) => p.ip));
    } finally {
      stop();
    }
  });

  it('counts the addresses it could not probe in time as not probed, not as empty', async () => {
    const unprobed: string[] = [];
    // 20 packets a second for 1.5 s: most of the /24 is never asked.
    const found = await sweep(first, first + 253, { ...options, packetsPerSecond: 20, deadlineMs: 1500, onUnprobed: (ip) => unprobed.push(ip) });
    const answered = new Set(found.map((a) => a.ip));
    expect(fleet.list().map((p) => p.ip).filter((ip) => !answered.has(ip) && !unprobed.includes(ip))).toEqual([]);
    expect(unprobed.length).toBeGreaterThan(200);
    expect(unprobed.length + answered.size).toBeLessThanOrEqual(254);
  });
});
