import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { addDays } from '@pagewatch/contracts/licenses';
import { bearer, createTestApp, signedInAs, signIn, testApp } from '../../test/test-app.ts';
import { addLocation } from '../../test/scope-fixture.ts';
import { generateIssuerKeys, signLicense } from './license-signature.ts';
import { localToday } from './license-status.ts';
import { addDevices, termsFor, uploadLicense } from '../../test/license-fixtures.ts';

const issuer = generateIssuerKeys();
const stranger = generateIssuerKeys();
const t = testApp({ licenseIssuerKey: issuer.publicKeyPem });
let instanceId: string;

const get = (url: string, token = t.admin, lang = 'en') => t.app.inject({ url, headers: { ...bearer(token), 'accept-language': lang } });
const lic = (over = {}, key = issuer.privateKeyPem) => JSON.stringify(signLicense(termsFor(instanceId, over), key));

beforeAll(async () => {
  instanceId = (await get('/api/instance-license/')).json().instanceId;
});

describe('instance license', () => {
  it('every route needs a session (401)', async () => {
    for (const [method, url] of [['GET', '/api/instance-license/'], ['GET', '/api/instance-license/request/?companyName=A'], ['POST', '/api/instance-license']] as const) {
      expect((await t.app.inject({ method, url })).statusCode, url).toBe(401);
    }
  });

  it('without a license: WARNING, said in the caller\'s language', async () => {
    const en = (await get('/api/instance-license/')).json();
    expect(en).toMatchObject({ status: 'WARNING', statusDescription: 'No license is installed', from: null, to: null, counts: { deviceCount: null } });
    expect(en.instanceId).toMatch(/^[0-9a-f-]{36}$/);
    expect((await get('/api/instance-license/', t.admin, 'ru')).json().statusDescription).toBe('Лицензия не установлена');
  });

  it('downloads lic-request.json with the instance id, company, version and counts', async () => {
    const res = await get('/api/instance-license/request/?companyName=Acme%20Ltd');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="lic-request.json"');
    expect(res.json()).toMatchObject({ format: 'pagewatch-license-request/1', instanceId, companyName: 'Acme Ltd', counts: { activeDeviceCount: 0, dbDeviceCount: 0 } });
    expect(res.json().version).toMatch(/\d/);
    const bad = await get('/api/instance-license/request/?companyName=');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].field).toBe('querystring.companyName');
  });

  it('refuses what is not a license, and changes nothing', async () => {
    const cases: [string, string | Buffer, number, string, string?][] = [
      ['a.txt', lic(), 415, 'Only .lic files are accepted'],
      ['a.lic', 'not json', 400, 'The file is not a Pagewatch license'],
      ['a.lic', Buffer.from([0xff, 0xfe, 0x00]), 400, 'The file is not a Pagewatch license'],
      ['a.lic', JSON.stringify({ format: 'pagewatch-license/1', license: '{}' }), 400, 'The file is not a Pagewatch license'],
      ['a.lic', lic({}, stranger.privateKeyPem), 422, 'The license is not signed by the issuer, or it was changed after signing'],
      ['a.lic', lic().replace('\\"deviceCount\\":100', '\\"deviceCount\\":100000'), 422, 'The license is not signed by the issuer, or it was changed after signing'],
      ['a.lic', lic({ instanceId: '00000000-0000-4000-8000-000000000000' }), 422, 'The license is for another instance (00000000-0000-4000-8000-000000000000)'],
      ['a.lic', lic({ dateFrom: '2020-01-01', dateTo: '2020-12-31' }), 422, 'The license ended on 31.12.2020'],
      ['a.lic', Buffer.alloc(70 * 1024, 0x20), 413, 'The file is larger than 64 KB: it is not a license'],
      ['a.lic', lic(), 400, 'Attach the .lic license file', 'otherField'],
    ];
    for (const [name, content, status, message, field] of cases) {
      const res = await uploadLicense(t, t.admin, name, content, field);
      expect(res.statusCode, `${name}: ${res.body}`).toBe(status);
      expect(res.json().details, res.body).toEqual([{ field: 'licenseFile', message }]);
    }
    const res = await t.app.inject({ method: 'POST', url: '/api/instance-license', headers: bearer(t.admin), payload: {} });
    expect(res.statusCode).toBe(400);
    expect((await get('/api/instance-license/')).json()).toMatchObject({ status: 'WARNING', from: null });
  });

  it('accepts a license signed by the issuer; status follows the devices', async () => {
    const res = await uploadLicense(t, t.admin, 'acme.LIC', lic({ deviceCount: 10 }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'OK', companyName: 'Acme Ltd', from: localToday(), to: addDays(localToday(), 365), counts: { deviceCount: 10, activeDeviceCount: 0 } });
    await addDevices(t, 1, 9);
    await addDevices(t, 1, 5, false);
    expect((await get('/api/instance-license/')).json()).toMatchObject({ status: 'WARNING', statusDescription: '9 of 10 licensed devices are in use', counts: { activeDeviceCount: 9, dbDeviceCount: 14 } });
    await addDevices(t, 1, 2);
    expect((await get('/api/instance-license/')).json()).toMatchObject({ status: 'ERROR', statusDescription: '11 devices are serviced; the license covers 10' });
    // A new license replaces it.
    expect((await uploadLicense(t, t.admin, 'acme.lic', lic({ deviceCount: 50, dateTo: addDays(localToday(), 10) }))).statusCode).toBe(200);
    expect((await get('/api/instance-license/')).json()).toMatchObject({ status: 'WARNING', statusDescription: `The license ends on ${addDays(localToday(), 10).split('-').reverse().join('.')} (10 days left)` });
  });

  it('a stored license changed in the database no longer verifies: ERROR', async () => {
    const row = (await t.ctx.db.execute(sql`SELECT document FROM instance_license`)).rows[0] as { document: string };
    await t.ctx.db.execute(sql`UPDATE instance_license SET document = ${row.document.replace('50', '500')}`);
    expect((await get('/api/instance-license/')).json()).toMatchObject({ status: 'ERROR', statusDescription: 'The installed license does not verify against the issuer key' });
    await t.ctx.db.execute(sql`UPDATE instance_license SET document = ${row.document}`);
    expect((await get('/api/instance-license/')).json().status).toBe('WARNING');
  });

  it('is the default administrator\'s: an ADMIN below DEFAULT may not read, request or install', async () => {
    const loc = await addLocation(t.ctx.db, 'LIC_CUSTOMER');
    const other = await signedInAs(t, { login: 'lic-admin', role: 'ADMIN', locationIds: [loc] });
    expect((await get('/api/instance-license/', other)).statusCode).toBe(403);
    expect((await get('/api/instance-license/request/?companyName=X', other)).statusCode).toBe(403);
    expect((await uploadLicense(t, other, 'a.lic', lic())).statusCode).toBe(403);
  });
});

describe('no issuer key configured', () => {
  it('refuses every upload with a clear message', async () => {
    const bare = await createTestApp();
    try {
      const token = await signIn(bare.app);
      const res = await uploadLicense(bare, token, 'a.lic', lic());
      expect(res.statusCode).toBe(422);
      expect(res.json().details).toEqual([{ field: 'licenseFile', message: "The issuer's public key is not configured (PAGEWATCH_LICENSE_KEY)" }]);
    } finally {
      await bare.close();
    }
  });
});
