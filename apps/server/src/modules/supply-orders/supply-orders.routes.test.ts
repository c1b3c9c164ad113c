import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { bearer, signedInAs, testApp } from '../../test/test-app.ts';
import { addLocation } from '../../test/scope-fixture.ts';
import { sqlRows } from '../../test/sql-rows.ts';
import { agentReading, batch, createAgent, post } from '../ingest/ingest.fixtures.ts';
import { supplySuggestionSchema } from '@pagewatch/contracts/supply-orders';
import { suggestions } from './supply-orders.repository.ts';

/**
 * Supplies to order (issue 45) on a generated fleet whose run-out days are known: what is
 * suggested (within the location's lead time plus margin, or already low; grouped by part model;
 * none with an open order), one open order per supply however many order at once, the life of
 * an order in the event log, installation by the device's replacement event, the file, the
 * settings, and who may do what.
 */
const t = testApp();
let boss: string;
let operator: string;
let here: number;
let there: number;
const serials = new Map<string, number>();

const call = (token: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, lang = 'en') =>
  t.app.inject({ method, url, payload: payload as never, headers: { ...bearer(token), 'accept-language': lang } });
/** A device at the location with one black toner: its level and, when given, the day it runs out (days from today). */
const device = async (locationId: number, serial: string, part: string, level: number | null, runsOutIn: number | null) => {
  const [d] = await sqlRows<{ id: number }>(t.ctx.db, sql`INSERT INTO devices (location_id, ip, serial_number, model_code) VALUES (${locationId}, '127.0.45.9', ${serial}, 'M') RETURNING id`);
  const runsOut = runsOutIn === null ? null : sql`current_date + ${runsOutIn}::int`;
  await t.ctx.db.execute(sql`INSERT INTO consumables (device_id, supply_index, part_code, part_name, part_model_code, level, refreshed_at, runs_out_on)
    VALUES (${d.id}, 1, 'toner', 'Black toner', ${part}, ${level}, now(), ${runsOut})`);
  serials.set(serial, Number(d.id));
  return Number(d.id);
};
const suggested = async (token = boss, query = '') => {
  const res = await call(token, 'GET', `/api/supply-orders/suggestions${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { locationId: number; partModelCode: string; count: number; supplies: { deviceId: number }[] }[];
};
const suggestedSerials = async (token = boss) => (await suggested(token)).flatMap((g) => g.supplies.map((s) => [...serials].find(([, id]) => id === s.deviceId)?.[0])).sort();
const logOf = (code: string) => sqlRows<{ message: string; object_id: number }>(t.ctx.db, sql`SELECT message, object_id FROM event_logs WHERE message_code = ${code} ORDER BY id`);

beforeAll(async () => {
  here = await addLocation(t.ctx.db, 'SO_HERE');
  there = await addLocation(t.ctx.db, 'SO_THERE');
  boss = await signedInAs(t, { login: 'so_boss', role: 'ADMIN', locationIds: [here] });
  operator = await signedInAs(t, { login: 'so_op', role: 'OPERATOR', locationIds: [here] });
  // Lead time 7 + margin 7 by default: 14 days ahead.
  await device(here, 'SOON', 'TN-1', 40, 5);
  await device(here, 'EDGE', 'TN-1', 40, 14);
  await device(here, 'LATER', 'TN-1', 60, 20);
  await device(here, 'LOW', 'TN-2', 5, null);
  await device(here, 'FULL', 'TN-2', 90, null);
  await device(there, 'FAR', 'TN-1', 30, 2);
});

describe('what to order', () => {
  it('lists what runs out within lead time plus margin or is already low, grouped by part model, in the caller\'s locations only', async () => {
    const groups = await suggested();
    expect(groups.map((g) => [g.locationId, g.partModelCode, g.count])).toEqual([[here, 'TN-1', 2], [here, 'TN-2', 1]]);
    expect(await suggestedSerials()).toEqual(['EDGE', 'LOW', 'SOON']);
    // The root sees both locations; one location asked for is that one alone.
    expect((await suggested(t.admin)).map((g) => g.locationId).sort()).toEqual([here, here, there].sort());
    expect((await suggested(t.admin, `?location=${there}`)).map((g) => g.count)).toEqual([1]);
    expect((await call(boss, 'GET', `/api/supply-orders/suggestions?location=${there}`)).statusCode).toBe(403);
  });

  it('answers with the JSON PostgreSQL writes, in the schema\'s types and the list\'s order: the same lines and supplies as the rows the file is made of', async () => {
    await device(there, 'FAR2', 'TN-0', null, 1);
    await t.ctx.db.execute(sql`UPDATE consumables SET level_state = 'LOW' WHERE device_id = ${serials.get('FAR2')!}`);
    const res = await call(t.admin, 'GET', '/api/supply-orders/suggestions');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = res.json();
    expect(body).toEqual(supplySuggestionSchema.array().parse(await suggestions(t.ctx.db, null)));
    expect(body.map((g: { locationId: number; partModelCode: string }) => [g.locationId, g.partModelCode])).toEqual([[here, 'TN-1'], [here, 'TN-2'], [there, 'TN-0'], [there, 'TN-1']]);
    expect(body[2]).toEqual({ id: `${there}:TN-0:toner`, locationId: there, locationName: expect.any(String), partModelCode: 'TN-0', partCode: 'toner', count: 1, earliest: expect.any(String),
      supplies: [{ deviceId: serials.get('FAR2'), supplyIndex: 1, serialNumber: 'FAR2', ip: '127.0.45.9', partName: 'Black toner', level: null, runsOutOn: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) }] });
    await t.ctx.db.execute(sql`DELETE FROM consumables WHERE device_id = ${serials.get('FAR2')!}`);
    await t.ctx.db.execute(sql`DELETE FROM devices WHERE id = ${serials.get('FAR2')!}`);
    serials.delete('FAR2');
  });

  it('follows the location\'s lead time and margin; bad days are refused by field, in the caller\'s language', async () => {
    const bad = await call(boss, 'PUT', `/api/supply-orders/settings/${here}`, { leadDays: 400, marginDays: 7 }, 'ru');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toEqual([expect.objectContaining({ field: 'leadDays', message: 'Целое число дней от 0 до 365' })]);
    expect((await call(boss, 'PUT', `/api/supply-orders/settings/${here}`, { leadDays: 7, marginDays: 7, supplierEmail: 'nope' })).json().details[0].field).toBe('supplierEmail');
    expect((await call(boss, 'PUT', `/api/supply-orders/settings/${there}`, { leadDays: 1, marginDays: 1 })).statusCode).toBe(403);
    expect((await call(operator, 'PUT', `/api/supply-orders/settings/${here}`, { leadDays: 1, marginDays: 1 })).statusCode).toBe(403);

    const saved = await call(boss, 'PUT', `/api/supply-orders/settings/${here}`, { leadDays: 14, marginDays: 7, supplierEmail: 'supplies@example.com' });
    expect(saved.json()).toMatchObject({ locationId: here, leadDays: 14, marginDays: 7, supplierEmail: 'supplies@example.com', effectiveEmail: 'supplies@example.com' });
    expect(await suggestedSerials()).toEqual(['EDGE', 'LATER', 'LOW', 'SOON']);
    await call(boss, 'PUT', `/api/supply-orders/settings/${here}`, { leadDays: 7, marginDays: 7, supplierEmail: 'supplies@example.com' });
    expect(await suggestedSerials()).toEqual(['EDGE', 'LOW', 'SOON']);
    expect((await logOf('supplyOrder.settings')).length).toBe(2);
  });

  it('exports the list as CSV and XLSX in the caller\'s language', async () => {
    const csv = await call(boss, 'GET', '/api/supply-orders/suggestions/csv', undefined, 'ru');
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('Расположение;Модель расходника;Тип расходника;Заказать;Первым закончится');
    expect(lines.slice(1).map((l) => l.split(';').slice(1, 4).join(';'))).toEqual(['TN-1;toner;2', 'TN-2;toner;1']);

    const xlsx = await call(boss, 'GET', '/api/supply-orders/suggestions/xlsx');
    expect(xlsx.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.rawPayload as never);
    const sheet = book.worksheets[0]!;
    expect(sheet.getRow(1).values).toEqual([undefined, 'Location', 'Part model code', 'Supply type', 'To order', 'First runs out']);
    expect(sheet.getRow(2).getCell(4).value).toBe(2);
    expect((await call(boss, 'GET', '/api/supply-orders/suggestions/pdf')).statusCode).toBe(400);
  });
});

describe('an order\'s life', () => {
  it('orders a group; what is ordered is not suggested again; every step is in the event log', async () => {
    const [tn1] = await suggested();
    const res = await call(boss, 'POST', '/api/supply-orders', { supplies: tn1!.supplies.map((s) => ({ deviceId: s.deviceId, supplyIndex: 1 })), reference: 'PO-1' });
    expect(res.statusCode, res.body).toBe(200);
    const orders = res.json() as { id: number; deviceId: number; state: string; reference: string; orderedBy: string; partModelCode: string }[];
    expect(orders.map((o) => [o.state, o.reference, o.orderedBy, o.partModelCode])).toEqual([['ORDERED', 'PO-1', 'so_boss', 'TN-1'], ['ORDERED', 'PO-1', 'so_boss', 'TN-1']]);
    expect(await suggestedSerials()).toEqual(['LOW']);
    expect((await logOf('supplyOrder.ordered')).map((l) => l.message)).toEqual([
      expect.stringMatching(/^so_boss ordered Black toner of (SOON|EDGE) \(order #\d+, reference PO-1\)$/),
      expect.stringMatching(/^so_boss ordered Black toner of (SOON|EDGE)/),
    ]);

    const shipped = await call(boss, 'POST', `/api/supply-orders/${orders[0]!.id}/ship`);
    expect(shipped.json()).toMatchObject({ state: 'SHIPPED', closedBy: 'so_boss', shippedAt: expect.any(String) });
    expect((await call(boss, 'POST', `/api/supply-orders/${orders[0]!.id}/ship`, undefined, 'ru')).json()).toMatchObject({ code: 'CONFLICT', message: 'Отгрузить можно только заказанное' });
    expect((await call(boss, 'POST', `/api/supply-orders/${orders[1]!.id}/cancel`)).json()).toMatchObject({ state: 'CANCELLED', cancelledAt: expect.any(String) });
    expect((await call(boss, 'POST', `/api/supply-orders/${orders[1]!.id}/cancel`)).json().message).toBe('The order is no longer open');
    expect((await logOf('supplyOrder.shipped')).length).toBe(1);
    expect((await logOf('supplyOrder.cancelled')).length).toBe(1);
    // Cancelled: suggested again. The open orders are listed; closed ones on asking.
    expect(await suggestedSerials()).toEqual([[...serials].find(([, id]) => id === orders[1]!.deviceId)![0], 'LOW'].sort());
    const open = (await call(boss, 'GET', '/api/supply-orders')).json() as { id: number }[];
    expect(open.map((o) => o.id)).toEqual([orders[0]!.id]);
    expect(((await call(boss, 'GET', '/api/supply-orders?open=false')).json() as unknown[]).length).toBe(2);
    expect((await call(t.admin, 'GET', `/api/supply-orders?device=${serials.get('FAR')}`)).json()).toEqual([]);
  });

  it('shows a supply\'s open order on the consumables grid', async () => {
    const grid = async () => ((await call(boss, 'GET', '/api/device-part-v/page?page=100,1')).json().pageRows as { deviceId: number; orderState: string | null }[]);
    const state = (rows: { deviceId: number; orderState: string | null }[], serial: string) => rows.find((r) => r.deviceId === serials.get(serial))?.orderState;
    const [open] = (await call(boss, 'GET', '/api/supply-orders')).json() as { deviceId: number }[];
    const rows = await grid();
    expect(rows.find((r) => r.deviceId === open!.deviceId)?.orderState).toBe('SHIPPED');
    expect(state(rows, 'FULL')).toBeNull();
  });

  it('keeps one open order per supply: of two orders at once, one wins', async () => {
    const low = { supplies: [{ deviceId: serials.get('LOW')!, supplyIndex: 1 }] };
    const both = await Promise.all([call(boss, 'POST', '/api/supply-orders', low), call(t.admin, 'POST', '/api/supply-orders', low)]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(both.find((r) => r.statusCode === 409)!.json().message).toBe('These supplies already have an open order');
    expect(Number((await sqlRows<{ n: number }>(t.ctx.db, sql`SELECT count(*)::int AS n FROM supply_orders WHERE device_id = ${serials.get('LOW')!}`))[0]!.n)).toBe(1);
    // The database refuses a second open order whatever path it takes.
    await expect(t.ctx.db.execute(sql`INSERT INTO supply_orders (device_id, supply_index, state) VALUES (${serials.get('LOW')!}, 1, 'SHIPPED')`)).rejects.toThrow();
  });

  it('refuses what the caller may not do: outside its locations, without the grant, bad input by field', async () => {
    const far = { supplies: [{ deviceId: serials.get('FAR')!, supplyIndex: 1 }] };
    expect((await call(boss, 'POST', '/api/supply-orders', far)).statusCode).toBe(403);
    expect((await call(operator, 'POST', '/api/supply-orders', far)).statusCode).toBe(403);
    expect((await call(operator, 'GET', '/api/supply-orders/suggestions')).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/supply-orders/suggestions' })).statusCode).toBe(401);
    expect((await call(boss, 'POST', '/api/supply-orders', { supplies: [{ deviceId: 2_147_483_647, supplyIndex: 1 }] })).statusCode).toBe(404);
    const bad = await call(boss, 'POST', '/api/supply-orders', { supplies: [], reference: 'x'.repeat(101) }, 'ru');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.map((f: { field: string }) => f.field).sort()).toEqual(['reference', 'supplies']);
  });
});

describe('installation by the replacement event', () => {
  it('closes the supply\'s open order as installed when the device reports the part replaced', async () => {
    const { token } = await createAgent(t.app, t.admin, { locationId: here, range: { from: '127.0.46.1', to: '127.0.46.254' } });
    const t0 = Date.now() - 3_600_000;
    const read = async (black: number, total: number, minutes: number) =>
      expect((await post(t.app, token, batch([agentReading('127.0.46.7', { serial: 'SO-REPL', total, black }, { readAt: new Date(t0 + minutes * 60_000) })]))).statusCode).toBe(200);
    await read(4, 1000, 0);
    const [d] = await sqlRows<{ id: number }>(t.ctx.db, sql`SELECT id FROM devices WHERE serial_number = 'SO-REPL'`);
    const ordered = await call(boss, 'POST', '/api/supply-orders', { supplies: [{ deviceId: d!.id, supplyIndex: 1 }] });
    expect(ordered.statusCode, ordered.body).toBe(200);
    await read(3, 1100, 10);
    expect((await call(boss, 'GET', `/api/supply-orders?device=${d!.id}`)).json()).toMatchObject([{ state: 'ORDERED' }]);
    await read(97, 1200, 20);
    const [order] = (await call(boss, 'GET', `/api/supply-orders?device=${d!.id}&open=false`)).json();
    expect(order).toMatchObject({ state: 'INSTALLED', installedAt: new Date(t0 + 20 * 60_000).toISOString() });
    expect((await logOf('supplyOrder.installed')).filter((l) => Number(l.object_id) === d!.id).map((l) => l.message)).toEqual([`Order #${order.id} (black toner of SO-REPL) installed: the device reported the supply replaced`]);
  });
});
