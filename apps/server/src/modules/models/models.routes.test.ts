import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bearer, createUser, signIn, testApp } from '../../test/test-app.ts';
import { createAgent } from '../ingest/ingest.fixtures.ts';
import { BUNDLED_PACK_PATH, ModelsService } from './models.service.ts';

const t = testApp();
const bundled = JSON.parse(readFileSync(BUNDLED_PACK_PATH, 'utf8'));

function multipart(fields: Record<string, string>, file: { name: string; content: string } | null) {
  const boundary = '----pagewatch-test';
  const parts = Object.entries(fields).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  if (file) parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="pack.json"\r\nContent-Type: application/json\r\n\r\n${file.content}\r\n`);
  return { payload: `${parts.join('')}--${boundary}--\r\n`, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
const upload = (fields: Record<string, string>, content: string | null, token = t.admin) => {
  const m = multipart(fields, content === null ? null : { name: 'version', content });
  return t.app.inject({ method: 'POST', url: '/api/versions/upload', headers: { ...bearer(token), ...m.headers }, payload: m.payload });
};

describe('models pack', () => {
  it('starts with the bundled pack and shows its version', async () => {
    const v = await t.app.inject({ url: '/api/options/build-version/', headers: bearer(t.admin) });
    expect(v.json().modelsVersion).toEqual({ versionNumber: String(bundled.version) });
  });

  it('refuses uploads while no secret is configured', async () => {
    const res = await upload({ secretKey: 'anything' }, JSON.stringify({ ...bundled, version: 99 }));
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(/PAGEWATCH_MODELS_SECRET/);
  });

  it('checks the key, the pack and its version, then serves it to agents', async () => {
    t.ctx.models = new ModelsService(t.ctx.db, t.ctx.eventLog, 'pack-secret');
    expect((await upload({ secretKey: 'wrong' }, JSON.stringify({ ...bundled, version: 5 }))).json().message).toMatch(/secret key/);
    // The pack is instance-wide (security.md, invariant 2): the key alone is not enough, the caller
    // must be the default administrator; an operator holding MNU_VERSIONS.READ and the key is refused.
    const home = (await t.app.inject({ url: '/api/user-locations/', headers: bearer(t.admin) })).json().pageRows.find((l: { code: string }) => l.code === 'DEFAULT').id;
    await createUser(t.app, t.admin, { login: 'packop', password: 'Passw0rd!', role: 'OPERATOR', locationIds: [home] });
    const refused = await upload({ secretKey: 'pack-secret' }, JSON.stringify({ ...bundled, version: 5 }), await signIn(t.app, 'packop', 'Passw0rd!'));
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json().message).toMatch(/administrator of the DEFAULT location/);
    const invalid = await upload({ secretKey: 'pack-secret' }, JSON.stringify({ ...bundled, version: 5, profiles: [] }));
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().message).toMatch(/profiles/);
    expect((await upload({ secretKey: 'pack-secret' }, 'not json')).statusCode).toBe(422);
    // Issue 39: a version past the integer column is the pack's fault, named, never a 500.
    const huge = await upload({ secretKey: 'pack-secret' }, JSON.stringify({ ...bundled, version: 2 ** 31 }));
    expect(huge.statusCode, huge.body).toBe(422);
    expect(huge.json().message).toMatch(/version/);
    expect((await upload({ secretKey: 'pack-secret' }, null)).statusCode).toBe(400);
    const same = await upload({ secretKey: 'pack-secret' }, JSON.stringify(bundled));
    expect(same.statusCode).toBe(409);
    expect(same.json().message).toMatch(/not newer/);
    const ok = await upload({ secretKey: 'pack-secret' }, JSON.stringify({ ...bundled, version: bundled.version + 1 }));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().version).toBe(bundled.version + 1);
    const v = await t.app.inject({ url: '/api/options/build-version/', headers: bearer(t.admin) });
    expect(v.json().modelsVersion.versionNumber).toBe(String(bundled.version + 1));
    const { token } = await createAgent(t.app, t.admin);
    expect((await t.app.inject({ url: '/api/agent/models-pack', headers: bearer(token) })).json().version).toBe(bundled.version + 1);
    expect((await t.app.inject({ url: '/api/agent/config', headers: bearer(token) })).json().modelsVersion).toBe(bundled.version + 1);
  });
});
