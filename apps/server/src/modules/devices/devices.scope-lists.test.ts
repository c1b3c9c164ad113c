import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { bearer, createUser, signIn, testApp } from '../../test/test-app.ts';
import { addLocation } from '../../test/scope-fixture.ts';

/**
 * An operator of a few locations reads the devices and consumables lists location by location
 * (runList's scope split), and consumables carry their device's location and model (kept by
 * triggers). Both must give exactly the pages an administrator gets by filtering on the same
 * locations, in every order, on every page.
 */
const t = testApp();
let operator: string;
let locs: number[];

const MODELS = ['LaserJet M404', 'bizhub C300i', null, 'ECOSYS P3145', 'bizhub C300i'];
const TYPES = ['PRINTER', 'MFP'];

beforeAll(async () => {
  locs = [];
  for (const code of ['SPLIT_A', 'SPLIT_B', 'SPLIT_C', 'SPLIT_D']) locs.push(await addLocation(t.ctx.db, code));
  // 80 devices over four locations; models, serials and levels repeat and include NULLs, so
  // that ties and NULL ordering are exercised.
  await t.ctx.db.execute(sql`
    INSERT INTO devices (model_code, serial_number, location_id, ip, device_type, need_attention_flag)
    SELECT (${sql.raw(`ARRAY[${MODELS.map((m) => (m ? `'${m}'` : 'NULL')).join(',')}]::varchar[]`)})[1 + (i * 7) % ${MODELS.length}],
      CASE WHEN i % 9 = 0 THEN NULL ELSE 'SN' || lpad(((i * 37) % 50)::text, 3, '0') END,
      (${sql.raw(`ARRAY[${locs.join(',')}]`)})[1 + (i * 3) % 4], '10.9.' || (i % 5) || '.' || i,
      (${sql.raw(`ARRAY[${TYPES.map((x) => `'${x}'`).join(',')}]`)})[1 + i % 2], i % 4 = 0
    FROM generate_series(1, 80) i`);
  await t.ctx.db.execute(sql`
    INSERT INTO consumables (device_id, supply_index, part_code, part_name, colorant, level, refreshed_at)
    SELECT d.id, k, 'toner', (ARRAY['Black Toner', 'Cyan Toner', 'Drum'])[k], (ARRAY['black', 'cyan', NULL])[k],
      CASE WHEN (d.id + k) % 7 = 0 THEN NULL ELSE (d.id * 13 + k * 29) % 101 END, now()
    FROM devices d CROSS JOIN generate_series(1, 3) k WHERE d.location_id IN (${sql.raw(locs.join(','))}) AND k <= 1 + d.id % 3`);
  await createUser(t.app, t.admin, { login: 'split-op', password: 'Passw0rd!', role: 'OPERATOR', locationIds: locs.slice(0, 3) });
  operator = await signIn(t.app, 'split-op', 'Passw0rd!');
});

async function page(url: string, token: string) {
  const res = await t.app.inject({ url, headers: bearer(token) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { pageRows: Record<string, unknown>[]; totalRows: number };
}

const sortsOf = (sorts: string[]) => sorts.map((s) => `&sort=${encodeURIComponent(s)}`).join('');
const filterOf = (f: unknown) => `filter-json=${encodeURIComponent(JSON.stringify(f))}`;

describe('lists of a scope of a few locations', () => {
  const deviceOrders = [[], ['modelCode,ASC', 'serialNumber,ASC'], ['modelCode,DESC', 'serialNumber,DESC'], ['ip,DESC'], ['serialNumber,ASC', 'deviceType,DESC']];
  it('gives the operator the devices pages the administrator gets for the same locations', async () => {
    for (const sorts of deviceOrders) {
      for (const filter of [null, ['deviceType', 'anyof', ['PRINTER']], ['needAttentionFlag', '=', true]]) {
        for (const n of [1, 2, 3, 9]) {
          const own = filter ? `&${filterOf(filter)}` : '';
          const mine = await page(`/api/devices/page?page=7,${n}${own}${sortsOf(sorts)}`, operator);
          const inScope: unknown[] = ['locationId', 'anyof', locs.slice(0, 3)];
          const theirs = await page(`/api/devices/page?page=7,${n}&${filterOf(filter ? [inScope, 'and', filter] : inScope)}${sortsOf(sorts)}`, t.admin);
          expect(mine.pageRows.map((r) => r.id), `${sorts} ${JSON.stringify(filter)} page ${n}`).toEqual(theirs.pageRows.map((r) => r.id));
          expect(mine.totalRows).toBe(theirs.totalRows);
          // A page past the first (keys first, rows after) is that part of one long first page.
          const whole = await page(`/api/devices/page?page=1000,1&${filterOf(filter ? [inScope, 'and', filter] : inScope)}${sortsOf(sorts)}`, t.admin);
          expect(theirs.pageRows).toEqual(whole.pageRows.slice((n - 1) * 7, n * 7));
        }
      }
    }
    const all = await page('/api/devices/page?page=1000,1', operator);
    expect(all.pageRows.every((r) => locs.slice(0, 3).includes(r.locationId as number))).toBe(true);
    expect(all.totalRows).toBe(60);
  });

  it('gives the operator the consumables pages the administrator gets for the same locations', async () => {
    const orders = [[], ['modelCode,ASC', 'partName,ASC'], ['level,DESC', 'partName,ASC'], ['hostName,ASC', 'level,ASC']];
    for (const sorts of orders) {
      for (const filter of [null, ['level', '<', 50], ['colorant', 'anyof', ['cyan']]]) {
        for (const n of [1, 2, 4]) {
          const own = filter ? `&${filterOf(filter)}` : '';
          const mine = await page(`/api/device-part-v/page?page=9,${n}${own}${sortsOf(sorts)}`, operator);
          const inScope: unknown[] = ['locationId', 'anyof', locs.slice(0, 3)];
          const theirs = await page(`/api/device-part-v/page?page=9,${n}&${filterOf(filter ? [inScope, 'and', filter] : inScope)}${sortsOf(sorts)}`, t.admin);
          expect(mine.pageRows.map((r) => r.id), `${sorts} ${JSON.stringify(filter)} page ${n}`).toEqual(theirs.pageRows.map((r) => r.id));
          expect(mine.totalRows).toBe(theirs.totalRows);
          const whole = await page(`/api/device-part-v/page?page=1000,1&${filterOf(filter ? [inScope, 'and', filter] : inScope)}${sortsOf(sorts)}`, t.admin);
          expect(theirs.pageRows).toEqual(whole.pageRows.slice((n - 1) * 9, n * 9));
        }
      }
    }
  });

  it('moves a device\'s consumables with it to another location and another model', async () => {
    const first = (await page(`/api/device-part-v/page?page=1,1&${filterOf(['locationId', 'anyof', [locs[0]]])}`, t.admin)).pageRows[0];
    const deviceId = first.deviceId as number;
    const put = await t.app.inject({ method: 'PUT', url: `/api/devices/${deviceId}`, headers: bearer(t.admin), payload: { location: { id: locs[3] } } });
    expect(put.statusCode, put.body).toBe(200);
    await t.ctx.db.execute(sql`UPDATE devices SET model_code = 'Renamed 1' WHERE id = ${deviceId}`);
    const moved = await page(`/api/device-part-v/page?page=100,1&${filterOf(['deviceId', 'anyof', [deviceId]])}`, t.admin);
    expect(moved.pageRows.length).toBeGreaterThan(0);
    for (const r of moved.pageRows) expect([r.locationId, r.locationName, r.modelCode]).toEqual([locs[3], 'Location SPLIT_D', 'Renamed 1']);
    // The operator of A, B and C no longer sees them.
    const mine = await page(`/api/device-part-v/page?page=100,1&${filterOf(['deviceId', 'anyof', [deviceId]])}`, operator);
    expect(mine.totalRows).toBe(0);
  });

  it('never answers one scope with the rows of another, however often the same query is asked', async () => {
    // Statements are built once per list, scope and query string and then reused: the same
    // query from callers of different scopes, in turns, must keep giving each their own rows.
    const roles = (await t.app.inject({ url: '/api/managed-roles-v/', headers: bearer(t.admin) })).json().pageRows as { id: number; code: string }[];
    const otherId = await createUser(t.app, t.admin, { login: 'split-other', role: 'OPERATOR', locationIds: [locs[3]] });
    const other = await signIn(t.app, 'split-other', 'Passw0rd!');
    await createUser(t.app, t.admin, { login: 'split-one', role: 'OPERATOR', locationIds: [locs[1]] });
    const one = await signIn(t.app, 'split-one', 'Passw0rd!');
    const url = `/api/devices/page?page=5,1&${filterOf(['deviceType', 'anyof', ['MFP']])}${sortsOf(['ip,ASC'])}`;
    const parts = `/api/device-part-v/page?page=5,1${sortsOf(['level,DESC'])}`;
    for (let round = 0; round < 3; round++) {
      for (const [token, allowed] of [[t.admin, null], [other, [locs[3]]], [one, [locs[1]]], [operator, locs.slice(0, 3)]] as const) {
        for (const u of [url, parts]) {
          const res = await page(u, token);
          expect(res.totalRows).toBeGreaterThan(0);
          if (allowed) for (const r of res.pageRows) expect(allowed).toContain(r.locationId);
        }
      }
    }
    // A scope that changes while signed in: the next request reads the new locations.
    const put = await t.app.inject({
      method: 'PUT', url: `/api/users/${otherId}`, headers: bearer(t.admin),
      payload: { login: 'split-other', email: 'split-other@example.com', lastName: 'split-other', activeFlag: true, locations: [{ id: locs[1] }], grants: [{ id: roles.find((r) => r.code === 'OPERATOR')!.id }] },
    });
    expect(put.statusCode, put.body).toBe(200);
    const now = await page(url, other);
    expect(now.totalRows).toBeGreaterThan(0);
    for (const r of now.pageRows) expect(r.locationId).toBe(locs[1]);
  });
});
