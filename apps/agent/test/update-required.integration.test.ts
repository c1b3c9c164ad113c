import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_API_VERSION } from '@pagewatch/contracts/agent-api';
import { buildApp } from '../../server/src/app.ts';
import type { BuiltApp } from '../../server/src/app.ts';
import { loadConfig } from '../../server/src/config.ts';
import { openDatabase } from '../../server/src/db/client.ts';
import type { Database } from '../../server/src/db/client.ts';
import { defaultLocationId } from '../../server/src/modules/locations/locations.repository.ts';
import { createAgentRunner } from '../src/run/agent-runner.ts';
import { createHttpTransport } from '../src/run/transport.ts';
import { removeDir } from './helpers/processes.ts';
import { integrationRunnerOptions } from './helpers/test-runner.ts';

/** Issue 44: an agent older than the server takes hears "update required", logs it and keeps asking slowly; the console shows it. */
const password = 'update-Admin-pass1';
let built: BuiltApp;
let database: Database;
let url: string;
let admin: { authorization: string };
const dirs: string[] = [];

beforeAll(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pagewatch-update-db-'));
  dirs.push(dataDir);
  database = await openDatabase({ url: null, dataDir });
  built = await buildApp({ ...loadConfig({ PAGEWATCH_DATA_DIR: dataDir }), adminPassword: password, webDist: '/nonexistent' }, database, { logger: false });
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(built.app.server.address() as AddressInfo).port}`;
  const login = await built.app.inject({ method: 'POST', url: '/api/auth/', headers: { authorization: `Basic ${Buffer.from(`admin:${password}`).toString('base64')}` } });
  admin = { authorization: `Bearer ${login.json().token as string}` };
});
afterAll(async () => {
  await built?.app.close();
  await database?.close();
  for (const d of dirs) removeDir(d);
});

async function newAgent(name: string) {
  const locationId = (await defaultLocationId(built.ctx.db))!;
  return (await built.app.inject({ method: 'POST', url: '/api/agents', headers: admin, payload: { name, location: { id: locationId } } })).json() as { id: number; token: string };
}

describe('an agent too old for the server', () => {
  it('logs "update required" with the server\'s words, shows ERROR, keeps asking, and the console says so', async () => {
    const agent = await newAgent('Old one');
    const logs: string[] = [];
    const spoolDir = mkdtempSync(join(tmpdir(), 'pagewatch-update-spool-'));
    dirs.push(spoolDir);
    const transport = createHttpTransport({ serverUrl: url, token: agent.token, timeoutMs: 5000, apiVersion: AGENT_API_VERSION - 2 });
    const runner = createAgentRunner(integrationRunnerOptions({ transport, spoolDir }, { retryMaxMs: 100, log: (level, message) => logs.push(`${level} ${message}`) }));
    runner.start();
    await expect.poll(() => logs.filter((l) => l.includes('UPDATE REQUIRED')).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    expect(runner.status).toBe('ERROR');
    const line = logs.find((l) => l.includes('UPDATE REQUIRED'))!;
    expect(line).toMatch(/^error UPDATE REQUIRED: .*426 Update required: this agent speaks version 0 of the agent API, the server takes version 1 and later/);
    await runner.stop();
    const seen = (await built.app.inject({ url: `/api/agents/${agent.id}`, headers: admin })).json() as { updateRequired: boolean; version: string | null };
    expect(seen).toMatchObject({ updateRequired: true, version: null });
  });

  it("this release's agent registers and is not flagged", async () => {
    const agent = await newAgent('Current one');
    const transport = createHttpTransport({ serverUrl: url, token: agent.token, timeoutMs: 5000 });
    const config = await transport.register({ version: '0.2.0', hostname: 'h', platform: 'linux' });
    expect(config.agentId).toBe(agent.id);
    expect((await built.app.inject({ url: `/api/agents/${agent.id}`, headers: admin })).json()).toMatchObject({ updateRequired: false, version: '0.2.0' });
  });
});
