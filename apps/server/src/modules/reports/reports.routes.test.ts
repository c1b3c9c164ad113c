import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { z } from 'zod';
import { REPORT_CODES, REPORTS } from '@pagewatch/contracts/reports';
import { bearer, signedInAs, testApp } from '../../test/test-app.ts';
import { addLocation } from '../../test/scope-fixture.ts';
import { sqlRows } from '../../test/sql-rows.ts';

const t = testApp();
let operator: string;
let mine: number;
let other: number;
let deviceA: number;

const device = async (locationId: number, serial: string, type: string) => {
  const [d] = await sqlRows<{ id: number }>(t.ctx.db, sql`INSERT INTO devices (location_id, ip, serial_number, model_code, device_type, color_type)
    VALUES (${locationId}, '127.0.0.5', ${serial}, 'M', ${type}, 'MONO') RETURNING id`);
  const id = Number(d.id);
  await t.ctx.db.execute(sql`INSERT INTO consumables (device_id, supply_index, part_code, part_name, colorant, level, refreshed_at, part_model_code, installed_at)
    VALUES (${id}, 1, 'toner', 'Black Toner', 'black', 40, now(), 'TK-1', '2026-10-01T08:00:00Z')`);
  return id;
};
const replaced = (deviceId: number, locationId: number, at: string) =>
  t.ctx.db.execute(sql`INSERT INTO device_events (event_at, type, device_id, location_id, supply_index, part_code, part_model_code, part_serial_number, processed)
    VALUES (${at}::timestamptz, 'SUPPLY_REPLACED', ${deviceId}, ${locationId}, 1, 'toner', 'TK-1', ${`PS-${at}`}, true)`);

beforeAll(async () => {
  mine = await addLocation(t.ctx.db, 'RP_MINE');
  other = await addLocation(t.ctx.db, 'RP_OTHER');
  operator = await signedInAs(t, { login: 'rp_op', role: 'OPERATOR', locationIds: [mine] });
  const a = await device(mine, 'RP-A', 'MFP');
  deviceA = a;
  const b = await device(other, 'RP-B', 'PRINTER');
  await replaced(a, mine, '2026-10-31T23:59:59Z');
  await replaced(a, mine, '2026-11-01T00:00:00Z'); // midnight UTC: the first of November
  await replaced(b, other, '2026-11-15T12:00:00Z');
  await replaced(a, mine, '2026-12-01T00:00:00Z');
});

const get = (token: string, url: string, lang = 'en') => t.app.inject({ url, headers: { ...bearer(token), 'accept-language': lang } });
const serials = (rows: { serialNumber: string }[]) => rows.map((r) => r.serialNumber).filter((s) => s.startsWith('RP-'));

describe('reports', () => {
  it('lists the report types that are built, in the caller\'s language', async () => {
    const types = (await get(t.admin, '/api/reports', 'ru')).json();
    expect(types.map((x: { code: string }) => x.code)).toEqual(['DEVICE_AVAILABILITY', 'DEVICE_COUNTERS', 'PART_REPLACEMENTS', 'INSTALLED_CONSUMABLES', 'METER_READS']);
    expect(types[3]).toMatchObject({ id: 4, name: 'Установленные расходные материалы', period: false });
    expect(types[3].columns).toContain('partModelCode');
  });

  it('answers every data call in its row schema\'s types (the JSON is PostgreSQL\'s, sent as it is)', async () => {
    for (const code of REPORT_CODES) {
      const { list } = REPORTS[code];
      const res = await get(t.admin, `/api${list.endpoint}?${REPORTS[code].period ? 'from=2026-10-01&to=2026-12-31' : ''}`);
      expect(res.statusCode, code).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      const rows = res.json();
      expect(rows.length, code).toBeGreaterThan(0);
      const parsed = z.array(list.row.strict()).safeParse(rows);
      expect(parsed.error?.issues ?? [], code).toEqual([]);
    }
  });

  it('gives the replacements of the period, days in UTC with both ends included', async () => {
    const rows = (await get(t.admin, '/api/reports/part-replacements?from=2026-11-01&to=2026-11-30')).json();
    expect(rows.map((r: { replacementDate: string }) => r.replacementDate)).toEqual(['2026-11-01T00:00:00.000Z', '2026-11-15T12:00:00.000Z']);
    expect(rows[0]).toMatchObject({ serialNumber: 'RP-A', partType: 'Black Toner', partModelCode: 'TK-1', location: 'Location RP_MINE', deviceType: 'MFP' });
    const printers = (await get(t.admin, '/api/reports/part-replacements?from=2026-10-01&to=2026-12-31&printerType=PRINTER')).json();
    expect(serials(printers)).toEqual(['RP-B']);
  });

  it('counts the days a device was read and worked in the period, up to today', async () => {
    const day = (d: string, status: string, readings: number) =>
      t.ctx.db.execute(sql`INSERT INTO dm_device_days (fact_date, device_id, location_id, readings, status_code) VALUES (${d}::date, ${deviceA}, ${mine}, ${readings}, ${status})`);
    await day('2026-10-31', 'OK', 4); // before the period
    await day('2026-11-01', 'OK', 3);
    await day('2026-11-02', 'ERROR', 1); // read, not working
    await day('2026-11-03', 'WARNING', 2);
    const rows = (await get(t.admin, '/api/reports/device-availability?from=2026-11-01&to=2026-11-10')).json();
    const a = rows.find((r: { serialNumber: string }) => r.serialNumber === 'RP-A');
    expect(a).toMatchObject({ daysCount: 10, daysSeen: 3, daysAvailable: 2, availability: 20, status: 'UNKNOWN', location: 'Location RP_MINE' });
    expect(rows.find((r: { serialNumber: string }) => r.serialNumber === 'RP-B')).toMatchObject({ daysCount: 10, daysSeen: 0, daysAvailable: 0, availability: 0 });
    // A period that reaches past today counts the days up to today.
    const today = new Date().toISOString().slice(0, 10);
    const ahead = (await get(t.admin, `/api/reports/device-availability?from=${today}&to=2099-12-31`)).json();
    expect(ahead.find((r: { serialNumber: string }) => r.serialNumber === 'RP-A').daysCount).toBe(1);
  });

  it('counts the pages of the period as forward steps, across a gap and a counter reset', async () => {
    const day = (id: number, d: string, c: { start?: number; total: number; bw: number; color?: number }) =>
      t.ctx.db.execute(sql`INSERT INTO dm_device_days (fact_date, device_id, location_id, readings, total_start, total_count, mono_count, color_count)
        VALUES (${d}::date, ${id}, ${mine}, 1, ${c.start ?? c.total}, ${c.total}, ${c.bw}, ${c.color ?? null})`);
    const c = await device(mine, 'RP-C', 'MFP');
    await day(c, '2026-09-30', { total: 1000, bw: 800, color: 200 }); // the last day before the period
    await day(c, '2026-10-01', { start: 1010, total: 1100, bw: 880, color: 220 });
    await day(c, '2026-10-03', { start: 40, total: 50, bw: 30, color: 20 }); // a new board: every counter back near zero
    await day(c, '2026-10-04', { start: 50, total: 150, bw: 100, color: 50 });
    const d = await device(mine, 'RP-D', 'PRINTER');
    await day(d, '2026-10-05', { start: 500, total: 520, bw: 400 }); // new in the period: its first day counts from its first total
    await day(d, '2026-10-06', { start: 520, total: 560, bw: 430 });
    const rows = (await get(t.admin, '/api/reports/device-counters?from=2026-10-01&to=2026-10-31')).json();
    const of = (serial: string) => rows.find((r: { serialNumber: string }) => r.serialNumber === serial);
    expect(of('RP-C')).toMatchObject({ bwStart: 800, bwEnd: 100, bwDiff: 150, colorStart: 200, colorEnd: 50, colorDiff: 50, totalStart: 1000, totalEnd: 150, totalDiff: 200, reason: 'bw,color,total' });
    expect(of('RP-D')).toMatchObject({ bwStart: 400, bwEnd: 430, bwDiff: 30, colorStart: null, colorDiff: null, totalStart: 500, totalEnd: 560, totalDiff: 60, reason: null });
    // A device without a day in the period is listed with no figures.
    expect(of('RP-B')).toMatchObject({ bwStart: null, totalDiff: null });
    await t.ctx.db.execute(sql`DELETE FROM devices WHERE id IN (${c}, ${d})`);
  });

  it('keeps every report within the caller\'s locations', async () => {
    expect(serials((await get(operator, '/api/reports/installed-consumables')).json())).toEqual(['RP-A']);
    expect(serials((await get(t.admin, '/api/reports/installed-consumables')).json()).sort()).toEqual(['RP-A', 'RP-B']);
    expect(serials((await get(t.admin, `/api/reports/installed-consumables?location=${other}`)).json())).toEqual(['RP-B']);
    expect((await get(operator, `/api/reports/installed-consumables?location=${other}`)).statusCode).toBe(403);
    expect((await get(operator, `/api/reports/download/4/CSV?filter=${encodeURIComponent(JSON.stringify({ location: [other] }))}`)).statusCode).toBe(403);
  });

  it('pages the installed consumables on the server: the rows of the data call, under the report filter and the list protocol', async () => {
    type Page = { pageRows: Record<string, unknown>[]; totalRows: number };
    const page = async (token: string, query: string) => {
      const res = await get(token, `/api/reports/installed-consumables/page?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as Page;
    };
    const ours = (p: Page) => p.pageRows.filter((r) => String(r.serialNumber).startsWith('RP-'));
    // Every row of the data call, the same columns, plus the row's id.
    const all = (await get(t.admin, '/api/reports/installed-consumables')).json() as Record<string, unknown>[];
    const paged = await page(t.admin, 'page=1000,1&sort=serialNumber,ASC');
    expect(paged.totalRows).toBe(all.length);
    const bySerial = (a: Record<string, unknown>, b: Record<string, unknown>) => String(a.serialNumber).localeCompare(String(b.serialNumber));
    expect(paged.pageRows.map(({ id, ...rest }) => rest).sort(bySerial)).toEqual([...all].sort(bySerial));
    expect(ours(paged).map((r) => r.id)).toEqual([`${deviceA}-1`, expect.stringMatching(/^\d+-1$/)]);
    // The report's filter: a location with those below it, a kind of device; the caller's locations always.
    expect(serials(ours(await page(t.admin, `location=${other}&page=50,1`)) as never)).toEqual(['RP-B']);
    expect(serials(ours(await page(t.admin, 'printerType=MFP&page=50,1')) as never)).toEqual(['RP-A']);
    expect(serials(ours(await page(operator, 'page=50,1')) as never)).toEqual(['RP-A']);
    expect((await get(operator, `/api/reports/installed-consumables/page?location=${other}`)).statusCode).toBe(403);
    // The list protocol: a page of one, sorted, and the grid's own filters.
    const one = await page(t.admin, `page=1,1&sort=serialNumber,DESC&filter-json=${encodeURIComponent(JSON.stringify(['serialNumber', 'startswith', 'RP-']))}`);
    expect(one).toMatchObject({ totalRows: 2, pageRows: [{ serialNumber: 'RP-B', partModelCode: 'TK-1', level: 40, installDate: '2026-10-01' }] });
    const bad = await get(t.admin, '/api/reports/installed-consumables/page?sort=nothing,ASC', 'ru');
    expect(bad.statusCode).toBe(400);
  });

  it('answers a bad filter with the field named', async () => {
    const missing = await get(t.admin, '/api/reports/part-replacements?from=2026-11-01');
    expect(missing.statusCode).toBe(400);
    expect(missing.json().details).toEqual([expect.objectContaining({ field: 'to' })]);
    const swapped = await get(t.admin, '/api/reports/part-replacements?from=2026-11-30&to=2026-11-01', 'ru');
    expect(swapped.json().details).toEqual([{ field: 'to', message: 'Конец периода не может быть раньше начала' }]);
    expect((await get(t.admin, '/api/reports/part-replacements?from=yesterday&to=2026-11-01')).json().details[0].field).toBe('from');
    const early = await get(t.admin, '/api/reports/device-counters?from=2021-12-01&to=2022-01-31');
    expect(early.statusCode).toBe(400);
    expect(early.json().details).toEqual([{ field: 'from', message: 'Reports hold days from 1 January 2022 on' }]);
    expect((await get(t.admin, '/api/reports/device-counters?from=2026-11-01&to=2026-11-31')).json().details[0].field).toBe('to');
    expect((await get(t.admin, '/api/reports/device-counters?from=2026-11-01&to=2026-11-30&colorType=PINK')).json().details[0].field).toBe('colorType.0');
    expect((await get(t.admin, '/api/reports/download/4/CSV?filter={nope')).json().details[0].field).toBe('filter');
    expect((await get(t.admin, `/api/reports/download/3/CSV?filter=${encodeURIComponent(JSON.stringify({ from: '2026-01-01', to: '2026-01-31', location: ['x'] }))}`)).json().details[0].field).toBe('location.0');
    expect((await get(t.admin, `/api/reports/download/4/CSV?filter=${encodeURIComponent(JSON.stringify({ columns: ['ip', 'password'] }))}`)).json().details[0].field).toBe('columns');
    expect((await get(t.admin, '/api/reports/download/9/CSV')).statusCode).toBe(404);
    expect((await get(t.admin, '/api/reports/download/4/PDF')).statusCode).toBe(400);
  });

  it('downloads a CSV of the chosen columns in the chosen order, named after the report', async () => {
    const filter = { location: [mine], columns: ['partModelCode', 'serialNumber', 'level', 'installDate'] };
    const res = await get(t.admin, `/api/reports/download/4/csv?filter=${encodeURIComponent(JSON.stringify(filter))}`, 'ru');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent('Установленные расходные материалы.csv')}`);
    // In Russian (issue 43): the grid's column names, semicolons, days as dd.mm.yyyy.
    expect(res.body).toBe('\uFEFFМодель расходника;Серийный номер;Уровень;Установлен\r\nTK-1;RP-A;40;01.10.2026\r\n');
  });

  it('downloads an XLSX with a frozen, filtered header row and typed cells', async () => {
    const filter = { from: '2026-11-01', to: '2026-11-30', location: [mine], columns: ['serialNumber', 'replacementDate', 'partModelCode'] };
    const res = await get(t.admin, `/api/reports/download/3/XLSX?filter=${encodeURIComponent(JSON.stringify(filter))}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet.name).toBe('Consumable replacements');
    expect(sheet.getRow(1).values).toEqual([undefined, 'Serial number', 'Replaced', 'Part model code']);
    expect(sheet.getRow(2).getCell(2).value).toEqual(new Date('2026-11-01T00:00:00.000Z'));
    expect(sheet.getRow(2).getCell(2).numFmt).toBe('yyyy-mm-dd hh:mm');
    expect(sheet.getRow(2).getCell(1).value).toBe('RP-A');
    expect(sheet.rowCount).toBe(2);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.autoFilter).toBeTruthy();
  });

  it('counts a device that moved in the period where it is now, and each replacement where it happened', async () => {
    const m = await device(other, 'RP-M', 'MFP');
    await t.ctx.db.execute(sql`UPDATE devices SET color_type = 'COLOR', paper_format = 'A3' WHERE id = ${m}`);
    const day = (d: string, loc: number, total: number) =>
      t.ctx.db.execute(sql`INSERT INTO dm_device_days (fact_date, device_id, location_id, readings, status_code, total_start, total_count, mono_count, color_count)
        VALUES (${d}::date, ${m}, ${loc}, 1, 'OK', ${total}, ${total}, ${total / 2}, ${total / 2})`);
    await day('2026-08-31', other, 1000);
    await day('2026-09-10', other, 1200);
    await replaced(m, other, '2026-09-10T09:00:00Z');
    // Moved to the operator's location on the 15th.
    await t.ctx.db.execute(sql`UPDATE devices SET location_id = ${mine} WHERE id = ${m}`);
    await day('2026-09-20', mine, 1500);
    await replaced(m, mine, '2026-09-20T09:00:00Z');
    const period = 'from=2026-09-01&to=2026-09-30';
    const counters = (await get(operator, `/api/reports/device-counters?${period}`)).json();
    expect(counters.find((r: { serialNumber: string }) => r.serialNumber === 'RP-M')).toMatchObject({ location: 'Location RP_MINE', totalStart: 1000, totalEnd: 1500, totalDiff: 500, bwDiff: 250, colorDiff: 250, reason: null });
    const availability = (await get(operator, `/api/reports/device-availability?${period}`)).json();
    expect(availability.find((r: { serialNumber: string }) => r.serialNumber === 'RP-M')).toMatchObject({ daysCount: 30, daysSeen: 2, daysAvailable: 2, availability: 6.7 });
    // The replacement made before the move stays with the location it was made at.
    const mineReplacements = (await get(operator, `/api/reports/part-replacements?${period}`)).json();
    expect(mineReplacements.filter((r: { serialNumber: string }) => r.serialNumber === 'RP-M').map((r: { replacementDate: string }) => r.replacementDate)).toEqual(['2026-09-20T09:00:00.000Z']);
    const all = (await get(t.admin, `/api/reports/part-replacements?${period}&colorType=COLOR&paperFormat=A3`)).json();
    expect(all.map((r: { serialNumber: string; location: string }) => `${r.serialNumber}@${r.location}`)).toEqual(['RP-M@Location RP_OTHER', 'RP-M@Location RP_MINE']);
    expect((await get(t.admin, `/api/reports/part-replacements?${period}&paperFormat=A4`)).json().filter((r: { serialNumber: string }) => r.serialNumber === 'RP-M')).toEqual([]);
    await t.ctx.db.execute(sql`DELETE FROM devices WHERE id = ${m}`);
  });

  it('charts pages per location and month, and devices read and working per day, within the caller\'s locations', async () => {
    const c = await device(mine, 'RP-CH', 'MFP');
    const o = await device(other, 'RP-CO', 'MFP');
    const day = (id: number, loc: number, d: string, bw: number, color: number, status = 'OK') =>
      t.ctx.db.execute(sql`INSERT INTO dm_device_days (fact_date, device_id, location_id, readings, status_code, total_start, total_count, mono_count, color_count)
        VALUES (${d}::date, ${id}, ${loc}, 1, ${status}, ${bw + color}, ${bw + color}, ${bw}, ${color})`);
    await day(c, mine, '2025-05-31', 100, 10);
    await day(c, mine, '2025-06-10', 150, 20);
    await day(c, mine, '2025-06-30', 5, 1, 'ERROR'); // a reset: adds nothing
    await day(c, mine, '2025-07-02', 25, 4);
    await day(o, other, '2025-06-10', 1000, 0);
    await day(o, other, '2025-06-11', 1300, 0);
    const period = 'from=2025-06-01&to=2025-07-31';
    const months = (await get(t.admin, `/api/reports/device-counters/months?${period}`)).json();
    expect(months).toEqual([
      { location: 'Location RP_MINE', month: '2025-06', bw: 50, color: 10 },
      { location: 'Location RP_OTHER', month: '2025-06', bw: 300, color: 0 },
      { location: 'Location RP_MINE', month: '2025-07', bw: 20, color: 3 },
    ]);
    expect((await get(operator, `/api/reports/device-counters/months?${period}`)).json().map((m: { location: string }) => m.location)).not.toContain('Location RP_OTHER');
    const days = (await get(operator, '/api/reports/device-availability/days?from=2025-06-09&to=2025-06-11')).json();
    // The operator's location has RP-A and RP-CH.
    expect(days).toEqual([
      { day: '2025-06-09', devices: 2, seen: 0, available: 0 },
      { day: '2025-06-10', devices: 2, seen: 1, available: 1 },
      { day: '2025-06-11', devices: 2, seen: 0, available: 0 },
    ]);
    expect((await get(operator, `/api/reports/device-availability/days?${period}&location=${other}`)).statusCode).toBe(403);
    await t.ctx.db.execute(sql`DELETE FROM devices WHERE id IN (${c}, ${o})`);
  });
});

/**
 * Files that open right (issue 43): in the caller's language, a CSV has the column names the
 * grid shows, that language's separator, decimal mark and dates; a field with the separator, a
 * quote or a line break is quoted. `headers=codes` heads it with the attachment names.
 */
describe('report files in the caller\'s language', () => {
  let here: number;
  const availability = (lang: string, more = '') => {
    const filter = { from: '2026-11-01', to: '2026-11-03', location: [here], columns: ['location', 'modelCode', 'serialNumber', 'availability', 'lastSeen', 'daysCount'] };
    return get(t.admin, `/api/reports/download/1/CSV?filter=${encodeURIComponent(JSON.stringify(filter))}${more}`, lang);
  };
  beforeAll(async () => {
    here = await addLocation(t.ctx.db, 'RP_CSV');
    await t.ctx.db.execute(sql`UPDATE locations SET name = 'Hall, east' WHERE id = ${here}`);
    const [d] = await sqlRows<{ id: number }>(t.ctx.db, sql`INSERT INTO devices (location_id, ip, serial_number, model_code, refreshed_at)
      VALUES (${here}, '127.0.0.6', 'CSV-1', 'Laser; "Pro"', '2026-11-03T14:05:09Z') RETURNING id`);
    for (const [day, status] of [['2026-11-01', 'OK'], ['2026-11-02', 'WARNING'], ['2026-11-03', 'ERROR']]) {
      await t.ctx.db.execute(sql`INSERT INTO dm_device_days (fact_date, device_id, location_id, readings, status_code) VALUES (${day}::date, ${Number(d.id)}, ${here}, 1, ${status})`);
    }
  });

  it('writes English with commas, ISO dates and a decimal point', async () => {
    const res = await availability('en');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('\uFEFFLocation,Model,Serial number,Availability,Last read,Days\r\n"Hall, east","Laser; ""Pro""",CSV-1,66.7,2026-11-03 14:05,3\r\n');
  });

  it('writes Russian with semicolons, dd.mm.yyyy dates and a decimal comma', async () => {
    const res = await availability('ru-RU,ru;q=0.9');
    expect(res.body).toBe('\uFEFFРасположение;Модель;Серийный номер;Доступность;Последний опрос;Дней\r\nHall, east;"Laser; ""Pro""";CSV-1;66,7;03.11.2026 14:05;3\r\n');
  });

  it('heads the columns with their attachment names on headers=codes, in either language', async () => {
    expect((await availability('ru', '&headers=codes')).body.split('\r\n')[0]).toBe('\uFEFFlocation;modelCode;serialNumber;availability;lastSeen;daysCount');
    expect((await availability('en', '&headers=codes')).body.split('\r\n')[0]).toBe('\uFEFFlocation,modelCode,serialNumber,availability,lastSeen,daysCount');
    expect((await availability('en', '&headers=titles')).body.split('\r\n')[0]).toBe('\uFEFFLocation,Model,Serial number,Availability,Last read,Days');
  });

  it('documents headers in the OpenAPI schema', async () => {
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json();
    const param = doc.paths['/api/reports/download/{reportId}/{formatCode}'].get.parameters.find((p: { name: string; in: string }) => p.name === 'headers' && p.in === 'query');
    expect(param.schema).toMatchObject({ enum: ['titles', 'codes'], default: 'titles' });
    expect(param.description ?? param.schema.description).toMatch(/attachment names/);
  });

  it('refuses another headers value on its field, in the caller\'s language', async () => {
    const en = await availability('en', '&headers=names');
    expect(en.statusCode).toBe(400);
    expect(en.json().details).toEqual([{ field: 'querystring.headers', message: 'Invalid value' }]);
    const ru = await availability('ru', '&headers=names');
    expect(ru.statusCode).toBe(400);
    expect(ru.json().details).toEqual([{ field: 'querystring.headers', message: 'Неверное значение' }]);
  });

  it('names a Russian XLSX\'s sheet and columns in Russian, its dates real dates shown as dd.mm.yyyy', async () => {
    const filter = { from: '2026-11-01', to: '2026-11-03', location: [here], columns: ['serialNumber', 'availability', 'lastSeen'] };
    const res = await get(t.admin, `/api/reports/download/1/XLSX?filter=${encodeURIComponent(JSON.stringify(filter))}`, 'ru');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet.name).toBe('Доступность устройств');
    expect(sheet.getRow(1).values).toEqual([undefined, 'Серийный номер', 'Доступность', 'Последний опрос']);
    expect(sheet.getRow(2).values).toEqual([undefined, 'CSV-1', 66.7, new Date('2026-11-03T14:05:09.000Z')]);
    expect(sheet.getRow(2).getCell(3).numFmt).toBe('dd.mm.yyyy hh:mm');
  });
});
