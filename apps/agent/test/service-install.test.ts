import { execFile, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { LAYOUT } from '../src/service/service-layout.ts';
import { removeDir } from './helpers/processes.ts';

/**
 * `install`, `status` and `uninstall` (issue 44) under a temporary root, without a container: the
 * unit file is checked with `systemd-analyze verify` where systemd is installed.
 */
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const cli = join(repoRoot, 'apps/agent/src/cli.ts');
const root = mkdtempSync(join(tmpdir(), 'pagewatch-install-root-'));
afterAll(() => removeDir(root));

type Run = { code: number; stdout: string; stderr: string };
const agent = (...args: string[]): Promise<Run> =>
  new Promise((done) => {
    execFile(process.execPath, [cli, ...args], (error, stdout, stderr) => {
      done({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
const analyze = spawnSync('systemd-analyze', ['--version'], { stdio: 'ignore' }).status === 0;
if (!analyze) console.warn('service-install.test.ts: systemd-analyze is not installed: the unit file is not verified');

describe('the agent as a service', () => {
  it('install writes the unit, the configuration and a token only its owner reads', async () => {
    const run = await agent('install', '--server', 'https://pagewatch.example.com', '--token', 'secret-token-44', '--root', root);
    expect(run.code, run.stderr).toBe(0);
    const unit = readFileSync(join(root, LAYOUT.unit), 'utf8');
    expect(unit).toContain(`ExecStart=${process.execPath} ${cli} run --config ${LAYOUT.config}`);
    expect(unit).toMatch(/^Restart=always$/m);
    expect(unit).toMatch(/^User=pagewatch-agent$/m);
    expect(readFileSync(join(root, LAYOUT.token), 'utf8').trim()).toBe('secret-token-44');
    expect(statSync(join(root, LAYOUT.token)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(join(root, LAYOUT.config), 'utf8'))).toEqual({ server: 'https://pagewatch.example.com', tokenFile: LAYOUT.token, spoolDir: LAYOUT.stateDir });
    expect(readFileSync(join(root, LAYOUT.config), 'utf8')).not.toContain('secret-token-44');
  });

  it.skipIf(!analyze)('the unit passes systemd-analyze verify', () => {
    // The unit's targets come from the host's systemd; verify looks for ExecStart's program under
    // the root, where an install from source has none (the single-file one is checked in agent-build.test.ts).
    cpSync('/usr/lib/systemd/system', join(root, 'usr/lib/systemd/system'), { recursive: true, verbatimSymlinks: true });
    mkdirSync(join(root, dirname(process.execPath)), { recursive: true });
    copyFileSync('/bin/true', join(root, process.execPath));
    const verify = spawnSync('systemd-analyze', ['verify', '--man=no', `--root=${root}`, join(root, LAYOUT.unit)], { encoding: 'utf8' });
    expect(verify.status, verify.stderr).toBe(0);
    expect(verify.stderr).not.toContain('pagewatch-agent.service');
  });

  it('status shows the version, the server and the last successful run', async () => {
    let run = await agent('status', '--root', root);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^version: +\d+\.\d+\.\d+/m);
    expect(run.stdout).toMatch(/^server: +https:\/\/pagewatch\.example\.com$/m);
    expect(run.stdout).toMatch(/^last run: +none yet$/m);
    writeFileSync(join(root, LAYOUT.stateDir, 'last-run.json'), JSON.stringify({ finishedAt: '2026-11-27T02:00:00.000Z', version: '44.0.0' }));
    run = await agent('status', '--root', root);
    expect(run.stdout).toMatch(/^last run: +2026-11-27T02:00:00.000Z \(version 44.0.0\)$/m);
  });

  it('install refuses a missing token or a server that is not a URL', async () => {
    expect((await agent('install', '--server', 'https://x.example', '--root', root)).stderr).toMatch(/--server and --token are required/);
    const bad = await agent('install', '--server', 'pagewatch', '--token', 't', '--root', root);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--server must be an http\(s\) URL/);
  });

  it('uninstall --help and status --help print their usage and leave the install alone', async () => {
    for (const command of ['uninstall', 'status']) {
      const run = await agent(command, '--help', '--root', root);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toBe(`usage: ${command} [--root DIR]\n--root: the root folder the agent was installed under (packaging, tests).\n`);
    }
    expect(existsSync(join(root, LAYOUT.unit))).toBe(true);
    const bad = await agent('uninstall', '--rot', root);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^uninstall: Unknown option '--rot'/);
  });

  it('uninstall removes the unit, the configuration and the spool', async () => {
    const run = await agent('uninstall', '--root', root);
    expect(run.code, run.stderr).toBe(0);
    for (const path of [LAYOUT.unit, LAYOUT.configDir, LAYOUT.stateDir]) expect(existsSync(join(root, path))).toBe(false);
    expect((await agent('status', '--root', root)).stdout).toBe('pagewatch-agent: not installed\n');
  });
});
