import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AgentConfig, AgentStatus } from '@pagewatch/contracts/agent-api';
import { startFleet } from '@pagewatch/printer-sim/fleet';
import type { Fleet } from '@pagewatch/printer-sim/fleet';
import { createAgentRunner } from '../src/run/agent-runner.ts';
import type { AgentRunnerOptions } from '../src/run/agent-runner.ts';
import { createHttpTransport } from '../src/run/transport.ts';
import { startFakeAgentServer } from './helpers/fake-agent-server.ts';
import type { FakeAgentServer } from './helpers/fake-agent-server.ts';
import { removeDir } from './helpers/processes.ts';

const port = 20_000 + Math.floor(Math.random() * 40_000);
const base = '127.0.63.1';
const COUNT = 8;

const config: AgentConfig = {
  agentId: 1,
  name: 'test agent',
  periodicityMinutes: 5,
  modelsVersion: null,
  ranges: [{ id: 10, type: 'NETMASK', address: '127.0.63.0', mask: '/28', from: null, to: null, port, snmp: { version: '2c', community: 'public' } }],
};

let fleet: Fleet;
let server: FakeAgentServer;
const dirs: string[] = [];

beforeAll(async () => {
  fleet = await startFleet({ count: COUNT, port, base, seed: 21, speed: 0, randomEvents: false, models: ['LaserJet Pro M404dn', 'IM C3000', 'LaserWriter 9000', 'MX-3071', 'VersaLink C405', 'ECOSYS P3145dn', 'HL-L6210DW', 'bizhub C300i'] });
  server = await startFakeAgentServer(config);
});
afterAll(async () => {
  await fleet?.stop();
  await server?.close();
});
afterEach(() => {
  server.down = false;
  server.failStatus = null;
  server.rejectSerials.clear();
});

function runnerOptions(overrides: Partial<AgentRunnerOptions> = {}): AgentRunnerOptions {
  const spoolDir = overrides.spoolDir ?? mkdtempSync(join(tmpdir(), 'pagewatch-agent-'));
  dirs.push(spoolDir);
  return {
    transport: createHttpTransport({ serverUrl: server.url, token: server.token, timeoutMs: 2000 }),
    spoolDir,
    discovery: { timeoutMs: 800, retries: 1 },
    poll: { timeoutMs: 1000, retries: 1 },
    retryMinMs: 50,
    retryMaxMs: 200,
    sealAfterMs: 100,
    stopFlushMs: 3000,
    ...overrides,
  };
}
afterAll(() => {
  for (const d of dirs) removeDir(d);
});

describe('agent runner', () => {
  it('goes STARTING → RUNNING → IDLE → STOPPING → STOPPED and reports it to the server', async () => {
    const seen: AgentStatus[] = [];
    server.statuses.length = 0;
    server.spoolDepths.length = 0;
    const runner = createAgentRunner(runnerOptions({ onStatus: (s) => seen.push(s), periodMs: 60_000 }));
    runner.start();
    await waitFor(() => runner.status === 'IDLE');
    expect(await runner.flush(5000)).toBe(true);
    await runner.stop();
    expect(dedupe(seen)).toEqual(['STARTING', 'RUNNING', 'IDLE', 'STOPPING', 'STOPPED']);
    expect(dedupe(server.statuses)).toEqual(['STARTING', 'RUNNING', 'IDLE', 'STOPPING', 'STOPPED']);
    // Each report tells the server how much is waiting in the spool (for its metrics).
    expect(server.spoolDepths.every((d) => Number.isInteger(d) && d! >= 0)).toBe(true);
  });

  it('sends one reading per printer with the run id, in order, and a walk for the one no profile knows', async () => {
    server.readings.clear();
    server.calls.length = 0;
    const runner = createAgentRunner(runnerOptions());
    const summary = await runner.runOnce();
    expect(await runner.flush(5000)).toBe(true);
    await runner.stop();
    expect(summary.readings).toBe(COUNT);
    expect(summary.ranges).toEqual([expect.objectContaining({ rangeId: 10, scanned: 14, found: COUNT, error: null })]);
    const readings = [...server.readings.values()];
    expect(readings.map((r) => r.ip).sort()).toEqual(fleet.list().map((p) => p.ip).sort());
    expect(readings.every((r) => r.runId === summary.runId && r.rangeId === 10)).toBe(true);
    const unknown = readings.find((r) => r.ip === fleet.info(2).ip)!;
    expect(unknown.reading.vendor).toBeNull();
    expect(unknown.walk!.length).toBeGreaterThan(50);
    expect(readings.filter((r) => r.walk).map((r) => r.ip)).toEqual([unknown.ip]);
    // The run starts before its readings and finishes after them.
    const calls = server.calls.filter((c) => !c.startsWith('register'));
    expect(calls[0]).toBe(`run-start:${summary.runId}`);
    expect(calls[calls.length - 1]).toBe(`finish:${summary.runId}`);
  });

  it('sends a full walk of a known printer when the console asked for one', async () => {
    server.readings.clear();
    const asked = fleet.info(0);
    config.walkRequests = [{ deviceId: 1, ip: asked.ip, port }];
    try {
      const runner = createAgentRunner(runnerOptions());
      await runner.runOnce();
      expect(await runner.flush(5000)).toBe(true);
      await runner.stop();
      const readings = [...server.readings.values()];
      const walked = readings.find((r) => r.ip === asked.ip)!;
      expect(walked.reading.vendor).not.toBeNull();
      expect(walked.walk!.length).toBeGreaterThan(50);
      expect(readings.filter((r) => r.walk).map((r) => r.ip).sort()).toEqual([asked.ip, fleet.info(2).ip].sort());
    } finally {
      delete config.walkRequests;
    }
  });

  it('keeps readings in the spool while the server is down, across a restart, and delivers each once, in order', async () => {
    server.readings.clear();
    server.calls.length = 0;
    server.duplicates = 0;
    const options = runnerOptions();
    // First a run while the server is up, so the agent has a config kept on disk.
    const first = createAgentRunner(options);
    await first.runOnce();
    await first.flush(5000);
    await first.stop();
    server.readings.clear();
    server.calls.length = 0;

    server.down = true;
    const offline = createAgentRunner(options);
    const a = await offline.runOnce();
    const b = await offline.runOnce();
    expect(await offline.flush(300)).toBe(false);
    await offline.stop();
    expect(server.readings.size).toBe(0);
    expect(offline.pending()).toBeGreaterThanOrEqual(2 * COUNT + 4);

    // A new process on the same spool, and the server comes back.
    const restarted = createAgentRunner(options);
    server.down = false;
    restarted.start();
    expect(await restarted.flush(10_000)).toBe(true);
    await restarted.stop();
    const runs = [a.runId, b.runId];
    for (const runId of runs) expect([...server.readings.values()].filter((r) => r.runId === runId)).toHaveLength(COUNT);
    expect(server.duplicates).toBe(0);
    // Runs arrive whole and in order: start, readings, finish, then the next run.
    const order = server.calls.filter((c) => runs.some((r) => c.endsWith(r)));
    expect(order).toEqual([`run-start:${a.runId}`, `finish:${a.runId}`, `run-start:${b.runId}`, `finish:${b.runId}`]);
    const firstFinish = server.calls.indexOf(`finish:${a.runId}`);
    const secondStart = server.calls.indexOf(`run-start:${b.runId}`);
    expect(server.calls.slice(firstFinish, secondStart).some((c) => c.startsWith('readings'))).toBe(false);
  });

  it('stopping against a failing server sends once, not every 50 ms (issue 14)', async () => {
    const runner = createAgentRunner(runnerOptions({ retryMinMs: 1000, retryMaxMs: 5000, stopFlushMs: 3000 }));
    server.failStatus = 500;
    await runner.runOnce();
    const before = server.deliveries;
    const started = Date.now();
    await runner.stop();
    // The one last try (the run start, first in the spool), and perhaps one retry that was due.
    expect(server.deliveries - before).toBeLessThanOrEqual(2);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(runner.pending()).toBeGreaterThan(COUNT);
  });

  it('never retries what the server refused for good: a 4xx batch, a refused reading; the rest flows on', async () => {
    // A reading refused on its own: the others of its batch are stored, it is set aside.
    server.readings.clear();
    server.deliveries = 0;
    server.postedIds = [];
    server.readingPosts = 0;
    const refused = fleet.info(0).serial;
    server.rejectSerials.add(refused);
    const options = runnerOptions();
    const runner = createAgentRunner(options);
    await runner.runOnce();
    expect(await runner.flush(5000)).toBe(true);
    expect(server.readings.size).toBe(COUNT - 1);
    // Nothing sent twice: each reading once (in one batch or more, as the spool sealed them),
    // and besides the batches only the run's start and finish.
    expect(sentOnce(server.postedIds)).toBe(COUNT);
    expect(server.deliveries - server.readingPosts).toBe(2);
    const kept = readdirSync(join(options.spoolDir, 'rejected')).map((f) => readFileSync(join(options.spoolDir, 'rejected', f), 'utf8'));
    expect(kept).toHaveLength(1);
    expect(kept[0]).toContain(refused);

    // A whole batch refused (400): set aside once, then later readings are delivered.
    server.rejectSerials.clear();
    server.failStatus = 400;
    server.deliveries = 0;
    server.postedIds = [];
    server.readingPosts = 0;
    await runner.runOnce();
    expect(await runner.flush(5000)).toBe(true);
    expect(sentOnce(server.postedIds)).toBe(COUNT);
    expect(server.deliveries - server.readingPosts).toBe(2);
    server.failStatus = null;
    server.readings.clear();
    await runner.runOnce();
    expect(await runner.flush(5000)).toBe(true);
    await runner.stop();
    expect(server.readings.size).toBe(COUNT);
    expect(existsSync(join(options.spoolDir, 'rejected'))).toBe(true);
  });

  it('shows ERROR when the server refuses its token', async () => {
    const runner = createAgentRunner(runnerOptions({ transport: createHttpTransport({ serverUrl: server.url, token: 'wrong' }) }));
    await expect(runner.runOnce()).rejects.toThrow(/no config/);
    expect(runner.status).toBe('ERROR');
    await runner.stop();
    expect(runner.status).toBe('STOPPED');
  });
});

/** How many readings were posted, or -1 when one was posted twice. */
function sentOnce(ids: string[]): number {
  return new Set(ids).size === ids.length ? ids.length : -1;
}

function dedupe<T>(items: T[]): T[] {
  return items.filter((x, i) => i === 0 || items[i - 1] !== x);
}

async function waitFor(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
