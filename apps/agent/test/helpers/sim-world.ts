import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe } from 'vitest';
import { startFleet } from '@pagewatch/printer-sim/fleet';
import type { Fleet } from '@pagewatch/printer-sim/fleet';
import { buildApp } from '../../../server/src/app.ts';
import type { BuiltApp } from '../../../server/src/app.ts';
import { loadConfig } from '../../../server/src/config.ts';
import { openDatabase } from '../../../server/src/db/client.ts';
import { defaultLocationId } from '../../../server/src/modules/locations/locations.repository.ts';
import { createAgentRunner } from '../../src/run/agent-runner.ts';
import type { AgentRunner } from '../../src/run/agent-runner.ts';
import { createHttpTransport } from '../../src/run/transport.ts';
import type { AgentTransport } from '../../src/run/transport.ts';
import { serveSnmprec, snmpsimAvailable } from './snmpsim.ts';
import { integrationRunnerOptions } from './test-runner.ts';
import { removeDir } from './processes.ts';

export type SimWorld = {
  built: BuiltApp; fleet: Fleet; runner: AgentRunner; transport: AgentTransport; spoolDir: string;
  query<T>(text: string): Promise<T[]>;
  stop(): Promise<void>;
};

/**
 * The real server on PGlite over HTTP, an agent with two ranges (a simulated fleet of `count`
 * printers from `base`, and one snmpsimd printer on 127.0.0.1 answering `snmprec`) and its runner.
 */
export type SimWorldOptions = { name: string; snmprec: string; count: number; base: string; seed: number };

export async function startSimWorld(o: SimWorldOptions): Promise<SimWorld> {
  const password = `${o.name.replace(/\W/g, '')}-Admin-pass1`;
  const fleetPort = 20_000 + Math.floor(Math.random() * 40_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'pagewatch-world-db-'));
  const spoolDir = mkdtempSync(join(tmpdir(), 'pagewatch-world-spool-'));
  const sim = await serveSnmprec('public', o.snmprec);
  const fleet = await startFleet({ count: o.count, port: fleetPort, base: o.base, seed: o.seed, speed: 0, randomEvents: false });
  const database = await openDatabase({ url: null, dataDir });
  const built = await buildApp({ ...loadConfig({ PAGEWATCH_DATA_DIR: dataDir }), adminPassword: password, webDist: '/nonexistent' }, database, { logger: false });
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(built.app.server.address() as AddressInfo).port}`;
  const login = await built.app.inject({ method: 'POST', url: '/api/auth/', headers: { authorization: `Basic ${Buffer.from(`admin:${password}`).toString('base64')}` } });
  const headers = { authorization: `Bearer ${login.json().token as string}` };
  const locationId = (await defaultLocationId(built.ctx.db))!;
  const agent = (await built.app.inject({ method: 'POST', url: '/api/agents', headers, payload: { name: o.name, location: { id: locationId } } })).json() as { id: number; token: string };
  const network = o.base.replace(/\.\d+$/, '.0');
  for (const range of [
    { type: 'NETMASK', address: network, mask: '255.255.255.248', port: fleetPort },
    { type: 'RANGE', from: '127.0.0.1', to: '127.0.0.1', port: sim.port },
  ]) {
    const res = await built.app.inject({ method: 'POST', url: '/api/network-ranges', headers, payload: { ...range, snmpVersion: '2c', community: 'public', agent: { id: agent.id }, location: { id: locationId } } });
    if (res.statusCode !== 200) throw new Error(`range: ${res.statusCode} ${res.body}`);
  }
  const transport = createHttpTransport({ serverUrl: url, token: agent.token, timeoutMs: 5000 });
  const runner = createAgentRunner(integrationRunnerOptions({ transport, spoolDir }, { poll: { timeoutMs: 2000, retries: 1 } }));
  return {
    built, fleet, runner, transport, spoolDir,
    query: async <T>(text: string) => (await built.ctx.db.execute(sql.raw(text))).rows as T[],
    async stop() {
      await runner.stop();
      await built.app.close();
      await database.close();
      await fleet.stop();
      await sim.stop();
      removeDir(dataDir);
      removeDir(spoolDir);
    },
  };
}

/**
 * Tests over one SimWorld, skipped where snmpsimd is missing: the world starts before the first
 * and stops after the last; `world()` hands it to them.
 */
export function describeSimWorld(title: string, options: SimWorldOptions, tests: (world: () => SimWorld) => void): void {
  describe.skipIf(!snmpsimAvailable())(title, () => {
    let world: SimWorld | undefined;
    beforeAll(async () => {
      world = await startSimWorld(options);
    }, 120_000);
    afterAll(() => world?.stop());
    tests(() => world!);
  });
}
