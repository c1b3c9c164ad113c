import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, createUser, signIn, testApp } from '../../test/test-app.ts';
import { addLocation } from '../../test/scope-fixture.ts';

/** The product page's downloads: an ADMIN's (in cloud mode a customer's ADMIN too), from the configured folder only, at most 50. */
const root = mkdtempSync(join(tmpdir(), 'pw-downloads-'));
const dir = join(root, 'files');
mkdirSync(dir);
mkdirSync(join(dir, 'sub'));
writeFileSync(join(root, 'secret.txt'), 'outside the folder');
writeFileSync(join(dir, 'agent setup.msi'), 'installer');
writeFileSync(join(dir, '.hidden'), 'dot file');
for (let i = 0; i < 55; i++) writeFileSync(join(dir, `doc-${String(i).padStart(2, '0')}.pdf`), `document ${i}`);

const t = testApp({ cloud: true, downloadsDir: dir });
let customerAdmin: string;
let operator: string;
beforeAll(async () => {
  const acme = await addLocation(t.ctx.db, 'ACME');
  await createUser(t.app, t.admin, { login: 'boss', role: 'ADMIN', locationIds: [acme] });
  await createUser(t.app, t.admin, { login: 'clerk', role: 'OPERATOR', locationIds: [acme] });
  customerAdmin = await signIn(t.app, 'boss@example.com', 'Passw0rd!');
  operator = await signIn(t.app, 'clerk@example.com', 'Passw0rd!');
});

const get = (url: string, token: string | null, lang = 'en') => t.app.inject({ url, headers: { ...(token ? bearer(token) : {}), 'accept-language': lang } });

describe('downloads (cloud mode)', () => {
  it('lists the first 50 regular files of the folder by name, to an ADMIN of any customer', async () => {
    const res = await get('/api/options/downloads/', customerAdmin);
    expect(res.statusCode, res.body).toBe(200);
    const names = res.json().map((f: { name: string }) => f.name);
    expect(names).toHaveLength(50);
    expect(names[0]).toBe('agent setup.msi');
    expect(names).not.toContain('.hidden');
    expect(names).not.toContain('sub');
    expect(res.json()[0]).toEqual({ name: 'agent setup.msi', size: 9, sha256: null });
  });

  it('serves a file with its name, as an attachment that the browser does not sniff', async () => {
    const res = await get(`/api/options/downloads/${encodeURIComponent('agent setup.msi')}`, t.admin);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('installer');
    expect(res.headers['content-disposition']).toContain("filename*=UTF-8''agent%20setup.msi");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'");
  });

  it('answers a path out of the folder, a folder, a dot file or a file past 50 exactly like a missing file', async () => {
    const missing = await get('/api/options/downloads/nothing.pdf', t.admin);
    expect(missing.statusCode).toBe(404);
    for (const name of ['../secret.txt', '..%2Fsecret.txt', '..', 'sub', '.hidden', 'doc-54.pdf', '%2Fetc%2Fpasswd']) {
      const res = await get(`/api/options/downloads/${name}`, t.admin);
      expect([404], `${name}: ${res.statusCode} ${res.body}`).toContain(res.statusCode);
      if (res.statusCode === 404 && !name.startsWith('..%2F') && name !== '../secret.txt') expect(res.json()).toEqual(missing.json());
    }
  });

  it('refuses an operator (403, in their language), a call without a token (401) and a name with a control character (400)', async () => {
    const res = await get('/api/options/downloads/', operator, 'ru');
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Загрузки доступны администраторам');
    expect((await get('/api/options/downloads/', null)).statusCode).toBe(401);
    expect((await get('/api/options/downloads/doc-01.pdf', null)).statusCode).toBe(401);
    const long = await get('/api/options/downloads/doc%0A01.pdf', t.admin);
    expect(long.statusCode).toBe(400);
    expect(long.json().details[0].field).toBe('params.name');
  });
});

describe('downloads outside cloud mode (issue 44)', () => {
  it('offer the agent builds to an ADMIN with their checksums from SHA256SUMS', async () => {
    const release = mkdtempSync(join(tmpdir(), 'pagewatch-agent-release-'));
    const sum = 'ab'.repeat(32);
    writeFileSync(join(release, 'pagewatch-agent-linux-x64'), 'linux build');
    const sums = `${sum}  pagewatch-agent-linux-x64\n`;
    writeFileSync(join(release, 'SHA256SUMS'), sums);
    const plain = await createTestApp({ downloadsDir: release });
    try {
      const res = await plain.app.inject({ url: '/api/options/downloads/', headers: bearer(await signIn(plain.app)) });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual([{ name: 'pagewatch-agent-linux-x64', size: 11, sha256: sum }, { name: 'SHA256SUMS', size: sums.length, sha256: null }]);
    } finally {
      await plain.close();
      rmSync(release, { recursive: true, force: true });
    }
  });
});
