import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { bearer, signedInAs, testApp } from '../../test/test-app.ts';
import { addLocation } from '../../test/scope-fixture.ts';
import { sqlRows } from '../../test/sql-rows.ts';

/**
 * Billing runs (issue 54) on generated histories whose every figure is known: each device's
 * meters climb by a fixed number of pages a day from 1 August 2026, so the read on any day is
 * a line. October 2026 is billed (opening at the end of 30 September, closing at 31 October).
 */
const t = testApp();
let mine: number;
let child: number;
let other: number;
let contract: number;
let otherContract: number;

const START = Date.parse('2026-08-01T00:00:00Z');
const dayIndex = (d: string) => (Date.parse(`${d}T00:00:00Z`) - START) / 86_400_000;
const dayOf = (i: number) => new Date(START + i * 86_400_000).toISOString().slice(0, 10);
/** A device's total and colour on a day: `base + rate × days since 1 August`. */
const total = (rate: number, d: string) => 1000 + rate * dayIndex(d);
const colour = (rate: number, d: string) => 300 + Math.floor(rate / 5) * dayIndex(d);

async function device(location: number, serial: string, ip: string): Promise<number> {
  const [d] = await sqlRows<{ id: number }>(t.ctx.db, sql`INSERT INTO devices (location_id, ip, serial_number, model_code, device_type, color_type)
    VALUES (${location}, ${ip}, ${serial}, 'Colour MFP 54', 'MFP', 'COLOR') RETURNING id`);
  return Number(d!.id);
}
/** Days `from`..`to` of a device's history, except those `skip` says. */
async function history(id: number, location: number, rate: number, from: string, to: string, skip: (d: string) => boolean = () => false) {
  const rows = [];
  for (let i = dayIndex(from); i <= dayIndex(to); i++) {
    const d = dayOf(i);
    if (skip(d)) continue;
    const tot = total(rate, d);
    const col = colour(rate, d);
    rows.push({ d, tot, mono: tot - col, col });
  }
  await t.ctx.db.execute(sql`INSERT INTO dm_device_days (fact_date, device_id, location_id, readings, status_code, total_start, total_count, mono_count, color_count)
    SELECT x.d, ${id}, ${location}, 1, 'OK', x.tot, x.tot, x.mono, x.col FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(d date, tot bigint, mono bigint, col bigint)`);
}

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, token = t.admin, lang = 'en') =>
  t.app.inject({ method, url, payload: payload as Record<string, unknown>, headers: { ...bearer(token), 'accept-language': lang } });
const ok = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown, token = t.admin) => {
  const res = await call(method, url, payload, token);
  expect(res.statusCode, res.body.slice(0, 400)).toBe(200);
  return res.json();
};
const CONTRACT = {
  name: 'Front office', billingDay: 1, period: 'MONTHLY', currency: 'EUR', baseFee: '50.00', startsOn: '2026-01-01', endsOn: null,
  prices: [{ meter: 'total', price: '0.01', includedPages: 100 }, { meter: 'color', price: '0.05', includedPages: 0 }],
};
type Line = { meter: string; opening: { value: number; date: string; source: string }; closing: { value: number; date: string; source: string }; pages: number; amountMinor: number };
type Dev = { id: number; serialNumber: string; flags: string[]; estimated: boolean; amountMinor: number; meters: Line[]; from: string; to: string };
const byMeter = (d: Dev, m: string) => d.meters.find((l) => l.meter === m)!;

beforeAll(async () => {
  mine = await addLocation(t.ctx.db, 'BILL_MINE');
  child = await addLocation(t.ctx.db, 'BILL_CHILD', 'BILL_MINE');
  other = await addLocation(t.ctx.db, 'BILL_OTHER');
  // BR-1 read every day; BR-2 silent after 20 October (closing estimated from its rate);
  // BR-5 unread from 22 September to 5 October (opening estimated between the reads either side).
  await history(await device(mine, 'BR-1', '127.0.0.51'), mine, 100, '2026-08-01', '2026-11-30');
  await history(await device(mine, 'BR-2', '127.0.0.52'), mine, 50, '2026-08-01', '2026-10-20');
  await history(await device(mine, 'BR-5', '127.0.0.55'), mine, 40, '2026-08-01', '2026-11-30', (d) => d >= '2026-09-22' && d <= '2026-10-05');
  // BR-3 moved on 16 October to another agent's network below (another device row, another IP): one history by serial.
  await history(await device(mine, 'BR-3', '127.0.0.53'), mine, 20, '2026-08-01', '2026-10-15');
  await history(await device(child, 'BR-3', '127.0.0.63'), child, 20, '2026-10-16', '2026-11-30');
  // BR-4 joins on 10 October and leaves on 20 October.
  await history(await device(mine, 'BR-4', '127.0.0.54'), mine, 10, '2026-08-01', '2026-11-30');
  await history(await device(other, 'BR-OTHER', '127.0.0.59'), other, 10, '2026-08-01', '2026-11-30');
  // A jump flagged at ingest on BR-1 in October: to be reviewed before the run closes.
  const [br1] = await sqlRows<{ id: number }>(t.ctx.db, sql`SELECT id FROM devices WHERE serial_number = 'BR-1'`);
  await t.ctx.db.execute(sql`INSERT INTO meter_flags (device_id, at, kind, meter, previous_value, value) VALUES (${br1!.id}, '2026-10-15T10:00:00Z', 'JUMP', 'total', 1, 2)`);

  contract = (await ok('POST', '/api/contracts', { ...CONTRACT, locationId: mine })).id;
  for (const serial of ['BR-1', 'BR-2', 'BR-3', 'BR-5']) await ok('POST', `/api/contracts/${contract}/devices`, { serialNumber: serial, equipmentId: `EQ-${serial}`, joinedOn: '2026-01-01' });
  await ok('POST', `/api/contracts/${contract}/devices`, { serialNumber: 'br-4', joinedOn: '2026-10-10', leftOn: '2026-10-20' });
  otherContract = (await ok('POST', '/api/contracts', { ...CONTRACT, name: 'Other customer', locationId: other })).id;
  await ok('POST', `/api/contracts/${otherContract}/devices`, { serialNumber: 'BR-OTHER', joinedOn: '2026-01-01' });
});

describe('billing runs (issue 54)', () => {
  let run: { id: number; devices: Dev[]; totalMinor: number; toReview: number; state: string };
  const dev = (serial: string) => run.devices.find((d) => d.serialNumber.toUpperCase() === serial)!;

  it('takes the last read on or before each boundary, with its day and source, and bills the pages past the included ones', async () => {
    run = await ok('POST', `/api/contracts/${contract}/runs`, { periodFrom: '2026-10-01' });
    expect(run).toMatchObject({ periodFrom: '2026-10-01', periodTo: '2026-10-31', state: 'OPEN', currency: 'EUR', baseFeeMinor: 5000 });
    const br1 = dev('BR-1');
    expect(byMeter(br1, 'total')).toMatchObject({
      opening: { value: total(100, '2026-09-30'), date: '2026-09-30', source: 'READ' }, closing: { value: total(100, '2026-10-31'), date: '2026-10-31', source: 'READ' },
      pages: 3100, includedPages: 100, billablePages: 3000, price: '0.01', amountMinor: 3000,
    });
    expect(byMeter(br1, 'color')).toMatchObject({ pages: 31 * 20, amountMinor: 31 * 20 * 5 });
    expect(br1).toMatchObject({ flags: ['JUMP'], estimated: false, amountMinor: 3000 + 3100, amount: '61.00' });
  });

  it('estimates a boundary not read near it from the daily rate, and marks it so', async () => {
    const br2 = dev('BR-2');
    expect(byMeter(br2, 'total').closing).toEqual({ value: total(50, '2026-10-31'), date: '2026-10-31', source: 'ESTIMATED' });
    expect(byMeter(br2, 'total').opening.source).toBe('READ');
    expect(br2.estimated).toBe(true);
    const br5 = dev('BR-5');
    expect(byMeter(br5, 'total').opening).toEqual({ value: total(40, '2026-09-30'), date: '2026-09-30', source: 'ESTIMATED' });
    expect(byMeter(br5, 'total').pages).toBe(31 * 40);
  });

  it('follows a device by serial across a move to another agent and IP, and bills a device for the days it was on the contract', async () => {
    const br3 = dev('BR-3');
    expect(byMeter(br3, 'total')).toMatchObject({ opening: { value: total(20, '2026-09-30'), source: 'READ' }, closing: { value: total(20, '2026-10-31'), source: 'READ' }, pages: 31 * 20 });
    const br4 = dev('BR-4');
    expect(br4).toMatchObject({ from: '2026-10-10', to: '2026-10-20' });
    expect(byMeter(br4, 'total')).toMatchObject({ opening: { date: '2026-10-09', value: total(10, '2026-10-09') }, closing: { date: '2026-10-20', value: total(10, '2026-10-20') }, pages: 110 });
    // Money in minor units, summed as integers: the base fee and every device.
    expect(run.totalMinor).toBe(5000 + run.devices.reduce((s, d) => s + d.amountMinor, 0));
  });

  it('gives the same figures when run again, and closes only once every flag is reviewed', async () => {
    const again = await ok('POST', `/api/billing-runs/${run.id}/rerun`);
    const figures = (r: typeof run) => r.devices.map(({ id: _id, ...d }) => d);
    expect(figures(again)).toEqual(figures(run));
    expect(again.toReview).toBe(1);
    const early = await call('POST', `/api/billing-runs/${run.id}/close`);
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toContain('1 flagged');
    const clean = again.devices.find((d: Dev) => d.serialNumber === 'BR-2')!;
    expect((await call('POST', `/api/billing-runs/${run.id}/devices/${clean.id}/review`, { note: 'fine' })).statusCode).toBe(409);
    const flagged = again.devices.find((d: Dev) => d.serialNumber === 'BR-1')!;
    expect((await call('POST', `/api/billing-runs/${run.id}/devices/${flagged.id}/review`, { note: '' })).statusCode).toBe(400);
    const reviewed = await ok('POST', `/api/billing-runs/${run.id}/devices/${flagged.id}/review`, { note: 'Toner test pages, billed' });
    expect(reviewed.toReview).toBe(0);
    // A re-run keeps a review whose flags did not change.
    expect((await ok('POST', `/api/billing-runs/${run.id}/rerun`)).toReview).toBe(0);
    const channel = await ok('POST', '/api/settings/notification-channels', { kind: 'WEBHOOK', name: 'ERP hook', target: 'http://127.0.0.1:9/hook', secret: 'billing-signing-key-0001', enabled: true, allowInternal: true });
    const closed = await ok('POST', `/api/billing-runs/${run.id}/close`);
    expect(closed).toMatchObject({ state: 'CLOSED', closedBy: 'admin' });
    const [message] = await sqlRows<{ payload: { type: string; facts: Record<string, string>; locationId: number } }>(t.ctx.db, sql`SELECT payload FROM notification_messages WHERE channel_id = ${channel.id}`);
    expect(message!.payload).toMatchObject({ type: 'BILLING_RUN_CLOSED', locationId: mine, facts: { runId: String(run.id), periodFrom: '2026-10-01', periodTo: '2026-10-31', currency: 'EUR', total: (closed.totalMinor / 100).toFixed(2), devices: '5' } });
  });

  it('never changes a closed run: late reads and corrections do not touch it, and it cannot be run or reviewed again', async () => {
    const before = await ok('GET', `/api/billing-runs/${run.id}`);
    const [br2] = await sqlRows<{ id: number }>(t.ctx.db, sql`SELECT id FROM devices WHERE serial_number = 'BR-2'`);
    await t.ctx.db.execute(sql`INSERT INTO dm_device_days (fact_date, device_id, location_id, readings, total_start, total_count, mono_count, color_count)
      VALUES ('2026-10-30', ${br2!.id}, ${mine}, 1, 99999, 99999, 90000, 9999)`);
    expect((await call('POST', `/api/billing-runs/${run.id}/rerun`)).statusCode).toBe(409);
    expect((await call('POST', `/api/billing-runs/${run.id}/close`)).statusCode).toBe(409);
    expect((await call('POST', `/api/contracts/${contract}/runs`, { periodFrom: '2026-10-01' })).statusCode).toBe(409);
    expect(await ok('GET', `/api/billing-runs/${run.id}`)).toEqual(before);
  });

  it('opens the next period at the closed run\'s closing reads', async () => {
    const nov = await ok('POST', `/api/contracts/${contract}/runs`, { periodFrom: '2026-11-01' });
    const br1 = nov.devices.find((d: Dev) => d.serialNumber === 'BR-1')!;
    expect(byMeter(br1, 'total').opening).toEqual({ value: total(100, '2026-10-31'), date: '2026-10-31', source: 'PREVIOUS_RUN' });
    // BR-4 left in October: not billed in November.
    expect(nov.devices.map((d: Dev) => d.serialNumber)).not.toContain('br-4');
    expect((await call('POST', `/api/contracts/${contract}/runs`, { periodFrom: '2026-11-02' })).json().details[0].field).toBe('periodFrom');
  });

  it('writes the ERP meter-import file: a fixed header, one row per device and meter with its closing read', async () => {
    const res = await call('GET', `/api/billing-runs/${run.id}/files/erp`, undefined, t.admin, 'ru');
    expect(res.statusCode).toBe(200);
    const lines = res.body.trim().split('\r\n');
    expect(lines[0]).toBe('equipment_id,serial_number,meter,meter_code,read,read_date,source');
    expect(lines).toContain(`EQ-BR-1,BR-1,total,101,${total(100, '2026-10-31')},2026-10-31,READ`);
    expect(lines).toContain(`EQ-BR-2,BR-2,total,101,${total(50, '2026-10-31')},2026-10-31,ESTIMATED`);
    expect(lines).toContain(`EQ-BR-1,BR-1,color,,${colour(100, '2026-10-31')},2026-10-31,READ`);
    expect(lines).toHaveLength(1 + 5 * 2);
  });

  it('writes the run as CSV and XLSX in the user\'s language', async () => {
    const ru = await call('GET', `/api/billing-runs/${run.id}/files/csv`, undefined, t.admin, 'ru');
    const head = ru.body.replace(/^\uFEFF/, '').split('\r\n')[0];
    expect(head.split(';').slice(0, 4)).toEqual(['Код оборудования', 'Серийный номер', 'Модель', 'Счётчик']);
    expect(ru.body).toContain('Оценка');
    expect(ru.body).toContain('30.09.2026');
    const en = await call('GET', `/api/billing-runs/${run.id}/files/xlsx`);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(en.rawPayload as unknown as ArrayBuffer);
    const heads = (book.worksheets[0]!.getRow(1).values as unknown[]).slice(1);
    expect(heads).toContain('Opening read date');
    expect(book.worksheets[0]!.rowCount).toBe(1 + 5 * 2);
  });

  it('answers a read on or before a day by serial, across the device\'s moves', async () => {
    const r = await ok('GET', '/api/contracts/reads?serial=br-3&date=2026-10-20');
    expect(r).toMatchObject({ date: '2026-10-20', meters: { total: total(20, '2026-10-20') } });
    expect((await call('GET', '/api/contracts/reads?serial=BR-3&date=2026-07-01')).statusCode).toBe(404);
    expect((await call('GET', '/api/contracts/reads?serial=BR-3&date=20261020')).statusCode).toBe(400);
  });
});

describe('contracts within the caller\'s locations (issue 54)', () => {
  it('never lets an operator of one location see or bill another\'s contract, directly or by serial', async () => {
    const op = await signedInAs(t, { login: 'bill-op', role: 'OPERATOR', locationIds: [mine] });
    const listed = (await ok('GET', '/api/contracts', undefined, op)) as { id: number }[];
    expect(listed.map((c) => c.id)).toContain(contract);
    expect(listed.map((c) => c.id)).not.toContain(otherContract);
    expect((await call('GET', `/api/contracts/${otherContract}`, undefined, op)).statusCode).toBe(404);
    expect((await call('GET', `/api/contracts/${otherContract}/runs`, undefined, op)).statusCode).toBe(404);
    expect((await call('GET', '/api/contracts/reads?serial=BR-OTHER&date=2026-10-20', undefined, op)).statusCode).toBe(404);
    // An operator reads only; an admin of A cannot put B's device on A's contract (the serial is not in A's locations).
    expect((await call('POST', `/api/contracts/${contract}/runs`, { periodFrom: '2026-12-01' }, op)).statusCode).toBe(403);
    const admin = await signedInAs(t, { login: 'bill-admin', role: 'ADMIN', locationIds: [mine] });
    const byOther = await call('POST', `/api/contracts/${contract}/devices`, { serialNumber: 'BR-OTHER', joinedOn: '2026-01-01' }, admin);
    expect(byOther.statusCode).toBe(400);
    expect(byOther.json().details[0]).toMatchObject({ field: 'serialNumber' });
    expect((await call('POST', `/api/contracts/${otherContract}/runs`, { periodFrom: '2026-10-01' }, admin)).statusCode).toBe(404);
    expect((await call('POST', '/api/contracts', { ...CONTRACT, locationId: other }, admin)).statusCode).toBe(403);
    const [otherRun] = (await ok('POST', `/api/contracts/${otherContract}/runs`, { periodFrom: '2026-10-01' })).devices as Dev[];
    expect(otherRun!.serialNumber).toBe('BR-OTHER');
    const runs = (await ok('GET', `/api/contracts/${otherContract}/runs`)) as { id: number }[];
    expect((await call('GET', `/api/billing-runs/${runs[0]!.id}`, undefined, admin)).statusCode).toBe(404);
    expect((await call('GET', `/api/billing-runs/${runs[0]!.id}/files/erp`, undefined, op)).statusCode).toBe(404);
  });

  it('refuses bad input with the field named in the user\'s language, and needs a session', async () => {
    expect((await t.app.inject({ url: '/api/contracts' })).statusCode).toBe(401);
    const bad = await call('POST', '/api/contracts', { ...CONTRACT, locationId: mine, currency: 'euro', billingDay: 31, prices: [{ meter: 'total', price: '0.1.2', includedPages: -1 }] }, t.admin, 'ru');
    expect(bad.statusCode).toBe(400);
    const fields = (bad.json().details as { field: string; message: string }[]).map((f) => f.field);
    expect(fields).toEqual(expect.arrayContaining(['currency', 'billingDay', 'prices.0.price', 'prices.0.includedPages']));
    expect(JSON.stringify(bad.json())).toContain('День месяца от 1 до 28');
    const twice = await call('POST', '/api/contracts', { ...CONTRACT, locationId: mine, prices: [CONTRACT.prices[0], CONTRACT.prices[0]] });
    expect(twice.statusCode).toBe(400);
    expect((await call('POST', '/api/contracts', { ...CONTRACT, locationId: mine, name: 'x'.repeat(201) })).statusCode).toBe(400);
    expect((await call('POST', '/api/contracts', { ...CONTRACT, locationId: mine, startsOn: '2026-05-01', endsOn: '2026-04-01' })).json().details[0].field).toBe('endsOn');
  });
});

describe('included pages per device or pooled over the contract (issue 54)', () => {
  // October: BR-1 prints 3100 pages (100 a day), BR-3 620 (20 a day); 3500 included total pages at 0.01.
  const POOL = { ...CONTRACT, name: 'Pool', baseFee: '0.00', prices: [{ meter: 'total', price: '0.01', includedPages: 3500 }] };
  let pool: number;
  const october = async () => (await ok('POST', `/api/contracts/${pool}/runs`, { periodFrom: '2026-10-01' })) as { id: number; totalMinor: number; devices: Dev[] };

  beforeAll(async () => {
    pool = (await ok('POST', '/api/contracts', { ...POOL, locationId: mine, includedPages: 'POOLED' })).id;
    for (const serial of ['BR-3', 'BR-1']) await ok('POST', `/api/contracts/${pool}/devices`, { serialNumber: serial, joinedOn: '2026-01-01' });
  });

  it('gives a pooled contract\'s included pages to its devices in serial order until spent: the contract bills its pages past them', async () => {
    const run = await october();
    const line = (serial: string) => byMeter(run.devices.find((d) => d.serialNumber === serial)!, 'total') as Line & { includedPages: number; billablePages: number };
    expect(line('BR-1')).toMatchObject({ pages: 3100, includedPages: 3100, billablePages: 0, amountMinor: 0 });
    expect(line('BR-3')).toMatchObject({ pages: 620, includedPages: 400, billablePages: 220, amountMinor: 220 });
    // 3720 pages, 3500 included: 220 at 0.01 is 2.20.
    expect(run.totalMinor).toBe(220);
  });

  it('counts them per device when the contract says so: a re-run follows the setting', async () => {
    const c = await ok('GET', `/api/contracts/${pool}`);
    expect(c.includedPages).toBe('POOLED');
    const { id: _id, locationName: _l, deviceCount: _n, createdAt: _c, ...input } = c;
    await ok('PUT', `/api/contracts/${pool}`, { ...input, includedPages: 'PER_DEVICE' });
    const [run] = (await ok('GET', `/api/contracts/${pool}/runs`)) as { id: number }[];
    const again = (await ok('POST', `/api/billing-runs/${run!.id}/rerun`)) as { totalMinor: number; devices: Dev[] };
    // Each device has 3500 of its own: neither 3100 nor 620 pages reach them.
    expect(again.totalMinor).toBe(0);
    expect(again.devices.map((d) => (byMeter(d, 'total') as unknown as { includedPages: number }).includedPages)).toEqual([3500, 3500]);
    expect((await ok('GET', `/api/contracts/${contract}`)).includedPages).toBe('PER_DEVICE');
    expect((await call('PUT', `/api/contracts/${pool}`, { ...input, includedPages: 'SHARED' })).json().details[0].field).toBe('includedPages');
  });

  it('deletes a contract with open runs only, and refuses one with a closed run, saying why in the user\'s language', async () => {
    const refused = await call('DELETE', `/api/contracts/${contract}`, undefined, t.admin, 'ru');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain('закрытые расчёты (1)');
    expect((await call('GET', `/api/contracts/${contract}`)).statusCode).toBe(200);
    const deleted = await call('DELETE', `/api/contracts/${pool}`);
    expect(deleted.statusCode).toBeLessThan(300);
    expect((await call('GET', `/api/contracts/${pool}`)).statusCode).toBe(404);
  });
});
