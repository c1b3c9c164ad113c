import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SnmpClient } from '../../src/snmp/snmp-client.ts';
import { removeDir, stopChild } from './processes.ts';

/** A running snmpsimd on 127.0.0.1 serving `<community>.snmprec` files from `dataDir`. */
export type Snmpsim = { port: number; dataDir: string; stop(): Promise<void> };

export function snmpsimAvailable(): boolean {
  // snmpsimd --version exits 255, so only check that it can be started.
  return spawnSync('snmpsimd', ['--version'], { stdio: 'ignore' }).error === undefined;
}

/** A fresh temp dir with a `data` dir readable and a `cache` dir writable by snmpsimd's user. */
export function makeSimDirs(): { root: string; dataDir: string; cacheDir: string } {
  const root = mkdtempSync(join(tmpdir(), 'pagewatch-snmpsim-'));
  const dataDir = join(root, 'data');
  const cacheDir = join(root, 'cache');
  mkdirSync(dataDir);
  mkdirSync(cacheDir);
  chmodSync(root, 0o755);
  chmodSync(dataDir, 0o755);
  chmodSync(cacheDir, 0o777);
  return { root, dataDir, cacheDir };
}

const randomPort = (): number => 20000 + Math.floor(Math.random() * 40000);

async function answers(port: number, community: string): Promise<boolean> {
  const client = new SnmpClient({ host: '127.0.0.1', port, community, timeoutMs: 300, retries: 0 });
  try {
    return (await client.get(['1.3.6.1.2.1.1.1.0'])).length > 0;
  } catch {
    return false;
  } finally {
    client.close();
  }
}

/**
 * Starts snmpsimd on a random free UDP port and waits until it answers for `probeCommunity`
 * (its file must exist in dataDir). Retries another port if the first one is taken.
 */
export async function startSnmpsim(dirs: { root: string; dataDir: string; cacheDir: string }, probeCommunity: string): Promise<Snmpsim> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = randomPort();
    const args = [
      `--data-dir=${dirs.dataDir}`,
      `--cache-dir=${dirs.cacheDir}`,
      `--agent-udpv4-endpoint=127.0.0.1:${port}`,
      '--logging-method=null',
    ];
    if (process.getuid?.() === 0) args.push('--process-user=nobody', '--process-group=nogroup');
    const child: ChildProcess = spawn('snmpsimd', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let exited = false;
    child.on('exit', () => {
      exited = true;
    });
    child.stderr?.resume();
    const deadline = Date.now() + 60_000;
    while (!exited && Date.now() < deadline) {
      if (await answers(port, probeCommunity)) {
        return {
          port,
          dataDir: dirs.dataDir,
          stop: () => stopProcess(child, dirs.root),
        };
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    await stopProcess(child, null);
  }
  throw new Error('snmpsimd did not start');
}

/** snmpsimd serving one device: `snmprec` as `<community>.snmprec` in fresh folders. */
export async function serveSnmprec(community: string, snmprec: string): Promise<Snmpsim> {
  const dirs = makeSimDirs();
  const file = join(dirs.dataDir, `${community}.snmprec`);
  writeFileSync(file, `${snmprec}\n`);
  chmodSync(file, 0o644);
  return startSnmpsim(dirs, community);
}

async function stopProcess(child: ChildProcess, rootToRemove: string | null): Promise<void> {
  await stopChild(child);
  removeDir(rootToRemove);
}
