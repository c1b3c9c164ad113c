import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AgentConfig } from '@pagewatch/contracts/agent-api';
import { createAgentRunner } from './agent-runner.ts';
import { TransportError, type AgentTransport } from './transport.ts';

/** The config an agent keeps in its spool holds no secret in clear (issue 52). */
const COMMUNITY = 'pw-community-4f1c9';
const PASSWORD = 'pw-queue-pass-77ab';
const config: AgentConfig = {
  agentId: 1, name: 'kept', periodicityMinutes: 60, modelsVersion: null,
  ranges: [{ id: 1, type: 'RANGE', address: null, mask: null, from: '127.0.62.254', to: '127.0.62.254', port: 1, snmp: { version: '2c', community: COMMUNITY } }],
  queues: [{ id: 1, type: 'IPP', host: '127.0.62.254', port: 1, url: null, username: 'u', password: PASSWORD, token: null, sinceJobId: null, stateVersion: 1 }],
};

const dirs: string[] = [];
afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

function transport(up: boolean): AgentTransport {
  const down = () => Promise.reject(new TransportError('unavailable', 'the server is away', null));
  const ok = <T>(v: T) => (up ? Promise.resolve(v) : down());
  return {
    register: () => ok(config), config: () => ok(config), modelsPack: () => down(),
    status: () => Promise.resolve(), startRun: () => Promise.resolve(), problem: () => Promise.resolve(), finishRun: () => Promise.resolve(),
    sendReadings: () => ok({ accepted: 0, rejected: [] } as never), sendQueueJobs: () => ok({ rejected: [] } as never),
  } as AgentTransport;
}

/** Starts a runner on `spoolDir` until it holds a config, then stops it. */
async function runOnce(spoolDir: string, up: boolean) {
  const runner = createAgentRunner({ transport: transport(up), spoolDir, periodMs: 3_600_000, retryMinMs: 20, retryMaxMs: 50, discovery: { timeoutMs: 100, retries: 0 }, poll: { timeoutMs: 100, retries: 0 }, stopFlushMs: 100 });
  runner.start();
  for (let i = 0; i < 200 && !runner.config; i++) await new Promise((r) => setTimeout(r, 20));
  const kept = runner.config;
  await runner.stop();
  return kept;
}

const spoolBytes = (dir: string) => readdirSync(dir, { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile()).map((e) => readFileSync(join(e.parentPath, e.name)).toString('latin1')).join('\n');

describe('the config kept in the spool (issue 52)', () => {
  it('holds no community or queue password in clear, is 600, and still serves a start while the server is away', { timeout: 60_000 }, async () => {
    const spoolDir = mkdtempSync(join(tmpdir(), 'pw-spool-'));
    dirs.push(spoolDir);
    expect((await runOnce(spoolDir, true))?.ranges[0].snmp).toEqual({ version: '2c', community: COMMUNITY });
    const bytes = spoolBytes(spoolDir);
    expect(bytes).not.toContain(COMMUNITY);
    expect(bytes).not.toContain(PASSWORD);
    expect((statSync(join(spoolDir, 'config.json')).mode & 0o777).toString(8)).toBe('600');
    const offline = await runOnce(spoolDir, false);
    expect(offline?.ranges[0].snmp).toEqual({ version: '2c', community: COMMUNITY });
    expect(offline?.queues?.[0].password).toBe(PASSWORD);
  });

  it('seals a config an older release kept in clear at the next start', { timeout: 60_000 }, async () => {
    const spoolDir = mkdtempSync(join(tmpdir(), 'pw-spool-'));
    dirs.push(spoolDir);
    writeFileSync(join(spoolDir, 'config.json'), JSON.stringify(config));
    expect((await runOnce(spoolDir, false))?.queues?.[0].password).toBe(PASSWORD);
    expect(spoolBytes(spoolDir)).not.toContain(PASSWORD);
  });
});
