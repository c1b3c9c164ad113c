import { chmodSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { startFleet } from '@pagewatch/printer-sim/fleet';
import type { Fleet } from '@pagewatch/printer-sim/fleet';
import type { AgentReading } from '@pagewatch/contracts/agent-api';
import { buildApp } from '../../server/src/app.ts';
import type { BuiltApp } from '../../server/src/app.ts';
import { loadConfig } from '../../server/src/config.ts';
import { openDatabase } from '../../server/src/db/client.ts';
import type { Database } from '../../server/src/db/client.ts';
import { defaultLocationId } from '../../server/src/modules/locations/locations.repository.ts';
import { createAgentRunner } from '../src/run/agent-runner.ts';
import type { AgentRunner } from '../src/run/agent-runner.ts';
import { createHttpTransport } from '../src/run/transport.ts';
import type { AgentTransport } from '../src/run/transport.ts';
import { makeSimDirs, snmpsimAvailable, startSnmpsim } from './helpers/snmpsim.ts';
import { integrationRunnerOptions } from './helpers/test-runner.ts';
import type { Snmpsim } from './helpers/snmpsim.ts';
import { removeDir } from './helpers/processes.ts';

/**
 * Issue 39, finding 1: a printer whose values end in an emoji that the agent's limits cut in
 * two (a 1,024-character sysDescr, a 4,096-character walk value), among ordinary printers. The
 * real server and the agent over HTTP: before, the walk's half surrogate pair made the server
 * answer the batch 500 and the agent retried it for ever, the printers behind it never stored.
 * And what an older agent still sends (half an emoji, a NUL): stored repaired, with a note.
 */
const ADMIN_PASSWORD = 'broken-Admin-pass1';
const fleetPort = 20_000 + Math.floor(Math.random() * 40_000);
const COUNT = 3;
const hex = (text: string): string => Buffer.from(text, 'utf8').toString('hex');
const BROKEN = [
  `1.3.6.1.2.1.1.1.0|4x|${hex(`${'D'.repeat(1023)}😀`)}`,
  // An enterprise no profile knows: the agent walks the device.
  '1.3.6.1.2.1.1.2.0|6|1.3.6.1.4.1.99999.1',
  `1.3.6.1.2.1.1.4.0|4x|${hex(`${'x'.repeat(4095)}😀`)}`,
  '1.3.6.1.2.1.1.5.0|4|emoji-host',
  '1.3.6.1.2.1.25.3.2.1.2.1|6|1.3.6.1.2.1.25.3.1.5',
  '1.3.6.1.2.1.25.3.2.1.3.1|4|Emoji Printer',
  '1.3.6.1.2.1.25.3.2.1.5.1|2|2',
  '1.3.6.1.2.1.25.3.5.1.1.1|2|3',
  '1.3.6.1.2.1.25.3.5.1.2.1|4x|00',
  '1.3.6.1.2.1.43.5.1.1.17.1|4|EMOJI-1',
  '1.3.6.1.2.1.43.10.2.1.4.1.1|65|1234',
].join('\n');

let dataDir: string;
let spoolDir: string;
let fleet: Fleet;
let sim: Snmpsim;
let built: BuiltApp;
let database: Database;
let runner: AgentRunner;
let transport: AgentTransport;

const query = async <T>(text: string): Promise<T[]> => (await built.ctx.db.execute(sql.raw(text))).rows as T[];

describe.skipIf(!snmpsimAvailable())('broken characters: a printer whose values the limits cut inside an emoji', () => {
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'pagewatch-broken-db-'));
    spoolDir = mkdtempSync(join(tmpdir(), 'pagewatch-broken-spool-'));
    const dirs = makeSimDirs();
    const file = join(dirs.dataDir, 'public.snmprec');
    writeFileSync(file, `${BROKEN}\n`);
    chmodSync(file, 0o644);
    sim = await startSnmpsim(dirs, 'public');
    fleet = await startFleet({ count: COUNT, port: fleetPort, base: '127.0.67.1', seed: 9, speed: 0, randomEvents: false });
    database = await openDatabase({ url: null, dataDir });
    built = await buildApp({ ...loadConfig({}), adminPassword: ADMIN_PASSWORD, webDist: '/nonexistent', dataDir }, database, { logger: false });
    await built.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(built.app.server.address() as AddressInfo).port}`;
    const login = await built.app.inject({ method: 'POST', url: '/api/auth/', headers: { authorization: `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}` } });
    const headers = { authorization: `Bearer ${login.json().token as string}` };
    const locationId = (await defaultLocationId(built.ctx.db))!;
    const agent = (await built.app.inject({ method: 'POST', url: '/api/agents', headers, payload: { name: 'Emoji agent', location: { id: locationId } } })).json() as { id: number; token: string };
    for (const range of [
      { type: 'NETMASK', address: '127.0.67.0', mask: '255.255.255.248', port: fleetPort },
      { type: 'RANGE', from: '127.0.0.1', to: '127.0.0.1', port: sim.port },
    ]) {
      const res = await built.app.inject({ method: 'POST', url: '/api/network-ranges', headers, payload: { ...range, snmpVersion: '2c', community: 'public', agent: { id: agent.id }, location: { id: locationId } } });
      expect(res.statusCode, res.body).toBe(200);
    }
    transport = createHttpTransport({ serverUrl: url, token: agent.token, timeoutMs: 5000 });
    runner = createAgentRunner(integrationRunnerOptions({ transport, spoolDir }, { poll: { timeoutMs: 2000, retries: 1 } }));
  }, 120_000);

  afterAll(async () => {
    await runner?.stop();
    await built?.app.close();
    await database?.close();
    await fleet?.stop();
    await sim?.stop();
    removeDir(dataDir);
    removeDir(spoolDir);
  });

  it('cuts between characters: the printer, its walk and the printers behind it are stored', async () => {
    const run = await runner.runOnce();
    expect(run.readings).toBe(COUNT + 1);
    expect(await runner.flush(20_000)).toBe(true);
    const [device] = await query<{ id: number; sys_descr: string }>(`SELECT id, sys_descr FROM devices WHERE ip = '127.0.0.1'`);
    expect(device.sys_descr).toBe('D'.repeat(1023));
    const [walk] = await query<{ rows: [string, string, string][] }>(`SELECT rows FROM device_walks WHERE device_id = ${device.id}`);
    expect(walk.rows.find(([oid]) => oid === '1.3.6.1.2.1.1.4.0')?.[2]).toBe('x'.repeat(4095));
    const [{ n }] = await query<{ n: number }>(`SELECT count(*)::int AS n FROM devices WHERE last_run_id = '${run.runId}'`);
    expect(Number(n)).toBe(COUNT + 1);
    expect(existsSync(join(spoolDir, 'rejected'))).toBe(false);
  });

  it('stores what an older agent sends with half an emoji or a NUL repaired, says so, and the readings behind it', async () => {
    const [{ rows }] = await query<{ rows: [string, string, string][] }>(`SELECT rows FROM device_walks LIMIT 1`);
    const base = (await query<{ ip: string }>(`SELECT ip FROM devices WHERE ip <> '127.0.0.1' ORDER BY ip`)).map((d) => d.ip);
    // Readings as the runner built them, sent again as new ones: the first with broken text.
    const reading = (ip: string, serial: string): AgentReading => ({
      id: randomUUID(), runId: null, rangeId: null, ip, port: 161,
      reading: {
        schema: 'pagewatch/reading@1', readAt: new Date().toISOString(), profileId: null, modelsVersion: null, sysObjectID: '1.3.6.1.4.1.99999.1',
        sysDescr: 'Emoji Printer', vendor: null, model: 'Plain', serialNumber: serial, macAddress: null, firmware: 'v2', hostName: null, location: null,
        isPrinter: true, deviceType: 'PRINTER', colorType: null, paperFormat: null,
        status: { deviceStatus: 'running', printerStatus: 'idle', errors: [], errorStateHex: null },
        counters: { total: 1, totalUnit: null, powerOn: null, mono: null, color: null, a3: null, a3Bw: null, a3Color: null, a4: null, a4Bw: null, a4Color: null, copies: null, scans: null, fax: null, duplex: null, derived: [], vendor: [] },
        supplies: [], trays: [], problems: [],
      },
    });
    const broken = { ...reading('127.0.0.1', 'EMOJI-1'), walk: [...rows.slice(0, 3), ['1.3.6.1.2.1.1.4.0', 'OctetString', `${'x'.repeat(4095)}\ud83d`] as [string, string, string]] };
    broken.reading = { ...broken.reading, hostName: 'emoji-😀-host\ud83d', firmware: 'v\u00002' };
    const behind = base.map((ip, i) => reading(ip, `BEHIND-${i}`));
    const result = await transport.sendReadings({ batchId: randomUUID(), readings: [broken, ...behind] });
    expect(result).toMatchObject({ stored: 1 + behind.length, rejected: [], repaired: [{ index: 0, id: broken.id, fields: ['firmware', 'hostName', 'walk.3'] }] });
    const [device] = await query<{ host_name: string; firmware: string; problems: string[] }>(`SELECT host_name, firmware, problems FROM devices WHERE ip = '127.0.0.1'`);
    expect(device).toMatchObject({ host_name: 'emoji-😀-host\uFFFD', firmware: 'v 2' });
    expect(device.problems).toContain('hostName: broken characters replaced by the server');
    expect((await query<{ serial_number: string }>(`SELECT serial_number FROM devices WHERE serial_number LIKE 'BEHIND-%'`)).length).toBe(behind.length);
  });
});
