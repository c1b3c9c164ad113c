import { beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '@pagewatch/contracts/licenses';
import { bearer, signedInAs, testApp } from '../../test/test-app.ts';
import { addLocation } from '../../test/scope-fixture.ts';
import { generateIssuerKeys, signLicense } from './license-signature.ts';
import { localToday } from './license-status.ts';
import { addDevices, termsFor, uploadLicense } from '../../test/license-fixtures.ts';

const issuer = generateIssuerKeys();
const t = testApp({ licenseIssuerKey: issuer.publicKeyPem });
/** An ADMIN of CUSTOMER_A (and its child), below DEFAULT. */
let customerAdmin: string;
const loc = { A: 0, A1: 0, B: 0 };
const today = localToday();
const shown = (d: string) => d.split('-').reverse().join('.');

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, token = t.admin) =>
  t.app.inject({ method, url, payload, headers: bearer(token) });
const input = (locationId: number, over = {}) => ({ location: { id: locationId }, dateFrom: shown(today), dateTo: shown(addDays(today, 30)), deviceCount: 5, ...over });

beforeAll(async () => {
  loc.A = await addLocation(t.ctx.db, 'CUSTOMER_A');
  loc.A1 = await addLocation(t.ctx.db, 'CUSTOMER_A1', 'CUSTOMER_A');
  loc.B = await addLocation(t.ctx.db, 'CUSTOMER_B');
  customerAdmin = await signedInAs(t, { login: 'cust-admin', role: 'ADMIN', locationIds: [loc.A] });
  await addDevices(t, loc.A, 2);
  await addDevices(t, loc.A1, 1);
  await addDevices(t, loc.A1, 3, false);
});

describe('per-location licenses', () => {
  it('every route needs a session (401)', async () => {
    for (const [method, url] of [
      ['GET', '/api/user-licenses/page'], ['GET', '/api/user-licenses/1'], ['GET', '/api/user-licenses-relevant/'],
      ['GET', '/api/user-locations/managed-license'], ['GET', '/api/location-devices-v/1'],
      ['POST', '/api/licenses'], ['PUT', '/api/licenses/1'], ['DELETE', '/api/licenses/1'],
    ] as const) {
      expect((await t.app.inject({ method, url })).statusCode, url).toBe(401);
    }
  });

  it('counts the devices of a location and those below it', async () => {
    expect((await call('GET', `/api/location-devices-v/${loc.A}`)).json()).toEqual({ activeDeviceCount: 3, allDeviceCount: 6 });
    expect((await call('GET', `/api/location-devices-v/${loc.A1}`)).json()).toEqual({ activeDeviceCount: 1, allDeviceCount: 4 });
    expect((await call('GET', '/api/location-devices-v/999999')).statusCode).toBe(404);
    expect((await call('GET', '/api/location-devices-v/x')).statusCode).toBe(400);
    expect((await call('GET', `/api/location-devices-v/${loc.B}`, undefined, customerAdmin)).statusCode).toBe(403);
  });

  it('refuses bad input with the field: counts below 1, dates reversed or malformed, DEFAULT, a missing location', async () => {
    const cases: [object, string, string][] = [
      [input(loc.A, { deviceCount: 0 }), 'deviceCount', 'A whole number from 1 to 1,000,000'],
      [input(loc.A, { deviceCount: 1_000_001 }), 'deviceCount', 'A whole number from 1 to 1,000,000'],
      [input(loc.A, { deviceCount: 1.5 }), 'deviceCount', 'A whole number from 1 to 1,000,000'],
      [input(loc.A, { dateFrom: shown(addDays(today, 31)) }), 'dateTo', 'The end date is before the start date'],
      [input(loc.A, { dateFrom: '31.02.2026' }), 'dateFrom', 'Enter a date as dd.MM.yyyy'],
      [input(loc.A, { dateTo: 'tomorrow' }), 'dateTo', 'Enter a date as dd.MM.yyyy'],
      [input(1), 'location', 'The DEFAULT location holds the instance license: upload a .lic file instead'],
      [input(999999), 'location', 'Invalid value'],
      [{ dateFrom: shown(today), dateTo: shown(today), deviceCount: 1 }, 'location', 'Required field'],
    ];
    for (const [payload, field, message] of cases) {
      const res = await call('POST', '/api/licenses', payload);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().details, res.body).toContainEqual({ field, message });
    }
    expect((await call('GET', '/api/user-licenses-relevant/')).json().totalRows).toBe(0);
  });

  it('the default admin creates, reads, changes and deletes; one license a location', async () => {
    const created = await call('POST', '/api/licenses', input(loc.A));
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().id;
    expect(created.json()).toMatchObject({
      location: { id: loc.A, code: 'CUSTOMER_A' }, dateFrom: today, dateTo: addDays(today, 30), deviceCount: 5, activeDeviceCount: 3, dbDeviceCount: 6, status: 'OK',
    });
    const again = await call('POST', '/api/licenses', input(loc.A, { dateFrom: today, dateTo: addDays(today, 1) }));
    expect(again.statusCode).toBe(409);
    expect(again.json().details).toEqual([{ field: 'location', message: 'This location already has a license' }]);
    expect((await call('GET', `/api/user-licenses/${id}`)).json()).toMatchObject({ id, deviceCount: 5 });

    const changed = await call('PUT', `/api/licenses/${id}`, input(loc.A, { deviceCount: 3, dateTo: addDays(today, 60) }));
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ deviceCount: 3, dateTo: addDays(today, 60), status: 'WARNING' });
    expect((await call('PUT', `/api/licenses/${id}`, input(loc.A, { deviceCount: -1 }))).statusCode).toBe(400);
    expect((await call('GET', `/api/user-licenses/${id}`)).json().deviceCount).toBe(3);

    expect((await call('DELETE', `/api/licenses/${id}`)).statusCode).toBe(204);
    expect((await call('GET', `/api/user-licenses/${id}`)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/licenses/${id}`)).statusCode).toBe(404);
  });

  it('lists the tree with licenses; DEFAULT shows the instance license', async () => {
    const a = (await call('POST', '/api/licenses', input(loc.A))).json();
    await call('POST', '/api/licenses', input(loc.B, { dateFrom: shown(addDays(today, 5)), dateTo: shown(addDays(today, 9)) }));
    const instanceId = (await call('GET', '/api/instance-license/')).json().instanceId;
    const terms = termsFor(instanceId, { deviceCount: 40 });
    expect((await uploadLicense(t, t.admin, 'x.lic', JSON.stringify(signLicense(terms, issuer.privateKeyPem)))).statusCode).toBe(200);

    const page = await call('GET', '/api/user-licenses/page?page=100,1');
    expect(page.statusCode, page.body).toBe(200);
    const byCode = Object.fromEntries(page.json().pageRows.map((r: { code: string }) => [r.code, r]));
    expect(byCode.DEFAULT).toMatchObject({ parentId: null, licenseId: null, dateFrom: terms.dateFrom, dateTo: terms.dateTo, deviceCount: 40, activeDeviceCount: 3, dbDeviceCount: 6 });
    expect(byCode.CUSTOMER_A).toMatchObject({ id: loc.A, parentId: 1, licenseId: a.id, dateFrom: today, deviceCount: 5, activeDeviceCount: 3, dbDeviceCount: 6 });
    expect(byCode.CUSTOMER_A1).toMatchObject({ parentId: loc.A, licenseId: null, dateFrom: null, deviceCount: null, activeDeviceCount: 1, dbDeviceCount: 4 });

    const filtered = await call('GET', `/api/user-licenses/page?page=100,1&filter-json=${encodeURIComponent(JSON.stringify(['deviceCount', '>=', 5]))}&sort=deviceCount,DESC`);
    expect(filtered.json().pageRows.map((r: { code: string }) => r.code)).toEqual(['DEFAULT', 'CUSTOMER_A', 'CUSTOMER_B']);
    expect((await call('GET', '/api/user-licenses/page?sort=nope,ASC')).statusCode).toBe(400);

    // In force today: A's, not B's (it begins in 5 days).
    expect((await call('GET', '/api/user-licenses-relevant/')).json().pageRows.map((r: { location: { code: string } }) => r.location.code)).toEqual(['CUSTOMER_A']);
    const licensable = (await call('GET', '/api/user-locations/managed-license')).json().pageRows;
    expect(licensable.map((l: { code: string }) => l.code)).not.toContain('DEFAULT');
    expect(licensable.find((l: { code: string }) => l.code === 'CUSTOMER_A').licenseId).toBe(a.id);
  });

  it('a location administrator reads its own locations\' licenses and changes none', async () => {
    const rows = (await call('GET', '/api/user-licenses/page?page=100,1', undefined, customerAdmin)).json().pageRows;
    expect(rows.map((r: { code: string }) => r.code).sort()).toEqual(['CUSTOMER_A', 'CUSTOMER_A1']);
    const mine = rows.find((r: { code: string }) => r.code === 'CUSTOMER_A');
    expect((await call('GET', `/api/user-licenses/${mine.licenseId}`, undefined, customerAdmin)).statusCode).toBe(200);
    const b = (await call('GET', '/api/user-licenses/page?page=100,1')).json().pageRows.find((r: { code: string }) => r.code === 'CUSTOMER_B');
    expect((await call('GET', `/api/user-licenses/${b.licenseId}`, undefined, customerAdmin)).statusCode).toBe(403);
    expect((await call('GET', '/api/user-licenses-relevant/', undefined, customerAdmin)).json().pageRows.map((r: { location: { code: string } }) => r.location.code)).toEqual(['CUSTOMER_A']);
    expect((await call('GET', '/api/user-locations/managed-license', undefined, customerAdmin)).json().pageRows.map((l: { code: string }) => l.code).sort()).toEqual(['CUSTOMER_A', 'CUSTOMER_A1']);

    for (const res of [
      await call('POST', '/api/licenses', input(loc.A1, { deviceCount: 1000 }), customerAdmin),
      await call('PUT', `/api/licenses/${mine.licenseId}`, input(loc.A, { deviceCount: 1000 }), customerAdmin),
      await call('DELETE', `/api/licenses/${mine.licenseId}`, undefined, customerAdmin),
    ]) {
      expect(res.statusCode, res.body).toBe(403);
    }
    expect((await call('GET', `/api/user-licenses/${mine.licenseId}`)).json().deviceCount).toBe(5);
  });

  it('a license goes with its location', async () => {
    const gone = await addLocation(t.ctx.db, 'CUSTOMER_GONE');
    const id = (await call('POST', '/api/licenses', input(gone))).json().id;
    expect((await call('DELETE', `/api/dictionary-items/${gone}`)).statusCode).toBe(204);
    expect((await call('GET', `/api/user-licenses/${id}`)).statusCode).toBe(404);
  });
});
