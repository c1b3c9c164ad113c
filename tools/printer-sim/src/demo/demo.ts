#!/usr/bin/env node
/**
 * `npm run demo`: the server on the embedded database (./data-demo), 50 simulated printers in
 * three locations, the built-in agent scanning them, and a year of history so reports and charts
 * have data. Ctrl-C stops everything; the data stays for the next start.
 *
 * Environment: PORT (8080), PAGEWATCH_DATA_DIR (data-demo), PAGEWATCH_ADMIN_PASSWORD
 * (demo-Admin-pass1 on a new data dir), DEMO_SNMP_PORT (1161), DEMO_SPEED (simulated minutes
 * per real minute, 30), DEMO_HISTORY_DAYS (365), PAGEWATCH_LANGUAGE (en; ru names the sites
 * and the demo agent in Russian, as the server its seeds).
 */
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createDefaultRegistry } from '@pagewatch/agent/models-pack';
import { readDevice } from '@pagewatch/agent/read-device';
import { createAgentRunner } from '@pagewatch/agent/runner';
import type { AgentRunner } from '@pagewatch/agent/runner';
import { createHttpTransport } from '@pagewatch/agent/transport';
import { startControlServer } from '../control-server.ts';
import { startFleet } from '../fleet.ts';
import type { Fleet } from '../fleet.ts';
import { backfillReadings, historyReadingId } from './history.ts';
import { DEMO_AGENT, demoLanguage, demoSites } from './sites.ts';

const ROOT = resolve(new URL('../../../../', import.meta.url).pathname);
const PORT = Number(process.env.PORT ?? 8080);
const DATA_DIR = resolve(process.env.PAGEWATCH_DATA_DIR ?? join(ROOT, 'data-demo'));
const PASSWORD = process.env.PAGEWATCH_ADMIN_PASSWORD ?? 'demo-Admin-pass1';
const SNMP_PORT = Number(process.env.DEMO_SNMP_PORT ?? 1161);
const SPEED = Number(process.env.DEMO_SPEED ?? 30);
const HISTORY_DAYS = Number(process.env.DEMO_HISTORY_DAYS ?? 365);
const POLL_SECONDS = Number(process.env.DEMO_POLL_SECONDS ?? 60);
/** Each site's simulator control API (control-server.ts) listens on this port plus the site's place: take a printer offline, jam it… */
const CONTROL_PORT = Number(process.env.DEMO_CONTROL_PORT ?? 8161);
const BASE_URL = `http://127.0.0.1:${PORT}`;

const LANGUAGE = demoLanguage(process.env.PAGEWATCH_LANGUAGE);
const SITES = demoSites(LANGUAGE);

const say = (line: string): void => void process.stdout.write(`demo: ${line}\n`);

let token = '';
async function call<T>(method: string, path: string, body?: unknown, auth = token): Promise<{ status: number; body: T }> {
  const res = await fetch(`${BASE_URL}${path}`, {
    method,
    headers: { ...(auth ? { authorization: auth.startsWith('Basic ') ? auth : `Bearer ${auth}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}
async function must<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await call<T>(method, path, body);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  return res.body;
}
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function startServer(): ChildProcess {
  const child = spawn(process.execPath, [join(ROOT, 'apps/server/src/main.ts')], {
    env: { ...process.env, PORT: String(PORT), PAGEWATCH_DATA_DIR: DATA_DIR, PAGEWATCH_ADMIN_PASSWORD: PASSWORD, PAGEWATCH_BUILTIN_AGENT: 'true', PAGEWATCH_BUILTIN_AGENT_PERIOD_SECONDS: String(POLL_SECONDS), LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  child.once('exit', (code) => {
    if (!stopping) {
      say(`the server exited (${code})`);
      void shutdown(1);
    }
  });
  return child;
}

async function waitForServer(): Promise<void> {
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${BASE_URL}/config.json`)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  throw new Error('the server did not start within 150 s');
}

type Row = { id: number; code: string; name: string };
type Page<T> = { pageRows: T[]; totalRows: number };

async function ensureLocations(): Promise<Map<string, number>> {
  const dictionary = await must<{ id: number }>('GET', '/api/dictionaries/by-code/LOCATION');
  const items = (await must<Page<Row>>('GET', '/api/dictionary-items/by-code/LOCATION?page=500,1')).pageRows;
  const ids = new Map<string, number>();
  const root = items.find((i) => i.code === 'DEFAULT');
  for (const site of SITES) {
    const existing = items.find((i) => i.code === site.code);
    ids.set(site.code, existing?.id ?? (await must<Row>('POST', '/api/dictionary-items', { dictionaryId: dictionary.id, code: site.code, name: site.name, parentId: root?.id ?? null })).id);
  }
  return ids;
}

type AgentRow = { id: number; name: string; status: string; builtin?: boolean };

/** The built-in agent when the server runs one; otherwise a demo agent run from here. */
async function findAgent(): Promise<{ id: number; local: AgentRunner | null; token: string | null }> {
  for (let i = 0; i < 40; i++) {
    const rows = (await must<Page<AgentRow>>('GET', '/api/agents/page?page=100,1')).pageRows;
    for (const row of rows) {
      const agent = await must<AgentRow>('GET', `/api/agents/${row.id}`);
      if (agent.builtin) return { id: agent.id, local: null, token: null };
    }
    await sleep(250);
  }
  say('the server runs no built-in agent: starting a demo agent from here');
  const rows = (await must<Page<AgentRow>>('GET', '/api/agents/page?page=100,1')).pageRows;
  const root = (await must<Page<Row>>('GET', '/api/dictionary-items/by-code/LOCATION?page=500,1')).pageRows.find((i) => i.code === 'DEFAULT')!;
  const existing = rows.find((r) => Object.values(DEMO_AGENT).some((a) => a.name === r.name));
  const agent = existing
    ? await must<{ id: number; token: string }>('POST', `/api/agents/${existing.id}/regenerate-token`)
    : await must<{ id: number; token: string }>('POST', '/api/agents', { ...DEMO_AGENT[LANGUAGE], location: { id: root.id } });
  const local = createAgentRunner({
    transport: createHttpTransport({ serverUrl: BASE_URL, token: agent.token }),
    spoolDir: join(DATA_DIR, 'demo-agent-spool'),
    configPollMs: 10_000,
    // A poll a minute (not the setting's 15): a printer taken offline is "not available" within minutes, live.
    periodMs: POLL_SECONDS * 1000,
    log: (level, message) => level !== 'info' && say(`agent: ${message}`),
  });
  local.start();
  return { id: agent.id, local, token: agent.token };
}

async function ensureRanges(agentId: number, locations: Map<string, number>): Promise<void> {
  const rows = (await must<Page<{ name: string | null }>>('GET', '/api/network-ranges/page?page=100,1')).pageRows;
  for (const site of SITES) {
    if (rows.some((r) => r.name !== null && site.names.includes(r.name))) continue;
    await must('POST', '/api/network-ranges', {
      name: site.name, ...site.range, port: SNMP_PORT, snmpVersion: '2c', community: 'public',
      agent: { id: agentId }, location: { id: locations.get(site.code) },
    });
  }
}

/** Waits until the agent has reported every simulated printer. */
async function waitForDevices(agentId: number, expected: number): Promise<void> {
  const started = Date.now();
  for (;;) {
    const devices = await call<Page<unknown>>('GET', '/api/devices/page?page=50,1');
    if (devices.status === 200 && devices.body.totalRows >= expected) return;
    if (devices.status === 404) {
      // No devices API on this server yet: the agent's finished runs tell instead.
      const status = await must<{ runs: Array<{ finishedAt: string | null; message: string }> }>('GET', `/api/agents/${agentId}/status`);
      const found = status.runs.filter((r) => r.finishedAt).map((r) => Number(/(\d+) devices found/.exec(r.message)?.[1] ?? 0));
      if (found.some((n) => n >= expected)) return;
    }
    if (Date.now() - started > 300_000) throw new Error('the agent has not reported every printer within 5 minutes');
    await sleep(2000);
  }
}

/** A year of daily readings per printer, sent through the agent API as back-dated readings. */
async function loadHistory(agentId: number, fleets: Fleet[], localToken: string | null): Promise<void> {
  const marker = join(DATA_DIR, '.demo-history-loaded');
  if (existsSync(marker) || HISTORY_DAYS <= 0) return;
  // The built-in agent calls the server directly and never uses its token: a fresh one is safe to take.
  const agentToken = localToken ?? (await must<{ token: string }>('POST', `/api/agents/${agentId}/regenerate-token`)).token;
  const registry = createDefaultRegistry();
  const today = new Date();
  let batch: unknown[] = [];
  let sent = 0;
  const flush = async (): Promise<void> => {
    if (!batch.length) return;
    const res = await call('POST', '/api/agent/readings', { batchId: crypto.randomUUID(), readings: batch }, agentToken);
    if (res.status !== 200) throw new Error(`history batch refused: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    sent += batch.length;
    batch = [];
  };
  say(`loading ${HISTORY_DAYS} days of history for ${fleets.reduce((n, f) => n + f.count, 0)} printers…`);
  for (const fleet of fleets) {
    for (const printer of fleet.printers) {
      const info = fleet.info(printer.index);
      const current = await readDevice({ host: info.ip, port: SNMP_PORT, timeoutMs: 2000, retries: 2 }, registry).catch(() => null);
      if (!current?.serialNumber) continue;
      const lifePages = new Map(printer.supplies.map((s) => [s.index, s.spec.lifePages]));
      for (const reading of backfillReadings(current, { days: HISTORY_DAYS, today, seed: fleet.seed, pagesPerDay: printer.model.pagesPerDay, lifePages })) {
        batch.push({ id: historyReadingId(current.serialNumber, reading.readAt.slice(0, 10)), runId: null, rangeId: null, ip: info.ip, port: SNMP_PORT, reading });
        if (batch.length === 500) await flush();
      }
    }
  }
  await flush();
  writeFileSync(marker, new Date().toISOString());
  say(`history loaded: ${sent} daily readings`);
}

let stopping = false;
let server: ChildProcess | null = null;
let fleets: Fleet[] = [];
let localAgent: AgentRunner | null = null;
let controls: { url: string; close(): Promise<void> }[] = [];

async function shutdown(code = 0): Promise<void> {
  if (stopping) return;
  stopping = true;
  say('stopping');
  await localAgent?.stop().catch(() => undefined);
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((r) => server!.once('exit', r));
  }
  await Promise.all(controls.map((c) => c.close()));
  await Promise.all(fleets.map((f) => f.stop()));
  process.exit(code);
}

async function main(): Promise<void> {
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));
  // Built again only when its sources changed since (the script says which).
  const build = spawnSync(process.execPath, [join(ROOT, 'apps/web/scripts/build-if-stale.ts')], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('the console build failed');
  mkdirSync(DATA_DIR, { recursive: true });
  fleets = await Promise.all(SITES.map((s) => startFleet({ count: s.count, base: s.base, seed: s.seed, port: SNMP_PORT, speed: SPEED, location: s.name })));
  say(`${fleets.reduce((n, f) => n + f.count, 0)} simulated printers on ${SITES.map((s) => `${s.base}…`).join(', ')} port ${SNMP_PORT}, ${SPEED}x time`);
  controls = await Promise.all(fleets.map((f, i) => startControlServer(f, CONTROL_PORT + i)));
  say(`simulator control: ${controls.map((c, i) => `${SITES[i]!.name} ${c.url}`).join(', ')} (POST /printers/<i>/offline, /online, /jam, /clear)`);
  server = startServer();
  await waitForServer();
  const login = await call<{ token: string }>('POST', '/api/auth/', undefined, `Basic ${Buffer.from(`admin:${PASSWORD}`).toString('base64')}`);
  if (login.status !== 200) throw new Error(`cannot sign in as admin (${login.status}): ${DATA_DIR} was made with another password; set PAGEWATCH_ADMIN_PASSWORD or remove it`);
  token = login.body.token;
  const locations = await ensureLocations();
  const agent = await findAgent();
  localAgent = agent.local;
  await ensureRanges(agent.id, locations);
  say(`console: http://localhost:${PORT} — sign in as admin / ${PASSWORD}; the agent is scanning ${SITES.length} ranges…`);
  await waitForDevices(agent.id, fleets.reduce((n, f) => n + f.count, 0));
  say('every printer is known: counters, supplies and status are in the console');
  await loadHistory(agent.id, fleets, agent.token);
  say('running; Ctrl-C stops');
}

main().catch((error: Error) => {
  say(`failed: ${error.message}`);
  void shutdown(1);
});
