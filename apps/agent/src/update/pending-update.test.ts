import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { markPending, pendingUpdate, previousPath, takeRolledBack } from './pending-update.ts';
import { guardStart, runSpoolDir } from './start-guard.ts';

/**
 * The start count of an unconfirmed update (a build that crashes after the swap, before its first
 * check-in); the whole path with real builds is in apps/agent/test/agent-build.test.ts.
 */
const dir = mkdtempSync(join(tmpdir(), 'pagewatch-start-guard-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An install just swapped from 44.0.0 to 44.0.1: the executables are stand-in files saying which they are. */
function swapped(name: string): { executable: string; spool: string } {
  const home = join(dir, name);
  const spool = join(home, 'spool');
  mkdirSync(spool, { recursive: true });
  const executable = join(home, 'pagewatch-agent');
  writeFileSync(executable, 'new 44.0.1');
  writeFileSync(previousPath(executable), 'old 44.0.0');
  markPending(spool, { from: '44.0.0', to: '44.0.1', at: '2026-11-27T05:00:00.000Z' });
  return { executable, spool };
}
const run = (spool: string): string[] => ['run', '--server', 'https://pw.example', '--token', 't', '--spool-dir', spool];

describe('the start guard of an updated agent', () => {
  it('counts the starts of the new version and puts the previous one back at the third, telling why', () => {
    const { executable, spool } = swapped('crashes');
    expect(guardStart(run(spool), executable, '44.0.1')).toBe(false);
    expect(pendingUpdate(spool)?.starts).toBe(1);
    expect(guardStart(run(spool), executable, '44.0.1')).toBe(false);
    expect(pendingUpdate(spool)?.starts).toBe(2);
    expect(readFileSync(executable, 'utf8')).toBe('new 44.0.1');
    expect(guardStart(run(spool), executable, '44.0.1')).toBe(true);
    expect(readFileSync(executable, 'utf8')).toBe('old 44.0.0');
    expect(existsSync(previousPath(executable))).toBe(false);
    expect(pendingUpdate(spool)).toBeNull();
    expect(takeRolledBack(spool)).toMatchObject({
      from: '44.0.0', to: '44.0.1', reason: 'version 44.0.1 stopped 2 times before reaching the server after the update; 44.0.0 was put back',
    });
    // The previous version starts with nothing left to count.
    expect(guardStart(run(spool), executable, '44.0.0')).toBe(false);
  });

  it('leaves a start alone that is not the pending version, not `run`, or `run --once`', () => {
    const { executable, spool } = swapped('other');
    expect(guardStart(run(spool), executable, '44.0.0')).toBe(false);
    expect(guardStart(['version'], executable, '44.0.1')).toBe(false);
    expect(guardStart([...run(spool), '--once'], executable, '44.0.1')).toBe(false);
    expect(pendingUpdate(spool)?.starts).toBeUndefined();
  });

  it('finds the spool of an installed service in its --config file', () => {
    const config = join(dir, 'agent.json');
    writeFileSync(config, JSON.stringify({ server: 'https://pw.example', tokenFile: '/etc/pagewatch-agent/token', spoolDir: '/var/lib/pagewatch-agent' }));
    expect(runSpoolDir(['run', '--config', config])).toBe('/var/lib/pagewatch-agent');
    expect(runSpoolDir(['run', '--config', join(dir, 'missing.json')])).toBeNull();
    expect(runSpoolDir(['run', '--server', 'https://pw.example'])).toBe('agent-spool');
  });
});
