import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { bearer, createTestApp, createUser, signIn } from '../../test/test-app.ts';
import { addLocation } from '../../test/scope-fixture.ts';
import type { z } from 'zod';
import { deviceListRowSchema } from '@pagewatch/contracts/devices';
import { dmDeviceDayRowSchema, dmDeviceDayVRowSchema, dmDeviceHistoryRowSchema, dmDevicePartDayRowSchema, dmDeviceUserDayRowSchema } from '@pagewatch/contracts/device-history';
import { consumableRowSchema, consumableShortRowSchema } from '@pagewatch/contracts/consumables';
import { agentReading, batch, createAgent, post, type Printer } from '../ingest/ingest.fixtures.ts';

type App = Awaited<ReturnType<typeof createTestApp>>;
let t: App;
let admin: string;
let adminA: string;
let operatorA: string;
let locA: number;
let locB: number;
const ids: Record<string, number> = {};
let agentA: { token: string; rangeId: number | null };

const DAY = 86_400_000;
const get = (url: string, token = admin) => t.app.inject({ method: 'GET', url, headers: bearer(token) });
const send = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload: unknown, token = admin) =>
  t.app.inject({ method, url, headers: bearer(token), payload: payload as object });
const page = async (url: string, token = admin) => {
  const res = await get(url, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { pageRows: Record<string, unknown>[]; totalRows: number };
};
const q = (filter: unknown) => `filter-json=${encodeURIComponent(JSON.stringify(filter))}`;

/** A walk of a device no profile knows, as the agent sends it. */
const WALK: [string, string, string][] = [
  ['1.3.6.1.2.1.1.1.0', 'octets', 'Mystery "Printer" 9000'],
  ['1.3.6.1.2.1.1.2.0', 'oid', '1.3.6.1.4.1.99999.1'],
  ['1.3.6.1.2.1.1.3.0', 'timeticks', '123456'],
  ['1.3.6.1.2.1.2.2.1.6.1', 'octets', '0x001122aabbcc'],
  ['1.3.6.1.2.1.43.10.2.1.4.1.1', 'counter32', '4242'],
];

function multipart(field: string, filename: string, type: string, data: Buffer | string) {
  const boundary = 'pwboundary';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`),
    Buffer.from(data),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
const upload = (url: string, file: ReturnType<typeof multipart>, token = admin) =>
  t.app.inject({ method: 'POST', url, payload: file.payload, headers: { ...bearer(token), ...file.headers } });

beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t.app);
  locA = await addLocation(t.ctx.db, 'DEV_A');
  locB = await addLocation(t.ctx.db, 'DEV_B');
  const a = await createAgent(t.app, admin, { name: 'Agent A', locationId: locA, range: { from: '127.0.20.1', to: '127.0.20.254' } });
  agentA = a as typeof agentA;
  const b = await createAgent(t.app, admin, { name: 'Agent B', locationId: locB, range: { from: '127.0.21.1', to: '127.0.21.254' } });
  const now = Date.now();
  const at = (daysAgo: number) => new Date(now - daysAgo * DAY);
  const printers: [typeof a, string, Printer][] = [
    [a, '127.0.20.1', { serial: 'SA1', total: 1000, black: 80, cyan: 40 }],
    [a, '127.0.20.2', { serial: 'SA2', model: 'Color 500', total: 5000, black: null }],
    [a, '127.0.20.3', { serial: 'SA3', total: 300, black: 5, blackState: 'UNKNOWN' }],
    [b, '127.0.21.1', { serial: 'SB1', total: 700, black: 55 }],
  ];
  // Three days of history: the total grows by 100 a day.
  for (const [agent, ip, p] of printers) {
    const readings = [2, 1, 0].map((d) => agentReading(ip, { ...p, total: p.total + (2 - d) * 100 }, { readAt: at(d), rangeId: agent.rangeId }));
    const res = await post(t.app, agent.token, batch(readings));
    expect(res.statusCode, res.body).toBe(200);
  }
  // SA1 moved address once.
  await post(t.app, a.token, batch([agentReading('127.0.20.9', { serial: 'SA1', total: 1250, black: 79, cyan: 40 }, { rangeId: a.rangeId })]));
  // A device no profile knows, with its walk.
  const unknown = { ...agentReading('127.0.20.50', { serial: 'UNK1', total: 10 }, { rangeId: a.rangeId }), walk: WALK };
  await post(t.app, a.token, batch([unknown]));
  const unknownB = { ...agentReading('127.0.21.50', { serial: 'UNKB', total: 10 }, { rangeId: b.rangeId }), walk: WALK };
  await post(t.app, b.token, batch([unknownB]));

  for (const r of (await t.ctx.db.execute(sql`SELECT id, serial_number FROM devices`)).rows as { id: number; serial_number: string }[]) ids[r.serial_number] = r.id;
  await t.ctx.db.execute(sql`INSERT INTO dm_device_user_days (fact_date, device_id, location_id, username, printed_page_count)
    VALUES (current_date, ${ids.SA1}, ${locA}, 'alice', 12), (current_date - 1, ${ids.SA1}, ${locA}, 'bob', 3), (current_date, ${ids.SB1}, ${locB}, 'carol', 9)`);

  await createUser(t.app, admin, { login: 'devadmina', password: 'Passw0rd!', role: 'ADMIN', locationIds: [locA] });
  await createUser(t.app, admin, { login: 'devopa', password: 'Passw0rd!', role: 'OPERATOR', locationIds: [locA] });
  adminA = await signIn(t.app, 'devadmina', 'Passw0rd!');
  operatorA = await signIn(t.app, 'devopa', 'Passw0rd!');
});
afterAll(() => t.close());

describe('devices list', () => {
  it('lists every device column, scoped to the caller', async () => {
    const all = await page('/api/devices/page?page=100,1');
    expect(all.totalRows).toBe(6);
    const mine = await page('/api/devices/page?page=100,1', adminA);
    expect(mine.pageRows.map((r) => r.serialNumber).sort()).toEqual(['SA1', 'SA2', 'SA3', 'UNK1']);
    const sa1 = mine.pageRows.find((r) => r.serialNumber === 'SA1')!;
    expect(sa1).toMatchObject({
      modelCode: 'LaserJet M404', ip: '127.0.20.9', locationId: locA, locationName: 'Location DEV_A', deviceType: 'PRINTER', colorType: 'COLOR',
      paperFormat: 'A4', totalCount: 1250, tonerBlack: 79, tonerCyan: 40, newDevice30Flag: true, notAvailableFlag: false,
      matReplacementRequiredFlag: false, needAttentionFlag: false, managedFlag: true, hasWalk: false,
    });
    expect(typeof sa1.refreshedAt).toBe('string');
    expect(mine.pageRows.find((r) => r.serialNumber === 'UNK1')!.hasWalk).toBe(true);
  });

  it('filters and sorts by the spec, refuses anything else', async () => {
    const res = await page(`/api/devices/page?page=50,1&sort=modelCode,DESC&sort=serialNumber,ASC&${q([['locationId', 'anyof', [locA]], 'and', ['totalCount', '>=', 400]])}`);
    expect(res.pageRows.map((r) => r.serialNumber)).toEqual(['SA1', 'SA3', 'SA2']);
    const flags = await page(`/api/devices/page?${q(['hasWalk', '=', true])}`);
    expect(flags.pageRows.map((r) => r.serialNumber).sort()).toEqual(['UNK1', 'UNKB']);
    expect((await get('/api/devices/page?sort=sysDescr,ASC')).statusCode).toBe(400);
    expect((await get(`/api/devices/page?${q(['comment', '=', 'x'])}`)).statusCode).toBe(400);
    expect((await get('/api/devices/page?page=abc')).statusCode).toBe(400);
  });

  it('needs a session and MNU_DEVICES.READ', async () => {
    expect((await t.app.inject({ url: '/api/devices/page' })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/device-part-v/page' })).statusCode).toBe(401);
    expect((await get('/api/devices/page', operatorA)).statusCode).toBe(200);
  });
});

describe('device card', () => {
  it('gives every field, supplies and the day counters', async () => {
    const res = await get(`/api/devices/${ids.SA1}`, adminA);
    expect(res.statusCode, res.body).toBe(200);
    const d = res.json();
    expect(d).toMatchObject({ serialNumber: 'SA1', port: 161, firmware: '1.0', snmpStatusCode: 'running', printerStatus: 'idle', statusCode: 'OK', comment: null, agentName: 'Agent A' });
    expect(d.supplies.map((s: { colorant: string }) => s.colorant)).toEqual(['black', 'cyan']);
    expect(d.dayCounters).toMatchObject({ total: 150 });
  });

  it('is 403 outside the scope and 404 when missing', async () => {
    expect((await get(`/api/devices/${ids.SB1}`, adminA)).statusCode).toBe(403);
    expect((await get('/api/devices/999999', adminA)).statusCode).toBe(404);
    expect((await get('/api/devices/abc', adminA)).statusCode).toBe(400);
  });

  it('saves inventory number, comment, managed and location with PUT', async () => {
    const res = await send('PUT', `/api/devices/${ids.SA2}`, { inventoryNumber: 'INV-7', comment: 'second floor', managedFlag: false }, adminA);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ inventoryNumber: 'INV-7', comment: 'second floor', managedFlag: false });
    // A later reading keeps what the console set.
    expect((await get(`/api/devices/${ids.SA2}`, adminA)).json().inventoryNumber).toBe('INV-7');
    const bad = await send('PUT', `/api/devices/${ids.SA2}`, { inventoryNumber: 'x'.repeat(101) }, adminA);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].field).toBe('inventoryNumber');
    const away = await send('PUT', `/api/devices/${ids.SA2}`, { location: { id: locB } }, adminA);
    expect(away.statusCode).toBe(400);
    expect(away.json().details[0].field).toBe('location');
    expect((await send('PUT', `/api/devices/${ids.SB1}`, { comment: 'x' }, adminA)).statusCode).toBe(403);
    expect((await send('PUT', `/api/devices/${ids.SA2}`, { comment: 'x' }, operatorA)).statusCode).toBe(403);
    await send('PUT', `/api/devices/${ids.SA2}`, { managedFlag: true }, adminA);
  });

  it('deletes a device with its history', async () => {
    const agent = await createAgent(t.app, admin, { name: 'Agent D', locationId: locA, range: { from: '127.0.22.1', to: '127.0.22.9' } });
    await post(t.app, agent.token, batch([agentReading('127.0.22.1', { serial: 'DEL1', total: 5, black: 50 }, { rangeId: agent.rangeId })]));
    const id = Number(((await t.ctx.db.execute(sql`SELECT id FROM devices WHERE serial_number = 'DEL1'`)).rows[0] as { id: number }).id);
    expect((await send('DELETE', `/api/devices/${id}`, undefined, operatorA)).statusCode).toBe(403);
    expect((await send('DELETE', `/api/devices/${id}`, undefined, adminA)).statusCode).toBe(204);
    expect((await get(`/api/devices/${id}`)).statusCode).toBe(404);
    expect((await page(`/api/dm-device-days/page?${q(['deviceId', '=', id])}`)).totalRows).toBe(0);
  });
});

describe('maintenance for one or many devices', () => {
  it('changes the managed flag of the chosen devices and says how many', async () => {
    const res = await send('POST', '/api/devices/change-activity', { ids: [ids.SA1, ids.SA3], managedFlag: false }, adminA);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ changed: 2 });
    expect(res.json().message).toContain('2');
    const again = await send('POST', '/api/devices/change-activity', { ids: [ids.SA1], managedFlag: false }, adminA);
    expect(again.json().changed).toBe(0);
    await send('POST', '/api/devices/change-activity', { ids: [ids.SA1, ids.SA3], managedFlag: true }, adminA);
  });

  it('refuses an empty list, a device outside and a caller without EDIT', async () => {
    expect((await send('POST', '/api/devices/change-activity', { ids: [], managedFlag: true }, adminA)).statusCode).toBe(400);
    expect((await send('POST', '/api/devices/change-activity', { ids: [ids.SA1, ids.SB1], managedFlag: false }, adminA)).statusCode).toBe(403);
    expect((await get(`/api/devices/${ids.SA1}`)).json().managedFlag).toBe(true);
    expect((await send('POST', '/api/devices/change-activity', { ids: [ids.SA1], managedFlag: false }, operatorA)).statusCode).toBe(403);
  });
});

describe('consumables', () => {
  it('gives rows with the field names of the spec, levelState for what is not a number', async () => {
    const res = await page(`/api/device-part-v/page?page=100,1&sort=serialNumber,ASC&sort=colorant,ASC`, adminA);
    expect(res.pageRows.map((r) => `${r.serialNumber}:${r.colorant}`)).toEqual(['SA1:black', 'SA1:cyan', 'SA2:black', 'SA3:black']);
    const sa1 = res.pageRows[0];
    expect(sa1).toMatchObject({
      partCode: 'toner', partName: 'black toner', partModelCode: 'CF-black', level: 79, modelCode: 'LaserJet M404', hostName: 'printer',
      ip: '127.0.20.9', locationName: 'Location DEV_A', device: { id: ids.SA1, serialNumber: 'SA1', inventoryNumber: null },
      deviceType: 'PRINTER', colorType: 'COLOR', paperFormat: 'A4',
    });
    expect(res.pageRows[2]).toMatchObject({ level: null, levelState: 'SOME_REMAINING' });
    expect(res.pageRows[3]).toMatchObject({ level: 5, levelState: 'UNKNOWN' });
    const low = await page(`/api/device-part-v/page?${q(['level', '<', 10])}`);
    expect(low.pageRows.map((r) => r.serialNumber)).toEqual(['SA3']);
    expect((await get(`/api/device-part-v/page?${q(['level', 'contains', 'x'])}`)).statusCode).toBe(400);
  });

  it('short rows of one device', async () => {
    const res = await page(`/api/device-part-short-v/page?${q(['deviceId', '=', ids.SA1])}`, adminA);
    expect(res.pageRows.map((r) => r.colorant)).toEqual(['black', 'cyan']);
    expect((await page(`/api/device-part-short-v/page?${q(['deviceId', '=', ids.SB1])}`, adminA)).totalRows).toBe(0);
  });
});

describe('list rows as PostgreSQL writes them', () => {
  it('match their row schema exactly, field for field, on every list', async () => {
    const lists: [string, z.ZodObject][] = [
      ['/api/devices/page', deviceListRowSchema],
      ['/api/device-part-v/page', consumableRowSchema],
      ['/api/device-part-short-v/page', consumableShortRowSchema],
      ['/api/dm-device-days/page', dmDeviceDayRowSchema],
      ['/api/dm-device-days-v/page', dmDeviceDayVRowSchema],
      ['/api/dm-device-days-actual-v/page', dmDeviceDayVRowSchema],
      ['/api/dm-device-part-days/page', dmDevicePartDayRowSchema],
      ['/api/dm-device-user-days/page', dmDeviceUserDayRowSchema],
      ['/api/dm-device-history/page', dmDeviceHistoryRowSchema],
    ];
    for (const [url, schema] of lists) {
      const res = await get(`${url}?page=100,1`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      const body = res.json() as { pageRows: Record<string, unknown>[]; totalRows: number };
      expect(body.pageRows.length, url).toBeGreaterThan(0);
      expect(body.totalRows).toBe(body.pageRows.length);
      for (const row of body.pageRows) {
        // No field missing, none added (helper columns stay in the database).
        expect(Object.keys(row).sort(), url).toEqual(Object.keys(schema.shape).sort());
        const parsed = schema.strict().safeParse(row);
        expect(parsed.error, `${url} ${JSON.stringify(row)}`).toBeUndefined();
      }
    }
  });

  it('writes timestamps and days as the card does, numbers as numbers', async () => {
    const row = (await page(`/api/devices/page?${q(['serialNumber', '=', 'SA1'])}`)).pageRows[0];
    const card = (await get(`/api/devices/${ids.SA1}`)).json() as Record<string, unknown>;
    for (const f of ['refreshedAt', 'createdAt', 'totalCount', 'tonerBlack', 'tonerCyan', 'needAttentionFlag', 'managedFlag', 'ip', 'locationName', 'modelCode']) {
      expect(row[f], f).toEqual(card[f]);
    }
    expect(row.refreshedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(typeof row.totalCount).toBe('number');
    const day = (await page(`/api/dm-device-days/page?${q(['deviceId', '=', ids.SB1])}&sort=factDate,DESC`)).pageRows[0];
    const newest = (await t.ctx.db.execute(sql`SELECT to_char(max(fact_date), 'YYYY-MM-DD') AS d FROM dm_device_days WHERE device_id = ${ids.SB1}`)).rows[0] as { d: string };
    expect(day.factDate).toBe(newest.d);
    const supply = (await page(`/api/device-part-v/page?${q(['serialNumber', '=', 'SA1'])}&sort=colorant,ASC`)).pageRows[0];
    expect(supply.device).toEqual({ id: ids.SA1, serialNumber: 'SA1', inventoryNumber: null });
    expect(supply.id).toBe(`${ids.SA1}-${supply.supplyIndex}`);
  });
});

describe('history', () => {
  it('days, days with the day pages, and the newest day', async () => {
    const days = await page(`/api/dm-device-days/page?${q(['deviceId', '=', ids.SB1])}`);
    expect(days.pageRows.map((r) => r.totalCount)).toEqual([700, 800, 900]);
    expect(days.pageRows[0].factDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const v = await page(`/api/dm-device-days-v/page?${q(['deviceId', '=', ids.SB1])}`);
    expect(v.pageRows.map((r) => r.dayTotal)).toEqual([0, 100, 100]);
    expect(v.pageRows[0]).toMatchObject({ serialNumber: 'SB1', locationId: locB });
    expect((await page(`/api/dm-device-days-v/page?${q(['deviceId', '=', ids.SB1])}`, adminA)).totalRows).toBe(0);
    const actual = await page('/api/dm-device-days-actual-v/page?page=100,1', adminA);
    expect(actual.pageRows.map((r) => r.serialNumber).sort()).toEqual(['SA1', 'SA2', 'SA3', 'UNK1']);
    expect(actual.pageRows.find((r) => r.serialNumber === 'SA1')).toMatchObject({ totalCount: 1250, dayTotal: 150 });
  });

  it('supply levels per day', async () => {
    const res = await page(`/api/dm-device-part-days/page?${q([['deviceId', '=', ids.SA1], 'and', ['colorant', '=', 'black']])}`, adminA);
    expect(res.pageRows.map((r) => r.level)).toEqual([80, 80, 79]);
    expect(res.pageRows[2]).toMatchObject({ minLevel: 79, replaced: false });
  });

  it('user days of a device', async () => {
    const res = await page(`/api/dm-device-user-days/page?${q(['deviceId', '=', ids.SA1])}&sort=factDate,DESC`, adminA);
    expect(res.pageRows.map((r) => [r.username, r.printedPageCount])).toEqual([['alice', 12], ['bob', 3]]);
    expect((await page('/api/dm-device-user-days/page', adminA)).pageRows.map((r) => r.username)).not.toContain('carol');
  });

  it('IP history by period', async () => {
    const res = await page(`/api/dm-device-history/page?${q(['deviceId', '=', ids.SA1])}&sort=dateFrom,ASC`, adminA);
    expect(res.pageRows.map((r) => [r.ip, r.oldIp])).toEqual([['127.0.20.1', null], ['127.0.20.9', '127.0.20.1']]);
    expect(res.pageRows[0].dateTo).toBe(res.pageRows[1].dateFrom);
    expect(res.pageRows[1].dateTo).toBeNull();
    expect((await page(`/api/dm-device-history/page?${q(['deviceId', '=', ids.SB1])}`, adminA)).totalRows).toBe(0);
  });
});

describe('statistics', () => {
  it('counts per location of the scope', async () => {
    const res = await page('/api/statistics-v', adminA);
    expect(res.pageRows.map((r) => r.locationId)).toEqual([locA]);
    expect(res.pageRows[0]).toMatchObject({ allDeviceCount: 4, lowSupplyCount: 1 });
    expect(res.pageRows[0].pages30).toBeGreaterThan(0);
  });

  it('a location with what is below it', async () => {
    const res = await get(`/api/statistics/locations/${locA}/devices`, adminA);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ allDeviceCount: 4, byType: { PRINTER: 4 } });
    expect((await get(`/api/statistics/locations/${locB}/devices`, adminA)).statusCode).toBe(403);
  });
});

describe('walks', () => {
  it('asks for a fresh walk on the next contact', async () => {
    const res = await send('POST', `/api/dm-device-days/device/${ids.SA1}/update-walk`, undefined, adminA);
    expect(res.statusCode, res.body).toBe(200);
    expect((await get(`/api/devices/${ids.SA1}`)).json().walkRequestedAt).toBe(res.json().requestedAt);
    const agentId = Number(((await t.ctx.db.execute(sql`SELECT agent_id FROM devices WHERE id = ${ids.SA1}`)).rows[0] as { agent_id: number }).agent_id);
    expect(await t.ctx.devices.pendingWalks(agentId)).toEqual([{ deviceId: ids.SA1, ip: '127.0.20.9', port: 161 }]);
    expect((await send('POST', `/api/dm-device-days/device/${ids.SB1}/update-walk`, undefined, adminA)).statusCode).toBe(403);
    expect((await send('POST', `/api/dm-device-days/device/${ids.SA1}/update-walk`, undefined, operatorA)).statusCode).toBe(403);
  });

  it('downloads the unknown devices of the scope as .walk files in a zip', async () => {
    const res = await get('/api/devices/walks', adminA);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="unknown-devices-\d{4}-\d{2}-\d{2}\.zip"/);
    const dir = mkdtempSync(join(tmpdir(), 'pw-walks-'));
    try {
      writeFileSync(join(dir, 'w.zip'), res.rawPayload);
      execFileSync('unzip', ['-q', 'w.zip', '-d', 'out'], { cwd: dir });
      const files = readdirSync(join(dir, 'out'));
      expect(files).toEqual([`LaserJet-M404_UNK1_${ids.UNK1}.walk`]);
      expect(readFileSync(join(dir, 'out', files[0]), 'utf8')).toBe(
        [
          '.1.3.6.1.2.1.1.1.0 = STRING: "Mystery \\"Printer\\" 9000"',
          '.1.3.6.1.2.1.1.2.0 = OID: .1.3.6.1.4.1.99999.1',
          '.1.3.6.1.2.1.1.3.0 = Timeticks: (123456) 0:0:20:34.56',
          '.1.3.6.1.2.1.2.2.1.6.1 = Hex-STRING: 00 11 22 AA BB CC',
          '.1.3.6.1.2.1.43.10.2.1.4.1.1 = Counter32: 4242',
        ].join('\n') + '\n',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const all = await get('/api/devices/walks');
    expect(all.headers['x-walk-count']).toBe('2');
    const chosen = await get(`/api/devices/walks?ids=${ids.UNKB}`, adminA);
    expect(chosen.headers['x-walk-count']).toBe('0');
  });

  it('tells the agent on its next contact; a reading with a walk answers the request', async () => {
    await send('POST', `/api/dm-device-days/device/${ids.SA1}/update-walk`, undefined, adminA);
    const config = async () => (await get('/api/agent/config', agentA.token)).json();
    expect((await config()).walkRequests).toEqual([{ deviceId: ids.SA1, ip: '127.0.20.9', port: 161 }]);
    const walked = { ...agentReading('127.0.20.9', { serial: 'SA1', total: 1300, black: 79, cyan: 40 }, { rangeId: agentA.rangeId }), walk: WALK };
    expect((await post(t.app, agentA.token, batch([walked]))).statusCode).toBe(200);
    expect((await config()).walkRequests).toEqual([]);
  });
});

describe('service uploads', () => {
  const txt = (body: string) => multipart('serialNumbers', 'serials.txt', 'text/plain', body);

  it('enables maintenance for the listed serials and reports exactly what it did not find or read', async () => {
    await send('POST', '/api/devices/change-activity', { ids: [ids.SA1, ids.SA2], managedFlag: false }, adminA);
    const res = await upload('/api/service/set-active-status', txt('\uFEFFSA1\r\nsa2\nNOPE-404\n\nbad serial with spaces\n'), adminA);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ changed: 2, notFound: ['NOPE-404'], invalidLines: [5] });
    expect(body.message).toBe('Maintenance enabled for 2 of 2 device(s) found. Not found (1): NOPE-404. Lines that are not serial numbers (1): 5.');
    expect((await get(`/api/devices/${ids.SA2}`)).json().managedFlag).toBe(true);
  });

  it('disables only devices in the scope; a serial outside is not found', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/service/set-inactive-status', payload: txt('SA3\nSB1\n').payload, headers: { ...bearer(adminA), ...txt('').headers, 'accept-language': 'ru' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ changed: 1, notFound: ['SB1'], invalidLines: [] });
    expect(res.json().message).toContain('Не найдены (1): SB1.');
    expect((await get(`/api/devices/${ids.SB1}`)).json().managedFlag).toBe(true);
  });

  it('refuses other types, empty files and files over 1 MB with a clear error', async () => {
    const csv = await upload('/api/service/set-active-status', multipart('serialNumbers', 'serials.csv', 'text/csv', 'SA1\n'), adminA);
    expect(csv.statusCode).toBe(415);
    expect(csv.json().details).toEqual([{ field: 'serialNumbers', message: 'Only .txt files are accepted' }]);
    const png = await upload('/api/service/set-active-status', multipart('serialNumbers', 'x.txt', 'image/png', 'SA1'), adminA);
    expect(png.statusCode).toBe(415);
    const binary = await upload('/api/service/set-active-status', multipart('serialNumbers', 'x.txt', 'text/plain', Buffer.from([0xff, 0xfe, 0x00, 0x41])), adminA);
    expect(binary.statusCode).toBe(415);
    expect(binary.json().message).toBe('The file is not UTF-8 text');
    const empty = await upload('/api/service/set-active-status', txt(''), adminA);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().details[0]).toEqual({ field: 'serialNumbers', message: 'The file is empty' });
    const blank = await upload('/api/service/set-active-status', txt('\n \n'), adminA);
    expect(blank.statusCode).toBe(400);
    const big = await upload('/api/service/set-active-status', txt('SA1\n'.repeat(300_000)), adminA);
    expect(big.statusCode).toBe(413);
    expect(big.json().details).toEqual([{ field: 'serialNumbers', message: 'The file is larger than 1 MB' }]);
    const none = await send('POST', '/api/service/set-active-status', {}, adminA);
    expect(none.statusCode).toBe(400);
  });

  it('needs BTN_DEVICE_ACTIVITY.EXECUTE', async () => {
    expect((await upload('/api/service/set-active-status', txt('SA1\n'), operatorA)).statusCode).toBe(403);
    expect((await send('POST', '/api/service/reset-status', undefined, operatorA)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: '/api/service/reset-status' })).statusCode).toBe(401);
  });

  it('stops maintenance for every device of the scope only', async () => {
    const res = await send('POST', '/api/service/reset-status', undefined, adminA);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().changed).toBe(3);
    expect(res.json().message).toBe('Maintenance stopped for 3 device(s).');
    const rows = (await page('/api/devices/page?page=100,1')).pageRows;
    expect(rows.filter((r) => r.managedFlag).map((r) => r.serialNumber).sort()).toEqual(['SB1', 'UNKB']);
  });
});
