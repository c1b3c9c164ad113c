import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AgentUpdateOffer } from '@pagewatch/contracts/agent-api';
import { rolledBackMarker } from './pending-update.ts';
import { signRelease } from './release.ts';
import { createUpdater } from './updater.ts';

/** What the updater takes and what it leaves alone (the whole update runs in apps/agent/test/agent-build.test.ts). */
const dir = mkdtempSync(join(tmpdir(), 'pagewatch-updater-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const key = generateKeyPairSync('ed25519');
const offerOf = (version: string): AgentUpdateOffer => {
  const file = { platform: 'linux-x64' as const, name: 'pagewatch-agent-linux-x64', size: 10, sha256: 'a'.repeat(64) };
  return { ...signRelease({ version, files: [file] }, key.privateKey), version, platform: 'linux-x64', size: 10, sha256: file.sha256 };
};

function updater() {
  const calls = { downloads: 0, reports: [] as string[], restarts: 0 };
  const u = createUpdater({
    executable: join(dir, 'agent'), stateDir: dir, version: '44.0.1', log: () => undefined,
    download: async () => {
      calls.downloads++;
    },
    report: (version, error) => void calls.reports.push(`${version}: ${error}`),
    restart: async () => {
      calls.restarts++;
    },
  });
  return { u, calls };
}
const settle = () => new Promise((r) => setTimeout(r, 50));

describe('the agent updater', () => {
  it('never installs its own version or an older one, however well signed (no downgrade)', async () => {
    const { u, calls } = updater();
    u.offered(offerOf('44.0.1'));
    u.offered(offerOf('44.0.0'));
    await settle();
    expect(calls).toEqual({ downloads: 0, reports: [], restarts: 0 });
    u.close();
  });

  it('refuses a newer release it cannot check (this agent was run from source: no release key) once, and tells the server', async () => {
    const { u, calls } = updater();
    u.offered(offerOf('44.0.2'));
    await settle();
    u.offered(offerOf('44.0.2'));
    await settle();
    expect(calls).toEqual({ downloads: 0, reports: ['44.0.2: this agent was built without a release key'], restarts: 0 });
    u.close();
  });

  it('tells the server at its first check-in why the previous version was put back, and does not take that release again', async () => {
    const reason = 'version 44.0.2 stopped 2 times before reaching the server after the update; 44.0.1 was put back';
    writeFileSync(rolledBackMarker(dir), JSON.stringify({ from: '44.0.1', to: '44.0.2', at: '2026-11-27T05:00:00.000Z', starts: 2, reason }));
    const { u, calls } = updater();
    u.checkedIn();
    u.checkedIn();
    u.offered(offerOf('44.0.2'));
    await settle();
    expect(calls).toEqual({ downloads: 0, reports: [`44.0.2: ${reason}`], restarts: 0 });
    u.close();
  });
});
