import { execFile, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentConfig } from '@pagewatch/contracts/agent-api';
import { startFleet } from '@pagewatch/printer-sim/fleet';
import type { Fleet } from '@pagewatch/printer-sim/fleet';
import { startFakeAgentServer } from './helpers/fake-agent-server.ts';
import type { FakeAgentServer } from './helpers/fake-agent-server.ts';
import { removeDir, stopChild } from './helpers/processes.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const cli = join(repoRoot, 'apps/agent/src/cli.ts');
const port = 20_000 + Math.floor(Math.random() * 40_000);
const COUNT = 5;

type Run = { code: number; stdout: string; stderr: string };
const agent = (...args: string[]): Promise<Run> =>
  new Promise((done) => {
    execFile(process.execPath, [cli, ...args], (error, stdout, stderr) => {
      done({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });

let fleet: Fleet;
let server: FakeAgentServer;
const spool = mkdtempSync(join(tmpdir(), 'pagewatch-cli-spool-'));

beforeAll(async () => {
  fleet = await startFleet({ count: COUNT, port, base: '127.0.66.1', seed: 9, speed: 0, randomEvents: false });
  const config: AgentConfig = {
    agentId: 1, name: 'cli', periodicityMinutes: 5, modelsVersion: null,
    ranges: [{ id: 1, type: 'RANGE', address: null, mask: null, from: '127.0.66.1', to: '127.0.66.10', port, snmp: { version: '2c', community: 'public' } }],
  };
  server = await startFakeAgentServer(config);
});
afterAll(async () => {
  await fleet?.stop();
  await server?.close();
  removeDir(spool);
});

describe('agent command line', () => {
  it('scan lists the printers of a range', async () => {
    const run = await agent('scan', '127.0.66.0/28', '--port', String(port), '--timeout', '200', '--retries', '0');
    expect(run.code).toBe(0);
    for (const p of fleet.list()) expect(run.stdout).toContain(p.ip);
    expect(run.stdout).toMatch(/14 addresses scanned in .* 5 SNMP devices, 5 printers/);
  });

  it('scan refuses a bad range in one line', async () => {
    const run = await agent('scan', '127.0.66.0/40');
    expect(run.code).toBe(2);
    expect(run.stderr.split('\n')[0]).toBe('scan: mask /40 is longer than 32 bits');
  });

  it('run --once polls, delivers and exits 0', async () => {
    const run = await agent('run', '--server', server.url, '--token', server.token, '--spool-dir', spool, '--once');
    expect(run.code, run.stderr).toBe(0);
    expect(server.readings.size).toBe(COUNT);
    expect(server.statuses.at(-1)).toBe('STOPPED');
  });

  it('run needs a server and a token', async () => {
    const run = await agent('run', '--server', server.url);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--server and --token are required/);
  });

  it('run stops cleanly on SIGTERM: STOPPING, then STOPPED', async () => {
    server.statuses.length = 0;
    const child = spawn(process.execPath, [cli, 'run', '--server', server.url, '--token', server.token, '--spool-dir', spool], { stdio: 'ignore' });
    try {
      const deadline = Date.now() + 20_000;
      while (!server.statuses.includes('IDLE') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const exited = new Promise<number | null>((r) => child.once('exit', r));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(server.statuses.slice(-2)).toEqual(['STOPPING', 'STOPPED']);
    } finally {
      await stopChild(child);
    }
  });
});
