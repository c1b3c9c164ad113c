import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startFleet } from '@pagewatch/printer-sim/fleet';
import type { Fleet } from '@pagewatch/printer-sim/fleet';
import { buildApp } from '../../server/src/app.ts';
import type { BuiltApp } from '../../server/src/app.ts';
import { loadConfig } from '../../server/src/config.ts';
import { openDatabase } from '../../server/src/db/client.ts';
import type { Database } from '../../server/src/db/client.ts';
import { defaultLocationId } from '../../server/src/modules/locations/locations.repository.ts';
import { readDevice } from '../src/run/read-device.ts';
import { createDefaultRegistry } from '../src/profiles/models-pack.loader.ts';
import { createAgentRunner } from '../src/run/agent-runner.ts';
import type { AgentRunner } from '../src/run/agent-runner.ts';
import type { RunSummary } from '../src/run/collect.ts';
import { createHttpTransport } from '../src/run/transport.ts';
import { removeDir } from './helpers/processes.ts';
import { integrationRunnerOptions } from './helpers/test-runner.ts';

/**
 * Issue 5's integration test: the real server (on an embedded database on disk, so it can be
 * stopped and started again), the agent over HTTP, and simulated printers on 127.0.65.x.
 */
const ADMIN_PASSWORD = 'fleet-Admin-pass1';
const DAY = 86_400_000;
const snmpPort = 20_000 + Math.floor(Math.random() * 40_000);
const COUNT = 6;

type Server = { built: BuiltApp; database: Database; url: string };

let dataDir: string;
let spoolDir: string;
let fleet: Fleet;
let server: Server | null = null;
let httpPort = 0;
let agentToken = '';

async function startServer(): Promise<Server> {
  const database = await openDatabase({ url: null, dataDir });
  // The data folder's own secret key file, the same after a restart.
  const config = { ...loadConfig({ PAGEWATCH_DATA_DIR: dataDir }), adminPassword: ADMIN_PASSWORD, webDist: '/nonexistent' };
  const built = await buildApp(config, database, { logger: false });
  // The same port after a restart, as a real server keeps its address.
  await built.app.listen({ port: httpPort, host: '127.0.0.1' });
  httpPort = (built.app.server.address() as AddressInfo).port;
  return { built, database, url: `http://127.0.0.1:${httpPort}` };
}

async function stopServer(): Promise<void> {
  if (!server) return;
  await server.built.app.close();
  await server.database.close();
  server = null;
}

async function api<T>(method: string, url: string, token: string, body?: unknown): Promise<T> {
  const res = await server!.built.app.inject({ method: method as 'GET', url, headers: { authorization: `Bearer ${token}` }, payload: body as object });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json() as T;
}

async function query<T>(text: string): Promise<T[]> {
  const res = await server!.built.ctx.db.execute(sql.raw(text));
  return res.rows as T[];
}

describe('collecting a fleet: agent, server and simulated printers', () => {
  let runner: AgentRunner;
  const runs: RunSummary[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'pagewatch-fleet-db-'));
    spoolDir = mkdtempSync(join(tmpdir(), 'pagewatch-fleet-spool-'));
    fleet = await startFleet({ count: COUNT, port: snmpPort, base: '127.0.65.1', seed: 42, speed: 0, randomEvents: false });
    server = await startServer();
    const login = await server.built.app.inject({ method: 'POST', url: '/api/auth/', headers: { authorization: `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}` } });
    const admin = login.json().token as string;
    const locationId = (await defaultLocationId(server.built.ctx.db))!;
    const agent = await api<{ id: number; token: string }>('POST', '/api/agents', admin, { name: 'Integration agent', location: { id: locationId } });
    agentToken = agent.token;
    await api('POST', '/api/network-ranges', admin, {
      name: 'simulated printers', type: 'NETMASK', address: '127.0.65.0', mask: '255.255.255.224', port: snmpPort,
      snmpVersion: '2c', community: 'public', agent: { id: agent.id }, location: { id: locationId },
    });
    runner = createAgentRunner(integrationRunnerOptions({ transport: createHttpTransport({ serverUrl: server.url, token: agent.token, timeoutMs: 5000 }), spoolDir }));
  }, 120_000);

  afterAll(async () => {
    await runner?.stop();
    await stopServer();
    await fleet?.stop();
    removeDir(dataDir);
    removeDir(spoolDir);
  });

  /** One poll of the fleet, delivered; a simulated hour passes first so counters move. */
  async function poll(deliver = true): Promise<RunSummary> {
    await fleet.advance(3_600_000);
    const summary = await runner.runOnce();
    runs.push(summary);
    if (deliver) expect(await runner.flush(20_000)).toBe(true);
    return summary;
  }

  const events = (type: string): Promise<Array<{ serial: string; supply_index: number | null; new_value: string | null }>> =>
    query(`SELECT d.serial_number AS serial, e.supply_index, e.new_value FROM device_events e JOIN devices d ON d.id = e.device_id WHERE e.type = '${type}' ORDER BY e.id`);

  it('finds every printer, follows an IP change, a low supply, a new cartridge and an outage; each event once; nothing lost or doubled across a server restart', async () => {
    const printers = fleet.list();
    const firstIps = printers.map((p) => p.ip);
    const first = await poll();
    expect(first.readings).toBe(COUNT);
    expect((await events('NEW_DEVICE')).map((e) => e.serial).sort()).toEqual(printers.map((p) => p.serial).sort());

    // Printer 0 moves to another address; printer 1's first supply runs low.
    await fleet.changeIp(0, '127.0.65.20');
    fleet.setSupplyPercent(1, 1, 4);
    await poll();
    // A day of printing, then printer 1 gets a new cartridge.
    await fleet.advance(DAY);
    fleet.replaceSupply(1, 1);
    await poll();

    // Printer 2 goes offline: not available after the missed polls.
    fleet.setOffline(2, true);
    await poll();
    await poll();
    expect((await events('NOT_AVAILABLE')).map((e) => e.serial)).toEqual([printers[2]!.serial]);

    // The server stops for a while: the agent keeps polling into its spool.
    const before = Number((await query<{ n: string }>('SELECT count(*) AS n FROM ingested_readings'))[0]!.n);
    await stopServer();
    await poll(false);
    fleet.setOffline(2, false);
    const whileDown = await poll(false);
    expect(whileDown.readings).toBe(COUNT);
    expect(await runner.flush(500)).toBe(false);
    expect(runner.pending()).toBeGreaterThan(0);

    server = await startServer();
    expect(await runner.flush(30_000)).toBe(true);
    await poll();

    const produced = runs.reduce((n, r) => n + r.readings, 0);
    const stored = await query<{ n: string; ids: string }>('SELECT count(*) AS n, count(DISTINCT reading_id) AS ids FROM ingested_readings');
    expect(Number(stored[0]!.n)).toBe(produced);
    expect(Number(stored[0]!.ids)).toBe(produced);
    expect(Number(stored[0]!.n)).toBeGreaterThan(before);

    // Each event once, on the right printer.
    expect((await events('NEW_DEVICE'))).toHaveLength(COUNT);
    expect((await events('IP_CHANGE')).map((e) => [e.serial, e.new_value])).toEqual([[printers[0]!.serial, '127.0.65.20']]);
    expect((await events('SUPPLY_LOW')).map((e) => [e.serial, e.supply_index])).toEqual([[printers[1]!.serial, 1]]);
    expect((await events('SUPPLY_REPLACED')).map((e) => [e.serial, e.supply_index])).toEqual([[printers[1]!.serial, 1]]);
    expect((await events('NOT_AVAILABLE')).map((e) => e.serial)).toEqual([printers[2]!.serial]);
    expect((await events('BACK_ONLINE')).map((e) => e.serial)).toEqual([printers[2]!.serial]);
    expect(await events('COUNTER_BACKWARDS')).toEqual([]);
    const devices = await query<{ serial_number: string; ip: string }>('SELECT serial_number, ip FROM devices ORDER BY serial_number');
    expect(devices).toHaveLength(COUNT);
    expect(devices.find((d) => d.serial_number === printers[0]!.serial)!.ip).toBe('127.0.65.20');

    // Why a device is not collected (issue 44): printer 0's old address has been silent every
    // run since the move (a timeout), printer 2 timed out while offline and is read again.
    const status = await query<{ ip: string; last_failure_reason: string | null; failures_in_row: number; last_ok_ms: number | null }>('SELECT ip, last_failure_reason, failures_in_row, last_ok_ms FROM agent_device_status');
    const oldAddress = status.find((s) => s.ip === firstIps[0])!;
    expect(oldAddress.last_failure_reason).toBe('TIMEOUT');
    expect(Number(oldAddress.failures_in_row)).toBeGreaterThanOrEqual(3);
    expect(status.find((s) => s.ip === firstIps[2])).toMatchObject({ last_failure_reason: 'TIMEOUT' });
    const read = status.filter((s) => Number(s.failures_in_row) === 0);
    expect(read.map((s) => s.ip).sort()).toEqual([...firstIps.slice(1), '127.0.65.20'].sort());
    for (const s of read) expect(Number(s.last_ok_ms)).toBeGreaterThan(0);
  }, 240_000);

  it('stores a batch sent twice once', async () => {
    const p = fleet.info(3);
    const reading = await readDevice({ host: p.ip, port: snmpPort, timeoutMs: 1000 }, createDefaultRegistry());
    const batch = { batchId: randomUUID(), readings: [{ id: randomUUID(), runId: null, rangeId: null, ip: p.ip, port: snmpPort, reading }] };
    const send = async () => {
      const res = await fetch(`${server!.url}/api/agent/readings`, {
        method: 'POST', headers: { authorization: `Bearer ${agentToken}`, 'content-type': 'application/json' }, body: JSON.stringify(batch),
      });
      expect(res.status).toBe(200);
      return res.json();
    };
    expect(await send()).toEqual({ stored: 1, duplicates: 0, rejected: [] });
    expect(await send()).toEqual({ stored: 0, duplicates: 1, rejected: [] });
  });
});
