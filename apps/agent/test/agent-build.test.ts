import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentConfig, AgentUpdateOffer } from '@pagewatch/contracts/agent-api';
import { startFleet } from '@pagewatch/printer-sim/fleet';
import type { Fleet } from '@pagewatch/printer-sim/fleet';
import { buildAgent, EXECUTABLE_NAMES } from '../scripts/build-agent.ts';
import type { BuiltRelease } from '../scripts/build-agent.ts';
import { LAYOUT } from '../src/service/service-layout.ts';
import { sha256, signRelease } from '../src/update/release.ts';
import { startFakeAgentServer } from './helpers/fake-agent-server.ts';
import type { FakeAgentServer } from './helpers/fake-agent-server.ts';
import { removeDir, stopChild } from './helpers/processes.ts';

/**
 * The single-file agent (issue 44), built here as a release would be: release N-1 polls the
 * simulated printers and delivers, then updates itself to release N from its server; a corrupted
 * or unsigned release is refused and N-1 keeps running. Two Linux builds, once for the file.
 */
function cannotBuild(): string | null {
  if (process.platform !== 'linux' || process.arch !== 'x64') return `the single-file agent is built on Linux x64, not ${process.platform} ${process.arch}`;
  const require = createRequire(import.meta.url);
  for (const tool of ['esbuild', 'postject']) {
    try {
      require.resolve(tool);
    } catch {
      return `${tool} is not installed (npm ci installs it)`;
    }
  }
  return null;
}
const skip = cannotBuild();
if (skip) console.warn(`agent-build.test.ts skipped: ${skip}`);

const OLD = '44.0.0';
const NEW = '44.0.1';
const COUNT = 3;
const port = 20_000 + Math.floor(Math.random() * 40_000);
const work = mkdtempSync(join(tmpdir(), 'pagewatch-agent-build-test-'));
const keys = generateKeyPairSync('ed25519');
let newBuild: BuiltRelease;
let fleet: Fleet;
const servers: FakeAgentServer[] = [];
const children: ChildProcess[] = [];

const oldExe = (): string => join(work, 'old', EXECUTABLE_NAMES['linux-x64']);
const newExe = (): string => join(work, 'new', EXECUTABLE_NAMES['linux-x64']);

async function server(): Promise<FakeAgentServer> {
  const config: AgentConfig = {
    agentId: 1, name: 'single file', periodicityMinutes: 1, modelsVersion: null,
    ranges: [{ id: 1, type: 'RANGE', address: null, mask: null, from: '127.0.67.1', to: '127.0.67.3', port, snmp: { version: '2c', community: 'public' } }],
  };
  const s = await startFakeAgentServer(config, `token-${servers.length}`);
  servers.push(s);
  return s;
}

type StartedAgent = { child: ChildProcess; exe: string; log: () => string; starts: () => number };

/**
 * A copy of release N-1 in its own folder (an update replaces it), started as `run --server
 * --token`; `supervised` starts it again whenever it fails, as systemd's Restart= does.
 */
function startOld(s: FakeAgentServer, name: string, env: NodeJS.ProcessEnv = {}, supervised = false): StartedAgent {
  const dir = join(work, name);
  const exe = join(dir, 'pagewatch-agent');
  mkdirSync(dir); // fails loudly on a reused name
  copyFileSync(oldExe(), exe);
  let log = '';
  let starts = 0;
  const start = (): ChildProcess => {
    starts++;
    const child = spawn(exe, ['run', '--server', s.url, '--token', s.token, '--spool-dir', join(dir, 'spool')], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } });
    children.push(child);
    child.stderr!.on('data', (chunk: Buffer) => {
      log += chunk.toString();
    });
    if (supervised) {
      child.once('exit', (code) => {
        if (code !== null && code !== 0) agent.child = start();
      });
    }
    return child;
  };
  const agent: StartedAgent = { child: start(), exe, log: () => log, starts: () => starts };
  return agent;
}

async function until(what: string, done: () => boolean, log: () => string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; agent log:\n${log()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const offer = (build: BuiltRelease, over: Partial<AgentUpdateOffer> = {}): AgentUpdateOffer => {
  const file = build.manifest.files.find((f) => f.platform === 'linux-x64')!;
  return { ...build.release, version: build.manifest.version, platform: 'linux-x64', sha256: file.sha256, size: file.size, ...over };
};

describe.skipIf(skip !== null)('the single-file agent', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    const pem = keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    fleet = await startFleet({ count: COUNT, port, base: '127.0.67.1', seed: 44, speed: 0, randomEvents: false });
    // Both releases at once: a build waits on esbuild, the blob and the copy of Node in turn.
    [, newBuild] = await Promise.all([
      buildAgent({ out: join(work, 'old'), version: OLD, releaseKeyPem: pem, platforms: ['linux-x64'] }),
      buildAgent({ out: join(work, 'new'), version: NEW, releaseKeyPem: pem, platforms: ['linux-x64'] }),
    ]);
  }, 300_000);
  afterAll(async () => {
    for (const child of children) await stopChild(child);
    for (const s of servers) await s.close();
    await fleet?.stop();
    removeDir(work);
  });

  it('is one executable with its checksum and a signed release beside it', () => {
    const sums = readFileSync(join(work, 'new', 'SHA256SUMS'), 'utf8');
    expect(sums).toBe(`${sha256(readFileSync(newExe()))}  ${EXECUTABLE_NAMES['linux-x64']}\n`);
    expect(newBuild.release.signature).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(JSON.parse(newBuild.release.manifest)).toMatchObject({ version: NEW, files: [{ platform: 'linux-x64', name: EXECUTABLE_NAMES['linux-x64'] }] });
  });

  it('installs itself as a systemd service whose unit systemd-analyze accepts', async (ctx) => {
    if (spawnSync('systemd-analyze', ['--version'], { stdio: 'ignore' }).status !== 0) return ctx.skip('systemd-analyze is not installed');
    const root = join(work, 'root');
    const install = spawnSync(newExe(), ['install', '--server', 'http://127.0.0.1:1', '--token', 't-44', '--root', root], { encoding: 'utf8' });
    expect(install.status, install.stderr).toBe(0);
    expect(sha256(readFileSync(join(root, LAYOUT.executable)))).toBe(sha256(readFileSync(newExe())));
    expect(readFileSync(join(root, LAYOUT.unit), 'utf8')).toContain(`ExecStart=${LAYOUT.executable} run --config ${LAYOUT.config}`);
    cpSync('/usr/lib/systemd/system', join(root, 'usr/lib/systemd/system'), { recursive: true, verbatimSymlinks: true });
    const verify = spawnSync('systemd-analyze', ['verify', '--man=no', `--root=${root}`, join(root, LAYOUT.unit)], { encoding: 'utf8' });
    expect(verify.status, verify.stderr).toBe(0);
    expect(verify.stderr).not.toContain('pagewatch-agent.service');
    const status = spawnSync(newExe(), ['status', '--root', root], { encoding: 'utf8' });
    expect(status.stdout).toMatch(new RegExp(`^version: +${NEW.replaceAll('.', '\\.')}$`, 'm'));
  });

  it('started with --server and --token, polls the simulated printers and delivers their readings', async () => {
    const s = await server();
    const agent = startOld(s, 'delivers');
    await until(`${COUNT} readings`, () => s.readings.size >= COUNT, agent.log);
    expect(s.versions).toEqual([OLD]);
    expect([...s.readings.values()].map((r) => r.ip).sort()).toEqual(fleet.list().map((p) => p.ip).sort());
  });

  it('updates itself from N-1 to N from its server: same process, N checks in and delivers, N-1 kept as .previous', async () => {
    const s = await server();
    s.config.update = offer(newBuild);
    s.updateFile = newExe();
    const agent = startOld(s, 'updates');
    await until(`version ${NEW} to check in`, () => s.versions.includes(NEW), agent.log);
    expect(agent.child.exitCode).toBeNull(); // execve: the pid a service manager watches is the same
    expect(sha256(readFileSync(agent.exe))).toBe(sha256(readFileSync(newExe())));
    expect(sha256(readFileSync(`${agent.exe}.previous`))).toBe(sha256(readFileSync(oldExe())));
    expect(existsSync(join(work, 'updates', 'spool', 'update-pending.json'))).toBe(false); // confirmed by the check-in
    s.config.update = null; // what the server answers once the agent reports N
    const before = s.readings.size;
    await until('readings from N', () => s.readings.size >= before + COUNT || (before === 0 && s.readings.size >= COUNT), agent.log);
    expect(agent.log()).toContain(`update to ${NEW} confirmed`);
  });

  it('puts N-1 back when N does not reach the server in time, tells the server, and does not take N again', async () => {
    const s = await server();
    s.config.update = offer(newBuild);
    s.updateFile = newExe();
    s.downAfterUpdate = true;
    const agent = startOld(s, 'rolls-back', { PAGEWATCH_AGENT_UPDATE_HEALTH_SECONDS: '3' });
    await until('the roll-back', () => agent.log().includes('going back to'), agent.log);
    s.down = false;
    await until('the report of the roll-back', () => s.refusedUpdates.length > 0, agent.log);
    expect(s.refusedUpdates[0]).toEqual({ version: NEW, error: `version ${NEW} did not reach the server within 3 s of the update; ${OLD} was put back` });
    expect(sha256(readFileSync(agent.exe))).toBe(sha256(readFileSync(oldExe())));
    await until('N-1 to check in again', () => s.versions.at(-1) === OLD && s.versions.length >= 2, agent.log);
    expect(s.versions).not.toContain(NEW);
    expect(agent.child.exitCode).toBeNull();
  });

  it('puts N-1 back at the third start when N crashes after the swap before reaching the server, and tells the server', async () => {
    // N answers `version` (the self-test) but crashes at its first request: a preload that breaks
    // fetch while `.previous` is beside the executable, i.e. only in the updated agent.
    const crash = join(work, 'crash-after-swap.cjs');
    writeFileSync(crash, `if (require('node:fs').existsSync(process.execPath + '.previous')) {
  globalThis.fetch = () => { process.nextTick(() => { throw new Error('the new build crashes'); }); return new Promise(() => {}); };
}\n`);
    const s = await server();
    s.config.update = offer(newBuild);
    s.updateFile = newExe();
    // The health watchdog is far away: what rolls back is the count of starts.
    const agent = startOld(s, 'crash-loop', { NODE_OPTIONS: `--require ${crash}`, PAGEWATCH_AGENT_UPDATE_HEALTH_SECONDS: '600' }, true);
    await until('the report of the roll-back', () => s.refusedUpdates.length > 0, agent.log);
    expect(s.refusedUpdates[0]).toEqual({ version: NEW, error: `version ${NEW} stopped 2 times before reaching the server after the update; ${OLD} was put back` });
    expect(sha256(readFileSync(agent.exe))).toBe(sha256(readFileSync(oldExe())));
    expect(existsSync(`${agent.exe}.previous`)).toBe(false);
    expect(agent.log()).toContain('the new build crashes');
    // N-1, its first start and the two crashed starts of N; the third start of N went back to N-1 in the same process.
    expect(agent.starts()).toBe(3);
    expect(s.versions).not.toContain(NEW);
    await until('N-1 to check in again', () => s.versions.length >= 2, agent.log);
    expect(s.versions.every((v) => v === OLD)).toBe(true);
    expect(agent.child.exitCode).toBeNull();
  });

  it('refuses a corrupted download: N-1 keeps running and tells the server', async () => {
    const s = await server();
    const corrupted = join(work, 'corrupted');
    const data = readFileSync(newExe());
    data[data.length >> 1] ^= 0xff;
    writeFileSync(corrupted, data);
    s.config.update = offer(newBuild);
    s.updateFile = corrupted;
    const agent = startOld(s, 'corrupted-run');
    await until('the refusal', () => s.refusedUpdates.length > 0, agent.log);
    expect(s.refusedUpdates[0]).toEqual({ version: NEW, error: 'the downloaded file does not match the signed checksum' });
    await until('readings from N-1', () => s.readings.size >= COUNT, agent.log);
    expect(agent.child.exitCode).toBeNull();
    expect(s.versions).toEqual([OLD]);
    expect(sha256(readFileSync(agent.exe))).toBe(sha256(readFileSync(oldExe())));
  });

  it('refuses an unsigned release and one signed with another key', async () => {
    const other = generateKeyPairSync('ed25519');
    for (const [name, release, error] of [
      ['unsigned', { ...newBuild.release, signature: null }, 'the release is not signed'],
      ['foreign', signRelease(newBuild.manifest, other.privateKey), 'the release signature does not match the release key'],
    ] as const) {
      const s = await server();
      s.config.update = offer(newBuild, release);
      s.updateFile = newExe();
      const agent = startOld(s, name);
      await until(`the refusal of the ${name} release`, () => s.refusedUpdates.length > 0, agent.log);
      expect(s.refusedUpdates[0]).toEqual({ version: NEW, error });
      expect(agent.child.exitCode).toBeNull();
      expect(sha256(readFileSync(agent.exe))).toBe(sha256(readFileSync(oldExe())));
    }
  });
});
