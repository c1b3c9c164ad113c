import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentConfig } from '@pagewatch/contracts/agent-api';
import { startFleet } from '@pagewatch/printer-sim/fleet';
import type { Fleet } from '@pagewatch/printer-sim/fleet';
import { createAgentRunner } from '../src/run/agent-runner.ts';
import type { AgentRunnerOptions } from '../src/run/agent-runner.ts';
import { createHttpTransport } from '../src/run/transport.ts';
import { startFakeAgentServer } from './helpers/fake-agent-server.ts';
import type { FakeAgentServer } from './helpers/fake-agent-server.ts';
import { removeDir } from './helpers/processes.ts';

/**
 * Issue 22: the run's summary says why a device is missing, across restarts of the agent. Three
 * simulated printers on 127.0.67.x (one slow), and a fourth whose community is changed between
 * runs; each run is done by a new runner on the same spool directory, as after a restart.
 */
const port = 20_000 + Math.floor(Math.random() * 40_000);
const config: AgentConfig = {
  agentId: 1, name: 'summary', periodicityMinutes: 15, modelsVersion: null,
  ranges: [
    { id: 30, type: 'RANGE', address: null, mask: null, from: '127.0.67.1', to: '127.0.67.12', port, snmp: { version: '2c', community: 'public' } },
    // The same printers with an SNMPv3 user they do not have: each answers with a report.
    { id: 31, type: 'RANGE', address: null, mask: null, from: '127.0.67.1', to: '127.0.67.3', port, snmp: { version: '3', user: 'nobody', level: 'noAuthNoPriv', authProtocol: null, authKey: null, privProtocol: null, privKey: null } },
  ],
};
const changed = '127.0.67.10';

let fleet: Fleet;
let other: Fleet;
let server: FakeAgentServer;
const dirs: string[] = [];

beforeAll(async () => {
  fleet = await startFleet({ count: 3, port, base: '127.0.67.1', seed: 31, speed: 0, randomEvents: false, network: { latencyMs: 5, latencySigma: 0.2, slow: 0.34, slowMs: 100 } });
  other = await startFleet({ count: 1, port, base: changed, seed: 32, speed: 0, randomEvents: false });
  server = await startFakeAgentServer(config);
});
afterAll(async () => {
  await fleet?.stop();
  await other?.stop();
  await server?.close();
  for (const d of dirs) removeDir(d);
});

function options(spoolDir: string, logs: string[]): AgentRunnerOptions {
  return {
    transport: createHttpTransport({ serverUrl: server.url, token: server.token, timeoutMs: 2000 }),
    spoolDir,
    discovery: { timeoutMs: 400, retries: 1 },
    poll: { timeoutMs: 1000, retries: 2 },
    // The slow printer answers in 100 ms or more: slow on this scale.
    answerTimes: { initialMs: 400, minMs: 50, maxMs: 4000, slowMs: 60 },
    retryMinMs: 50, retryMaxMs: 200, sealAfterMs: 100, stopFlushMs: 3000,
    log: (level, message) => logs.push(`${level} ${message}`),
  };
}

/** Each range's device outcomes of the last runAgain (issue 44): address → reason ('OK' for a read). */
let outcomes: Array<Record<string, string>> = [];

/** One run by a runner that starts, runs and stops: each call is a restart of the agent. */
async function runAgain(spoolDir: string, logs: string[] = []) {
  const runner = createAgentRunner(options(spoolDir, logs));
  try {
    const summary = await runner.runOnce();
    outcomes = summary.ranges.map((r) => Object.fromEntries((r.devices ?? []).map((d) => [d.ip, d.reason ?? 'OK'])));
    for (const d of summary.ranges.flatMap((r) => r.devices ?? [])) if (d.reason === null) expect(d.ms).toBeGreaterThan(0);
    // The fake server checks every request against the contract: the summary got through.
    expect(await runner.flush(5000)).toBe(true);
    return summary.ranges.map((r) => r.summary!);
  } finally {
    await runner.stop();
  }
}

describe("a run's summary across restarts (issue 22)", () => {
  it('still counts a printer silent since an earlier run as unreachable, and a changed community or an unknown SNMPv3 user as refused, after a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pagewatch-summary-'));
    dirs.push(dir);
    const slow = fleet.list().filter((p) => p.network === 'slow');
    expect(slow).toHaveLength(1);
    const off = fleet.list().findIndex((p) => p.network === 'normal');

    const ips = fleet.list().map((p) => p.ip);
    const [first, firstV3] = await runAgain(dir);
    expect(first).toEqual({ answered: 3, slow: 1, timedOut: 0, unreachable: 0, refused: 0, refusals: [], unprobed: 0 });
    expect(firstV3).toEqual({ answered: 0, slow: 0, timedOut: 0, unreachable: 0, refused: 3, refusals: ips.map((ip) => ({ ip, reason: 'auth' })), unprobed: 0 });
    // Each device's outcome: read, and the unknown SNMPv3 user refused (AUTH).
    expect(outcomes).toEqual([Object.fromEntries([...ips, changed].map((ip) => [ip, 'OK'])), Object.fromEntries(ips.map((ip) => [ip, 'AUTH']))]);

    // Between runs: one printer is switched off, another gets a community the range does not have.
    fleet.setOffline(off, true);
    await other.stop();
    other = await startFleet({ count: 1, port, base: changed, seed: 32, speed: 0, randomEvents: false, community: 'private' });

    const [second, secondV3] = await runAgain(dir);
    expect(second).toEqual({ answered: 1, slow: 1, timedOut: 0, unreachable: 1, refused: 1, refusals: [{ ip: changed, reason: 'community' }], unprobed: 0 });
    // The printer switched off is silent to v3 too: unreachable there as well, not refused.
    expect(secondV3).toMatchObject({ refused: 2, unreachable: 1 });
    // The printer switched off timed out; the changed community answers SNMPv3 only: AUTH.
    const offIp = ips[off]!;
    expect(outcomes[0]).toEqual({ ...Object.fromEntries(ips.map((ip) => [ip, 'OK'])), [offIp]: 'TIMEOUT', [changed]: 'AUTH' });
    expect(outcomes[1]).toEqual({ ...Object.fromEntries(ips.map((ip) => [ip, 'AUTH'])), [offIp]: 'TIMEOUT' });
    const finish = server.calls.filter((c) => c.startsWith('finish:'));
    expect(finish.length).toBeGreaterThanOrEqual(2);

    // Without what the first run learned, the same network looks like two empty addresses.
    const fresh = mkdtempSync(join(tmpdir(), 'pagewatch-summary-'));
    dirs.push(fresh);
    expect((await runAgain(fresh))[0]).toMatchObject({ answered: 1, slow: 1, unreachable: 0, refused: 0 });
    fleet.setOffline(off, false);
  });

  it('starts with a warning, not a crash, when the kept answer times are corrupt or of another version', async () => {
    for (const body of ['{"format":"pagewatch-agent-rtt","version":1,"devices":[["127.0.67.1:', '{"format":"pagewatch-agent-rtt","version":99,"devices":[]}']) {
      const dir = mkdtempSync(join(tmpdir(), 'pagewatch-summary-'));
      dirs.push(dir);
      writeFileSync(join(dir, 'answer-times.json'), body);
      const logs: string[] = [];
      const [summary] = await runAgain(dir, logs);
      expect(summary!.answered + summary!.slow).toBeGreaterThanOrEqual(2);
      expect(logs.filter((l) => l.startsWith('warn') && l.includes('answer-times.json'))).toHaveLength(1);
    }
  });
});
