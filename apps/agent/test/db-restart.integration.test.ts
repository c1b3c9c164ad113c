import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReadingBatch } from '@pagewatch/contracts/agent-api';
import { startFleet, type Fleet } from '@pagewatch/printer-sim/fleet';
import { createAgentRunner, type AgentRunner } from '../src/run/agent-runner.ts';
import { createHttpTransport, TransportError } from '../src/run/transport.ts';
import { findPostgresBin, startThrowawayPostgres, type ThrowawayPostgres } from './helpers/throwaway-postgres.ts';
import { integrationRunnerOptions } from './helpers/test-runner.ts';

/**
 * Issue 14, finding 8: PostgreSQL restarts (and stops, then starts) under load. The real server
 * (main.ts as a child process) must stay up, answer 503 while the database is away, and carry on
 * by itself; the agent's readings are all stored, none twice, and live events flow again.
 */
const bin = findPostgresBin();
const ADMIN_PASSWORD = 'restart-Admin-pass1';
const COUNT = 4;
const snmpPort = 20_000 + Math.floor(Math.random() * 40_000);
const httpPort = 20_000 + Math.floor(Math.random() * 40_000);
const base = `http://127.0.0.1:${httpPort}`;
const mainTs = fileURLToPath(new URL('../../server/src/main.ts', import.meta.url));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(cond: () => Promise<boolean> | boolean, ms: number, what: string) {
  const deadline = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

describe.skipIf(!bin)('the server through PostgreSQL restarts (needs PostgreSQL binaries: set PG_BIN or install postgresql)', () => {
  let cluster: ThrowawayPostgres | null = null;
  let server: ChildProcess | null = null;
  let serverLog = '';
  let exited: number | string | null = null;
  let fleet: Fleet | null = null;
  let runner: AgentRunner | null = null;
  const spoolDir = mkdtempSync(join(tmpdir(), 'pagewatch-restart-spool-'));
  let admin = '';
  let agentToken = '';

  let producing = false;
  let loop: Promise<void> = Promise.resolve();

  /** Status 0: no answer at all (the server is gone). */
  async function api(method: string, path: string, body?: unknown) {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${admin}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    }).catch(() => null);
    if (!res) return { status: 0, body: { log: serverLog.slice(-2000) } as Record<string, unknown> };
    return { status: res.status, body: (await res.json().catch(() => null)) as Record<string, unknown> | null };
  }

  async function query<T>(text: string): Promise<T[]> {
    const c = new pg.Client({ connectionString: cluster!.url });
    await c.connect();
    try {
      return (await c.query(text)).rows as T[];
    } finally {
      await c.end();
    }
  }

  beforeAll(async () => {
    cluster = await startThrowawayPostgres(bin!);
    server = spawn(process.execPath, [mainTs], {
      env: {
        ...process.env,
        PORT: String(httpPort),
        HOST: '127.0.0.1',
        DATABASE_URL: cluster.url,
        PAGEWATCH_ADMIN_PASSWORD: ADMIN_PASSWORD,
        PAGEWATCH_WEB_DIST: '/nonexistent',
        PAGEWATCH_BUILTIN_AGENT: 'false',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout!.on('data', (d: Buffer) => (serverLog += d));
    server.stderr!.on('data', (d: Buffer) => (serverLog += d));
    server.on('exit', (code, signal) => (exited = code ?? signal));
    await waitFor(async () => (await fetch(`${base}/config.json`).then((r) => r.ok).catch(() => false)) || exited !== null, 60_000, 'the server');
    expect(exited, serverLog).toBeNull();

    const login = await fetch(`${base}/api/auth/`, { method: 'POST', headers: { authorization: `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}` } });
    admin = ((await login.json()) as { token: string }).token;
    const [{ id: locationId }] = await query<{ id: number }>(`SELECT id FROM locations WHERE code = 'DEFAULT'`);
    const agent = (await api('POST', '/api/agents', { name: 'restart agent', location: { id: locationId } })).body as { id: number; token: string };
    const range = await api('POST', '/api/network-ranges', {
      name: 'simulated printers', type: 'NETMASK', address: '127.0.67.0', mask: '255.255.255.248', port: snmpPort,
      snmpVersion: '2c', community: 'public', agent: { id: agent.id }, location: { id: locationId },
    });
    expect(range.status).toBe(200);
    fleet = await startFleet({ count: COUNT, port: snmpPort, base: '127.0.67.1', seed: 8, speed: 0, randomEvents: false });
    agentToken = agent.token;
    const http = createHttpTransport({ serverUrl: base, token: agent.token, timeoutMs: 5000 });
    runner = createAgentRunner(integrationRunnerOptions({
      transport: {
        ...http,
        // Every answer of a readings batch is kept, to check that none was a 500.
        sendReadings: async (batch: ReadingBatch) => {
          for (const r of batch.readings) sent.add(r.id);
          try {
            const result = await http.sendReadings(batch);
            statuses.push(200);
            return result;
          } catch (err) {
            statuses.push(err instanceof TransportError ? err.status ?? 0 : -1);
            throw err;
          }
        },
      },
      spoolDir,
    }));
  }, 120_000);

  const sent = new Set<string>();
  const statuses: number[] = [];

  afterAll(async () => {
    producing = false;
    await loop.catch(() => undefined);
    await runner?.stop().catch(() => undefined);
    await fleet?.stop();
    if (server && exited === null) {
      const gone = new Promise((r) => server!.once('exit', r));
      server.kill('SIGTERM');
      await Promise.race([gone, sleep(10_000)]);
      if (exited === null) server.kill('SIGKILL');
    }
    await cluster?.destroy();
    rmSync(spoolDir, { recursive: true, force: true });
  }, 60_000);

  it('stays up, answers 503 while the database is away, stores every reading once, and live events flow again', async () => {
    let produced = 0;
    producing = true;
    const stored = async () => {
      if (exited !== null) throw new Error(`the server exited (${exited}): ${serverLog.slice(-1500)}`);
      return storedNow();
    };
    const storedNow = async () => Number((await query<{ n: string }>('SELECT count(*) AS n FROM ingested_readings'))[0]!.n);
    // The agent polls the fleet again and again while the database goes away and comes back.
    loop = (async () => {
      while (producing) {
        produced += (await runner!.runOnce()).readings;
        await sleep(50);
      }
    })();
    // Load beside it: transactions (runs opened) in flight at any moment, as on a busy server.
    const load = Array.from({ length: 6 }, async () => {
      while (producing) {
        const res = await fetch(`${base}/api/agent/runs`, {
          method: 'POST',
          headers: { authorization: `Bearer ${agentToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ runId: randomUUID(), startedAt: new Date().toISOString() }),
        }).catch(() => null);
        loadStatuses.add(res?.status ?? 0);
      }
    });
    const loadStatuses = new Set<number>();
    await waitFor(async () => (await stored()) >= COUNT, 30_000, 'the first readings');

    const down: { status: number; code: unknown }[] = [];
    for (const mode of ['fast', 'immediate'] as const) {
      await cluster!.stop(mode);
      await sleep(300);
      const res = await api('GET', '/api/agents');
      down.push({ status: res.status, code: res.body?.code });
      await sleep(700);
      await cluster!.start();
      const before = await stored();
      await waitFor(async () => (await stored()) > before, 30_000, 'readings stored after the restart');
    }
    producing = false;
    await loop;
    await Promise.all(load);
    expect(await runner!.flush(30_000)).toBe(true);

    expect(exited, serverLog).toBeNull();
    expect(down).toEqual([{ status: 503, code: 'DATABASE_UNAVAILABLE' }, { status: 503, code: 'DATABASE_UNAVAILABLE' }]);
    // The agent met the outage (a 503 or no answer), never a 500.
    expect(statuses.filter((s) => s !== 200 && s !== 503 && s !== 0)).toEqual([]);
    expect([...loadStatuses].filter((s) => s !== 200 && s !== 503).sort()).toEqual([]);
    const ids = await query<{ reading_id: string }>('SELECT reading_id FROM ingested_readings');
    expect(ids.length).toBe(produced);
    expect(new Set(ids.map((r) => r.reading_id))).toEqual(sent);
    expect(sent.size).toBe(produced);
    expect((await query<{ n: string }>('SELECT count(*) AS n FROM devices'))[0]!.n).toBe(String(COUNT));

    // The live events bridge listens again: a NOTIFY of another instance reaches a WebSocket.
    const ws = new WebSocket(`ws://127.0.0.1:${httpPort}/ws?access_token=${admin}`);
    const messages: { type: string; dictionary?: string }[] = [];
    ws.onmessage = (e) => messages.push(JSON.parse(String(e.data)));
    await new Promise((resolve, reject) => ((ws.onopen = resolve), (ws.onerror = reject)));
    ws.send(JSON.stringify({ command: 'subscribe-dic-events' }));
    await waitFor(() => messages.some((m) => m.type === 'response'), 5000, 'the subscription');
    await waitFor(async () => {
      const msg = { type: 'DICTIONARY_CHANGED', dictionary: 'restart-probe' };
      await query(`SELECT pg_notify('pagewatch_hub', '${JSON.stringify({ from: 'another-instance', topic: 'dic', msg })}')`);
      await sleep(200);
      return messages.some((m) => m.dictionary === 'restart-probe');
    }, 15_000, 'a live event through the bridge');
    ws.close();
    expect(exited, serverLog).toBeNull();
  }, 180_000);
});
