import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentConfig } from '@pagewatch/contracts/agent-api';
import { startFleet } from '@pagewatch/printer-sim/fleet';
import type { Fleet } from '@pagewatch/printer-sim/fleet';
import { STOPPED_ANSWERING } from './read-device.ts';
import { createDefaultRegistry } from '../profiles/models-pack.loader.ts';
import { RttTable } from '../snmp/rtt-estimator.ts';
import { collect } from './collect.ts';
import { Spool } from './spool.ts';
import type { SpoolRecord } from './spool.ts';

/**
 * The agent on a network like a real one: 30 printers answering in about 30 ms, 10% of requests
 * lost, 3 slow (300 ms more), 3 asleep for 1.5 s, 3 silent. Every printer that can answer is read
 * completely, thanks to per-device timeouts and retries, and the run's summary says what became
 * of each.
 */
describe('polling a lossy, slow simulated network', () => {
  const port = 20_000 + Math.floor(Math.random() * 40_000);
  let fleet: Fleet;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pagewatch-lossy-'));
    fleet = await startFleet({
      count: 30, port, base: '127.0.64.1', seed: 11, speed: 0, randomEvents: false,
      network: { latencyMs: 30, latencySigma: 0.3, loss: 0.1, slow: 0.1, slowMs: 300, asleep: 0.1, wakeMs: 1500, silent: 0.1 },
    });
  });
  afterAll(async () => {
    await fleet?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads every reachable printer completely and counts answered, slow, timed out and unreachable', async () => {
    const printers = fleet.list();
    const reachable = printers.filter((p) => p.network !== 'silent').map((p) => p.ip);
    const slow = printers.filter((p) => p.network === 'slow').map((p) => p.ip);
    expect(reachable).toHaveLength(27);
    const cfg: AgentConfig = {
      agentId: 1, name: 'lossy', periodicityMinutes: 15, modelsVersion: null,
      ranges: [{ id: 1, type: 'RANGE', address: null, mask: null, from: '127.0.64.1', to: '127.0.64.40', port, snmp: { version: '2c', community: 'public' } }],
    };
    const spool = new Spool(dir, { sealAfterMs: 60_000 });
    const rtt = new RttTable({ initialMs: 400, minMs: 100, maxMs: 4000, slowMs: 250 });
    const records: SpoolRecord[] = [];
    const append = spool.append.bind(spool);
    spool.append = async (record: SpoolRecord) => {
      records.push(record);
      await append(record);
    };
    const run = () => collect(cfg, {
      registry: createDefaultRegistry(), spool, signal: new AbortController().signal, log: () => undefined, rtt,
      // Four attempts in discovery (0.4 + 0.8 + 1.6 s) outlast the 1.5 s sleep.
      discovery: { timeoutMs: 400, retries: 3 },
    });

    const first = await run();
    const readings = records.flatMap((r) => (r.kind === 'reading' ? [r.reading] : []));
    expect(readings.map((r) => r.ip).sort()).toEqual([...reachable].sort());
    expect(readings.filter((r) => r.reading.problems.includes(STOPPED_ANSWERING))).toEqual([]);
    expect(readings.every((r) => r.reading.supplies.length > 0 && r.reading.serialNumber)).toBe(true);
    expect(first.ranges[0]!.summary).toEqual({ answered: 24, slow: 3, timedOut: 0, unreachable: 0, refused: 0, refusals: [], unprobed: 0 });
    for (const ip of slow) expect(rtt.peek(ip, port)!.slow).toBe(true);

    // Two printers switched off: the next run names them unreachable.
    fleet.setOffline(0, true);
    fleet.setOffline(1, true);
    const offline = [0, 1].filter((i) => printers[i]!.network !== 'silent').length;
    const second = await run();
    const s = second.ranges[0]!.summary!;
    expect(s.unreachable).toBe(offline);
    expect(s.answered + s.slow).toBe(27 - offline);
    expect(s.timedOut).toBe(0);
  });
});
