import { createHash, generateKeyPairSync, sign } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, signIn } from '../../test/test-app.ts';
import { createAgent } from '../ingest/ingest.fixtures.ts';
import { AgentReleaseSource, RELEASE_FILE } from './agent-release.ts';

/**
 * Agent updates from the server (issue 44): the release in the downloads folder is offered at
 * check-in to an agent that reported an older version, its executable is served over the agent's
 * own channel, and an administrator pauses updates for one agent or for all. The agent's side
 * (signature, checksum, swap, roll-back) is apps/agent/test/agent-build.test.ts.
 */
const dir = mkdtempSync(join(tmpdir(), 'pagewatch-release-'));
const linux = Buffer.from('the linux agent, release 44.0.1');
const sha = createHash('sha256').update(linux).digest('hex');
const manifest = JSON.stringify({ version: '44.0.1', files: [{ platform: 'linux-x64', name: 'pagewatch-agent-linux-x64', size: linux.length, sha256: sha }] });
const signature = sign(null, Buffer.from(manifest), generateKeyPairSync('ed25519').privateKey).toString('base64');
writeFileSync(join(dir, 'pagewatch-agent-linux-x64'), linux);
writeFileSync(join(dir, RELEASE_FILE), JSON.stringify({ manifest, signature }));

let t: Awaited<ReturnType<typeof createTestApp>>;
let admin: string;
beforeAll(async () => {
  t = await createTestApp({ downloadsDir: dir });
  admin = await signIn(t.app);
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

const register = async (token: string, version: string, platform = 'linux 6.1.0-44-amd64') => {
  const res = await t.app.inject({ method: 'POST', url: '/api/agent/register', headers: bearer(token), payload: { version, hostname: 'h', platform } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { update?: { version: string; platform: string; sha256: string; size: number; manifest: string; signature: string } | null };
};
const config = async (token: string) => (await t.app.inject({ url: '/api/agent/config', headers: bearer(token) })).json() as { update?: unknown };
const gridRow = async (id: number) =>
  ((await t.app.inject({ url: '/api/agents', headers: bearer(admin) })).json().pageRows as { id: number; updatesPaused: boolean; updateRefusedVersion: string | null }[]).find((r) => r.id === id)!;
const pauseAll = (paused: boolean) => t.app.inject({ method: 'PUT', url: '/api/settings', headers: bearer(admin), payload: [{ code: 'AGENT_UPDATES_PAUSED', flagValue: paused }] });

describe('agent updates offered by the server', () => {
  it('offers the release to an older agent at check-in, signed as built, and serves its executable over the agent channel', async () => {
    const { token } = await createAgent(t.app, admin, { name: 'Old agent' });
    const answer = await register(token, '44.0.0');
    expect(answer.update).toEqual({ version: '44.0.1', platform: 'linux-x64', sha256: sha, size: linux.length, manifest, signature });
    const file = await t.app.inject({ url: '/api/agent/update/linux-x64', headers: bearer(token) });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(linux)).toBe(true);
    // Only the offered platform's build, and to an agent token only.
    expect((await t.app.inject({ url: '/api/agent/update/win-x64', headers: bearer(token) })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/api/agent/update/linux-x64', headers: bearer(admin) })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/agent/update/..%2f..%2fetc', headers: bearer(token) })).statusCode).toBe(400);
    expect((await t.app.inject({ url: '/api/agents/release', headers: bearer(admin) })).json()).toEqual({ version: '44.0.1', paused: false });
  });

  it('offers nothing to an agent on the release or newer, or whose platform has no build', async () => {
    const { token } = await createAgent(t.app, admin, { name: 'Current agent' });
    expect((await register(token, '44.0.1')).update).toBeNull();
    expect((await t.app.inject({ url: '/api/agent/update/linux-x64', headers: bearer(token) })).statusCode).toBe(404);
    expect((await register(token, '44.1.0')).update).toBeNull();
    expect((await register(token, '44.0.0', 'win32 10.0.19045')).update).toBeNull();
  });

  it('pauses the updates of one agent, then of all, and the grid shows it', async () => {
    const { token, agentId } = await createAgent(t.app, admin, { name: 'Paused agent' });
    const other = await createAgent(t.app, admin, { name: 'Other agent' });
    await register(token, '44.0.0');
    await register(other.token, '44.0.0');
    const paused = await t.app.inject({ method: 'PUT', url: `/api/agents/${agentId}/updates`, headers: bearer(admin), payload: { paused: true } });
    expect(paused.statusCode, paused.body).toBe(200);
    expect((await config(token)).update).toBeNull();
    expect((await t.app.inject({ url: '/api/agent/update/linux-x64', headers: bearer(token) })).statusCode).toBe(404);
    expect((await gridRow(agentId)).updatesPaused).toBe(true);
    expect(paused.json().updatesPaused).toBe(true);
    expect((await config(other.token)).update).not.toBeNull();

    expect((await pauseAll(true)).statusCode).toBe(200);
    expect((await config(other.token)).update).toBeNull();
    expect((await t.app.inject({ url: '/api/agents/release', headers: bearer(admin) })).json()).toEqual({ version: '44.0.1', paused: true });
    expect((await pauseAll(false)).statusCode).toBe(200);
    expect((await config(other.token)).update).not.toBeNull();

    await t.app.inject({ method: 'PUT', url: `/api/agents/${agentId}/updates`, headers: bearer(admin), payload: { paused: false } });
    expect((await config(token)).update).not.toBeNull();
  });

  it('refuses a pause without its flag, in the caller\'s language', async () => {
    const { agentId } = await createAgent(t.app, admin, { name: 'Bad pause' });
    for (const lang of ['en', 'ru']) {
      const res = await t.app.inject({ method: 'PUT', url: `/api/agents/${agentId}/updates`, headers: { ...bearer(admin), 'accept-language': lang }, payload: { paused: 'yes' } });
      expect(res.statusCode).toBe(400);
      expect(res.json().fields?.[0]?.field ?? res.body).toContain('paused');
    }
  });

  it('keeps a refused release from being offered again, and shows it in the grid', async () => {
    const { token, agentId } = await createAgent(t.app, admin, { name: 'Refusing agent' });
    await register(token, '44.0.0');
    const refused = await t.app.inject({ method: 'POST', url: '/api/agent/update/refused', headers: bearer(token), payload: { version: '44.0.1', error: 'the release signature does not match the release key' } });
    expect(refused.statusCode, refused.body).toBe(204);
    expect((await config(token)).update).toBeNull();
    expect((await gridRow(agentId)).updateRefusedVersion).toBe('44.0.1');
    const agent = (await t.app.inject({ url: `/api/agents/${agentId}`, headers: bearer(admin) })).json();
    expect(agent.updateRefused).toEqual({ version: '44.0.1', reason: 'the release signature does not match the release key' });
    const tooLong = await t.app.inject({ method: 'POST', url: '/api/agent/update/refused', headers: bearer(token), payload: { version: '4'.repeat(51), error: 'x' } });
    expect(tooLong.statusCode).toBe(400);
  });
});

describe('a release manifest\'s file names (issue 52, finding 7)', () => {
  it('offers no release whose file name is not a plain name in the downloads folder', () => {
    const folder = mkdtempSync(join(tmpdir(), 'pagewatch-release-names-'));
    try {
      const source = new AgentReleaseSource(join(folder, 'downloads'));
      mkdirSync(join(folder, 'downloads'));
      writeFileSync(join(folder, 'outside'), linux);
      for (const name of ['..', '.', '', '../outside', 'a/b', 'a\\b', '/etc/passwd', 'a\u0000b', 'C:outside']) {
        const named = JSON.stringify({ version: '44.0.2', files: [{ platform: 'linux-x64', name, size: linux.length, sha256: sha }] });
        writeFileSync(join(folder, 'downloads', RELEASE_FILE), JSON.stringify({ manifest: named, signature }));
        utimesSync(join(folder, 'downloads', RELEASE_FILE), new Date(), new Date(Date.now() + name.length * 1000 + 1000));
        expect(source.current(), JSON.stringify(name)).toBeNull();
        expect(source.file('linux-x64'), JSON.stringify(name)).toBeNull();
      }
      const plain = JSON.stringify({ version: '44.0.2', files: [{ platform: 'linux-x64', name: 'pagewatch-agent-linux-x64', size: linux.length, sha256: sha }] });
      writeFileSync(join(folder, 'downloads', RELEASE_FILE), JSON.stringify({ manifest: plain, signature }));
      utimesSync(join(folder, 'downloads', RELEASE_FILE), new Date(), new Date(Date.now() + 60_000));
      expect(source.current()?.parsed.version).toBe('44.0.2');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
