import { chmodSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
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
import { createAgentRunner } from '../src/run/agent-runner.ts';
import type { AgentRunner } from '../src/run/agent-runner.ts';
import { createHttpTransport } from '../src/run/transport.ts';
import { makeSimDirs, snmpsimAvailable, startSnmpsim } from './helpers/snmpsim.ts';
import { integrationRunnerOptions } from './helpers/test-runner.ts';
import type { Snmpsim } from './helpers/snmpsim.ts';
import { removeDir } from './helpers/processes.ts';

/**
 * Issue 14, finding 7: one printer with values past every limit (a 2,000-character serial, host
 * name and location, a NUL byte, a supply capacity and a supply index of 2^31 or more) among
 * ordinary ones. The real server and the agent over HTTP: the printer is stored, fitted and
 * noted, the others too, and later readings keep flowing (before, the server answered 500 and
 * the agent retried that batch for ever).
 */
const ADMIN_PASSWORD = 'limits-Admin-pass1';
const fleetPort = 20_000 + Math.floor(Math.random() * 40_000);
const COUNT = 3;
const hex = (text: string): string => Buffer.from(text, 'latin1').toString('hex');
const LONG_SERIAL = `EVIL${'9'.repeat(1996)}`;
const EVIL = [
  '1.3.6.1.2.1.1.1.0|4|KYOCERA Document Solutions Printing System',
  '1.3.6.1.2.1.1.2.0|6|1.3.6.1.4.1.1347.41',
  `1.3.6.1.2.1.1.5.0|4x|${hex(`host\u0000${'h'.repeat(2000)}`)}`,
  `1.3.6.1.2.1.1.6.0|4|${'L'.repeat(2000)}`,
  '1.3.6.1.2.1.25.3.2.1.2.1|6|1.3.6.1.2.1.25.3.1.5',
  '1.3.6.1.2.1.25.3.2.1.3.1|4|ECOSYS M2540dn',
  '1.3.6.1.2.1.25.3.2.1.5.1|2|2',
  '1.3.6.1.2.1.25.3.5.1.1.1|2|3',
  '1.3.6.1.2.1.25.3.5.1.2.1|4x|00',
  `1.3.6.1.2.1.43.5.1.1.17.1|4|${LONG_SERIAL}`,
  '1.3.6.1.2.1.43.10.2.1.4.1.1|65|123456',
  '1.3.6.1.2.1.43.11.1.1.5.1.1|2|3',
  '1.3.6.1.2.1.43.11.1.1.5.1.3000000000|2|3',
  '1.3.6.1.2.1.43.11.1.1.6.1.1|4|TK-1170',
  '1.3.6.1.2.1.43.11.1.1.6.1.3000000000|4|TK-9999',
  '1.3.6.1.2.1.43.11.1.1.8.1.1|66|3000000000',
  '1.3.6.1.2.1.43.11.1.1.8.1.3000000000|2|100',
  '1.3.6.1.2.1.43.11.1.1.9.1.1|2|-3',
  '1.3.6.1.2.1.43.11.1.1.9.1.3000000000|2|50',
  '1.3.6.1.4.1.1347.43.5.1.1.1.1|4|ECOSYS M2540dn',
  `1.3.6.1.4.1.1347.43.5.1.1.28.1|4|${LONG_SERIAL}`,
].join('\n');

let dataDir: string;
let spoolDir: string;
let fleet: Fleet;
let sim: Snmpsim;
let built: BuiltApp;
let database: Database;
let runner: AgentRunner;

const query = async <T>(text: string): Promise<T[]> => (await built.ctx.db.execute(sql.raw(text))).rows as T[];

describe.skipIf(!snmpsimAvailable())('values past the limits: agent, server, a printer that sends too much', () => {
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'pagewatch-limits-db-'));
    spoolDir = mkdtempSync(join(tmpdir(), 'pagewatch-limits-spool-'));
    const dirs = makeSimDirs();
    const file = join(dirs.dataDir, 'public.snmprec');
    writeFileSync(file, `${EVIL}\n`);
    chmodSync(file, 0o644);
    sim = await startSnmpsim(dirs, 'public');
    fleet = await startFleet({ count: COUNT, port: fleetPort, base: '127.0.66.1', seed: 7, speed: 0, randomEvents: false });
    database = await openDatabase({ url: null, dataDir });
    built = await buildApp({ ...loadConfig({}), adminPassword: ADMIN_PASSWORD, webDist: '/nonexistent', dataDir }, database, { logger: false });
    await built.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(built.app.server.address() as AddressInfo).port}`;
    const login = await built.app.inject({ method: 'POST', url: '/api/auth/', headers: { authorization: `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}` } });
    const headers = { authorization: `Bearer ${login.json().token as string}` };
    const locationId = (await defaultLocationId(built.ctx.db))!;
    const agent = (await built.app.inject({ method: 'POST', url: '/api/agents', headers, payload: { name: 'Limits agent', location: { id: locationId } } })).json() as { id: number; token: string };
    for (const range of [
      { type: 'NETMASK', address: '127.0.66.0', mask: '255.255.255.248', port: fleetPort },
      { type: 'RANGE', from: '127.0.0.1', to: '127.0.0.1', port: sim.port },
    ]) {
      const res = await built.app.inject({ method: 'POST', url: '/api/network-ranges', headers, payload: { ...range, snmpVersion: '2c', community: 'public', agent: { id: agent.id }, location: { id: locationId } } });
      expect(res.statusCode, res.body).toBe(200);
    }
    runner = createAgentRunner(
      integrationRunnerOptions({ transport: createHttpTransport({ serverUrl: url, token: agent.token, timeoutMs: 5000 }), spoolDir }, { poll: { timeoutMs: 2000, retries: 1 } }),
    );
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

  it('stores the printer fitted to the limits with a note, the other printers too, and later readings keep flowing', async () => {
    const first = await runner.runOnce();
    expect(first.readings).toBe(COUNT + 1);
    expect(await runner.flush(20_000)).toBe(true);

    type Row = { id: number; serial_number: string; host_name: string; snmp_location: string; problems: string[] };
    const [evil] = await query<Row>(`SELECT id, serial_number, host_name, snmp_location, problems FROM devices WHERE ip = '127.0.0.1'`);
    expect(evil.serial_number).toBe(LONG_SERIAL.slice(0, 100));
    expect(evil.host_name).toHaveLength(255);
    expect(evil.host_name.startsWith('host h')).toBe(true);
    expect(evil.snmp_location).toHaveLength(500);
    for (const note of ['serialNumber: cut', 'hostName: cut', 'location: cut', 'supplies.0.maxCapacity: dropped', 'supplies.1.index: dropped']) {
      expect(evil.problems.some((p) => p.startsWith(note)), `${note} in ${JSON.stringify(evil.problems)}`).toBe(true);
    }
    const supplies = await query<{ supply_index: number; max_capacity: number | null }>(`SELECT supply_index, max_capacity FROM consumables WHERE device_id = ${evil.id}`);
    expect(supplies).toEqual([{ supply_index: 1, max_capacity: null }]);
    const others = await query<{ serial_number: string }>(`SELECT serial_number FROM devices WHERE ip <> '127.0.0.1' ORDER BY serial_number`);
    expect(others.map((d) => d.serial_number)).toEqual(fleet.list().map((p) => p.serial).sort());

    // Later readings flow: a second poll is stored for every device, nothing was set aside.
    await fleet.advance(3_600_000);
    const second = await runner.runOnce();
    expect(await runner.flush(20_000)).toBe(true);
    const [{ n }] = await query<{ n: number }>(`SELECT count(*)::int AS n FROM devices WHERE last_run_id = '${second.runId}'`);
    expect(Number(n)).toBe(COUNT + 1);
    expect(existsSync(join(spoolDir, 'rejected'))).toBe(false);
  });
});
