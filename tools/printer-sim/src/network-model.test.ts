import { afterAll, describe, expect, it } from 'vitest';
import { SnmpClient } from '@pagewatch/agent/snmp-client';
import { Fleet, startFleet } from './fleet.ts';
import { PrinterLink, planNetwork } from './network-model.ts';
import type { NetworkOptions } from './network-model.ts';

const LOSSY: NetworkOptions = { latencyMs: 40, latencySigma: 0.5, slow: 0.01, slowMs: 1000, loss: 0.02, asleep: 0.01, wakeMs: 3000, silent: 0.03 };
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

describe('simulated network', () => {
  it('is the same for the same seed and another for another seed', () => {
    const a = planNetwork(2000, 5, LOSSY);
    expect(planNetwork(2000, 5, LOSSY)).toEqual(a);
    expect(planNetwork(2000, 6, LOSSY)).not.toEqual(a);
    const delays = (seed: number) => {
      const link = new PrinterLink(planNetwork(10, seed, LOSSY)[0]!, LOSSY, seed, 0);
      return Array.from({ length: 50 }, () => link.delay(0));
    };
    expect(delays(5)).toEqual(delays(5));
  });

  it('gives exact fractions of silent, asleep and slow printers', () => {
    const plan = planNetwork(10_000, 1, LOSSY);
    const count = (kind: string) => plan.filter((p) => p.kind === kind).length;
    expect([count('silent'), count('asleep'), count('slow')]).toEqual([300, 100, 100]);
    expect(Math.min(...plan.filter((p) => p.kind === 'slow').map((p) => p.baseMs))).toBeGreaterThanOrEqual(1000);
  });

  it('draws answer times around the median with a long tail, and loses about the loss rate', () => {
    const plan = planNetwork(10_000, 2, LOSSY);
    const normal = plan.filter((p) => p.kind === 'normal').map((p) => p.baseMs);
    expect(median(normal)).toBeGreaterThan(36);
    expect(median(normal)).toBeLessThan(44);
    // Log-normal, sigma 0.5: the 95th percentile is about 2.3× the median.
    const p95 = [...normal].sort((a, b) => a - b)[Math.floor(normal.length * 0.95)]!;
    expect(p95 / median(normal)).toBeGreaterThan(1.9);
    expect(p95 / median(normal)).toBeLessThan(2.7);
    const link = new PrinterLink({ kind: 'normal', baseMs: 40 }, LOSSY, 2, 0);
    const lost = Array.from({ length: 20_000 }, () => link.delay(0)).filter((d) => d === null).length;
    expect(lost / 20_000).toBeGreaterThan(0.015);
    expect(lost / 20_000).toBeLessThan(0.025);
  });

  it('keeps a sleeping printer silent until its wake-up delay, and a silent one for ever', () => {
    const asleep = new PrinterLink({ kind: 'asleep', baseMs: 10 }, { wakeMs: 3000 }, 1, 0);
    expect(asleep.delay(1000)).toBeNull();
    expect(asleep.delay(3999)).toBeNull();
    expect(asleep.delay(4000)).not.toBeNull();
    const silent = new PrinterLink({ kind: 'silent', baseMs: 10 }, {}, 1, 0);
    expect(silent.delay(1e9)).toBeNull();
  });
});

describe('printers spread over a range', () => {
  it('puts them --stride addresses apart, skipping .0 and .255, each with its spare address next to it', () => {
    const fleet = new Fleet({ count: 5, base: '127.3.0.1', stride: 65, speed: 0, randomEvents: false });
    expect(fleet.list().map((p) => p.ip)).toEqual(['127.3.0.1', '127.3.0.66', '127.3.0.131', '127.3.0.196', '127.3.1.7']);
    expect(fleet.spareAddress(1)).toBe('127.3.0.67');
  });
});

describe('simulated network on the wire', () => {
  let fleet: Fleet;
  afterAll(() => fleet?.stop());

  it('answers after the printer\'s delay, and the silent printer not at all', async () => {
    const port = 20_000 + Math.floor(Math.random() * 40_000);
    fleet = await startFleet({ count: 4, port, base: '127.0.77.1', seed: 3, speed: 0, randomEvents: false, network: { latencyMs: 80, latencySigma: 0, silent: 0.25 } });
    const printers = fleet.list();
    expect(printers.filter((p) => p.network === 'silent')).toHaveLength(1);
    for (const p of printers) {
      const client = new SnmpClient({ host: p.ip, port, community: 'public', timeoutMs: 400, retries: 0 });
      const started = performance.now();
      try {
        if (p.network === 'silent') {
          await expect(client.get(['1.3.6.1.2.1.1.1.0'])).rejects.toMatchObject({ kind: 'timeout' });
        } else {
          await client.get(['1.3.6.1.2.1.1.1.0']);
          expect(performance.now() - started).toBeGreaterThanOrEqual(60);
        }
      } finally {
        client.close();
      }
    }
  });
});
