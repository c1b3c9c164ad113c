import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import { deviceListRowSchema } from '@pagewatch/contracts/devices';
import { dmDeviceDayRowSchema, dmDeviceDayVRowSchema, dmDeviceHistoryRowSchema, dmDevicePartDayRowSchema, dmDeviceUserDayRowSchema } from '@pagewatch/contracts/device-history';
import { consumableRowSchema, consumableShortRowSchema } from '@pagewatch/contracts/consumables';
import { agentReading, batch, createAgent, post } from '../ingest/ingest.fixtures.ts';
import { get, page, q, send, useDevicesWorld, world, type DevicesWorld } from '../../test/devices-world.ts';

let t: DevicesWorld['t'];
let admin: string;
let adminA: string;
let operatorA: string;
let locA: number;
let locB: number;
const ids = world.ids;

useDevicesWorld();
beforeAll(() => void ({ t, admin, adminA, operatorA, locA, locB } = world));

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

  it('says where each supply\'s level came from, as the agent read it; a supply of an older agent has no source (issue 57)', async () => {
    const agent = await createAgent(t.app, admin, { name: 'Agent S', locationId: locA, range: { from: '127.0.23.1', to: '127.0.23.9' } });
    const r = agentReading('127.0.23.1', { serial: 'SRC1', total: 5, black: 30, cyan: 10 }, { rangeId: agent.rangeId });
    const record = '1.3.6.1.4.1.2435.2.3.9.4.2.1.5.5.8.0 (brother: brInfoMaintenance, record 81 Black toner)';
    r.reading.supplies[0]!.source = record;
    delete r.reading.supplies[1]!.source;
    expect((await post(t.app, agent.token, batch([r]))).statusCode).toBe(200);
    const id = Number(((await t.ctx.db.execute(sql`SELECT id FROM devices WHERE serial_number = 'SRC1'`)).rows[0] as { id: number }).id);
    const d = (await get(`/api/devices/${id}`, adminA)).json();
    expect(d.supplies.map((s: { colorant: string; levelSource: string | null }) => [s.colorant, s.levelSource])).toEqual([['black', record], ['cyan', null]]);
    // The world's other tests count its devices: this one goes.
    expect((await send('DELETE', `/api/devices/${id}`, undefined, adminA)).statusCode).toBe(204);
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
