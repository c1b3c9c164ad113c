import { beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { bearer, testApp } from '../../test/test-app.ts';
import { ingestTables } from '../../test/ingest-tables.ts';
import { randomUUID } from 'node:crypto';
import type { WsMessage } from '@pagewatch/contracts/ws';
import { agentReading, batch, createAgent, post, type Printer } from './ingest.fixtures.ts';
import { PAGE_COUNTERS } from '@pagewatch/contracts/devices';
import { READ_FIELDS } from './derive.ts';
import type { CounterField } from '@pagewatch/contracts/models-pack';

const t = testApp();

const { rows, count, events, eventTypes, clean } = ingestTables(() => t.ctx.db);

describe('ingest', () => {
  let token: string;
  let agentId: number;
  let rangeId: number;
  const T0 = Date.now() - 3600_000;
  const at = (s: number) => new Date(T0 + s * 1000);
  const send = async (ip: string, p: Printer, s: number, extra: { runId?: string } = {}) => {
    const res = await post(t.app, token, batch([agentReading(ip, p, { readAt: at(s), rangeId, runId: extra.runId ?? null })]));
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const device = async (serial: string) =>
    (await rows<Record<string, unknown> & { id: number }>(sql`SELECT *, total_count::float8 AS total_count FROM devices WHERE serial_number = ${serial}`))[0];

  beforeEach(async () => {
    await clean();
    ({ token, agentId, rangeId } = (await createAgent(t.app, t.admin, { range: { from: '127.0.10.1', to: '127.0.10.254' } })) as { token: string; agentId: number; rangeId: number });
  });

  it('stores a batch sent twice once', async () => {
    const b = batch([agentReading('127.0.10.1', { serial: 'A1', total: 100, black: 80 }, { readAt: at(0), rangeId }), agentReading('127.0.10.2', { serial: 'A2', total: 5, black: 50 }, { readAt: at(0), rangeId })]);
    const first = await post(t.app, token, b);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ stored: 2, duplicates: 0, rejected: [] });
    const again = await post(t.app, token, { ...b, batchId: randomUUID() });
    expect(again.json()).toEqual({ stored: 0, duplicates: 2, rejected: [] });
    expect(await count('devices')).toBe(2);
    expect(await count('ingested_readings')).toBe(2);
    expect(await count('dm_device_days')).toBe(2);
    expect(await eventTypes()).toEqual(['NEW_DEVICE', 'NEW_DEVICE']);
    const d = await device('A1');
    expect(d).toMatchObject({ total_count: 100, toner_black: 80, new_device30_flag: true, status_code: 'OK', location_id: expect.any(Number), range_id: rangeId, agent_id: agentId });
    expect(await count('consumables', sql`device_id = ${d.id}`)).toBe(1);
  });

  it('keeps the split counters (A3 and A4 in black-and-white and colour) with the device, its day and its list row; a derived one is named', async () => {
    const r = agentReading('127.0.10.3', { serial: 'SPLIT1', total: 1000 }, { readAt: at(0), rangeId });
    r.reading.counters = { ...r.reading.counters, mono: 800, color: 200, a3: 100, a3Bw: 70, a3Color: 30, a4: 900, a4Bw: 730, a4Color: 170, derived: ['a4', 'a4Bw', 'a4Color'] };
    // An agent from before the split sends none of the new fields: unknown, not zero.
    const old = agentReading('127.0.10.4', { serial: 'SPLIT2', total: 50 }, { readAt: at(0), rangeId });
    const { a3Bw, a3Color, a4Bw, a4Color, derived, ...before } = old.reading.counters;
    void [a3Bw, a3Color, a4Bw, a4Color, derived];
    (old.reading as unknown as { counters: unknown }).counters = before;
    const res = await post(t.app, token, batch([r, old]));
    expect(res.json()).toEqual({ stored: 2, duplicates: 0, rejected: [] });
    const [d] = await rows<Record<string, unknown>>(sql`SELECT a3_bw_count::float8 AS a3bw, a3_color_count::float8 AS a3c, a4_bw_count::float8 AS a4bw, a4_color_count::float8 AS a4c, derived_counters FROM devices WHERE serial_number = 'SPLIT1'`);
    expect(d).toEqual({ a3bw: 70, a3c: 30, a4bw: 730, a4c: 170, derived_counters: 'a4,a4Bw,a4Color' });
    const [day] = await rows<Record<string, unknown>>(sql`SELECT dd.a3_bw_count::float8 AS a3bw, dd.a4_color_count::float8 AS a4c FROM dm_device_days dd JOIN devices d ON d.id = dd.device_id WHERE d.serial_number = 'SPLIT1'`);
    expect(day).toEqual({ a3bw: 70, a4c: 170 });
    const list = (await t.app.inject({ url: `/api/devices/page?page=50,1&filter-json=${encodeURIComponent(JSON.stringify(['serialNumber', 'startswith', 'SPLIT']))}&sort=serialNumber,ASC`, headers: bearer(t.admin) })).json();
    expect(list.pageRows.map((x: Record<string, unknown>) => [x.a3BwCount, x.a4ColorCount, x.equivalentCount, x.derivedCounters])).toEqual([
      [70, 170, 1100, 'a4,a4Bw,a4Color'],
      [null, null, null, ''],
    ]);
  });

  it('copies every page counter of the one definition (PAGE_COUNTERS) into the device and, but the power-on count, its day', async () => {
    const r = agentReading('127.0.10.5', { serial: 'ALLCOUNTERS', total: 1000 }, { readAt: at(0), rangeId });
    const names = Object.keys(PAGE_COUNTERS) as CounterField[];
    // A value of its own for each counter, so that a counter copied into another's column shows.
    r.reading.counters = { ...r.reading.counters, ...Object.fromEntries(names.map((n, i) => [n, 1000 + i])) };
    expect((await post(t.app, token, batch([r]))).json()).toMatchObject({ stored: 1 });
    const snake = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    const d = await device('ALLCOUNTERS');
    const [day] = await rows<Record<string, unknown>>(sql`SELECT dd.* FROM dm_device_days dd JOIN devices d ON d.id = dd.device_id WHERE d.serial_number = 'ALLCOUNTERS'`);
    names.forEach((n, i) => {
      const column = snake(PAGE_COUNTERS[n]);
      expect(Number(d![column]), column).toBe(1000 + i);
      if (n !== 'powerOn') expect(Number(day![column]), `day ${column}`).toBe(1000 + i);
    });
  });

  it('fills every device field the row definition takes from a reading (DEVICE_FIELDS `reading`), and keeps it when a later reading has none', async () => {
    const first = agentReading('127.0.10.6', { serial: 'READFIELDS', total: 10 }, { readAt: at(0), rangeId });
    // Values of their own, none the fixture's defaults, so that a field filled from another shows.
    const values: Record<string, string> = { model: 'Model R', serialNumber: 'READFIELDS', location: 'Room 12', hostName: 'host-r', deviceType: 'MFP', colorType: 'COLOR', paperFormat: 'A3', firmware: 'fw 9', vendor: 'Vendor R' };
    Object.assign(first.reading, values);
    const later = agentReading('127.0.10.6', { serial: 'READFIELDS', total: 20 }, { readAt: at(60), rangeId });
    for (const [, from] of READ_FIELDS) if (from !== 'serialNumber') Object.assign(later.reading, { [from]: null });
    for (const r of [first, later]) expect((await post(t.app, token, batch([r]))).json()).toMatchObject({ stored: 1 });
    const d = await device('READFIELDS');
    expect(READ_FIELDS.length).toBe(Object.keys(values).length);
    for (const [field, from] of READ_FIELDS) expect(d![field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)], field).toBe(values[from]);
    expect(Number(d!.total_count)).toBe(20);
  });

  it('keeps how each counter was read, both totals and a split that does not add up, and shows them on the card (issue 41)', async () => {
    const r = agentReading('127.0.10.5', { serial: 'SRC1', total: 10_000 }, { readAt: at(0), rangeId });
    const hp = '1.3.6.1.4.1.11.2.3.9.4.2.1.4.1.2';
    r.reading.counters = {
      ...r.reading.counters, mono: 7_000, color: 2_900, markerTotal: 10_400, vendorTotal: 10_000,
      sources: { total: `${hp}.5.0 (hp: Total engine pages)`, mono: `${hp}.6.0 (hp: Monochrome pages)`, color: `${hp}.7.0 (hp: Colour pages)` },
      splitMismatch: { total: 10_000, monoPlusColor: 9_900 },
    };
    expect((await post(t.app, token, batch([r]))).json()).toEqual({ stored: 1, duplicates: 0, rejected: [] });
    const d = await device('SRC1');
    const card = (await t.app.inject({ url: `/api/devices/${d.id}`, headers: bearer(t.admin) })).json();
    expect(card).toMatchObject({
      totalCount: 10_000, markerTotalCount: 10_400, vendorTotalCount: 10_000, splitMismatch: { total: 10_000, monoPlusColor: 9_900 },
      counterSources: { total: `${hp}.5.0 (hp: Total engine pages)`, mono: `${hp}.6.0 (hp: Monochrome pages)`, color: `${hp}.7.0 (hp: Colour pages)` },
    });
    // The next reading adds up: the flag goes; an agent that sends no sources leaves the last ones.
    const next = agentReading('127.0.10.5', { serial: 'SRC1', total: 10_100 }, { readAt: at(1), rangeId });
    next.reading.counters = { ...next.reading.counters, mono: 7_100, color: 3_000 };
    expect((await post(t.app, token, batch([next]))).json()).toMatchObject({ stored: 1 });
    const after = (await t.app.inject({ url: `/api/devices/${d.id}`, headers: bearer(t.admin) })).json();
    expect(after).toMatchObject({ splitMismatch: null, counterSources: { total: `${hp}.5.0 (hp: Total engine pages)` } });
  });

  it('matches by serial, then MAC, then IP, and keeps IP changes', async () => {
    await send('127.0.10.1', { serial: 'S1', total: 10 }, 0);
    await send('127.0.10.9', { serial: 'S1', total: 20 }, 10);
    expect(await count('devices')).toBe(1);
    const d = await device('S1');
    expect(d.ip).toBe('127.0.10.9');
    expect(await eventTypes(d.id)).toEqual(['NEW_DEVICE', 'IP_CHANGE']);
    const ipHistory = await rows<{ ip: string; old_ip: string | null }>(sql`SELECT ip, old_ip FROM device_ip_history WHERE device_id = ${d.id} ORDER BY id`);
    expect(ipHistory).toEqual([{ ip: '127.0.10.1', old_ip: null }, { ip: '127.0.10.9', old_ip: '127.0.10.1' }]);

    // No serial: by MAC (any form of writing it).
    await send('127.0.10.20', { serial: null, mac: '00-11-22-AA-BB-CC', total: 1 }, 0);
    await send('127.0.10.21', { serial: null, mac: '00:11:22:aa:bb:cc', total: 2 }, 10);
    expect(await count('devices', sql`mac_address = '00:11:22:aa:bb:cc'`)).toBe(1);

    // Neither: by IP; a different known serial at the same IP is another device.
    await send('127.0.10.30', { serial: null, total: 1 }, 0);
    await send('127.0.10.30', { serial: null, total: 2 }, 10);
    expect(await count('devices', sql`ip = '127.0.10.30'`)).toBe(1);
    await send('127.0.10.9', { serial: 'OTHER', total: 5 }, 20);
    expect(await count('devices', sql`ip = '127.0.10.9'`)).toBe(2);
    // Same serial, another vendor: another device.
    await send('127.0.10.40', { serial: 'S1', vendor: 'Kyocera', total: 5 }, 20);
    expect(await count('devices', sql`serial_number = 'S1'`)).toBe(2);
  });

  it('raises supply low once, and not for "some remaining"', async () => {
    await send('127.0.10.1', { serial: 'L1', total: 10, black: 50, cyan: null }, 0);
    await send('127.0.10.1', { serial: 'L1', total: 20, black: 8, cyan: null }, 10);
    await send('127.0.10.1', { serial: 'L1', total: 30, black: 5, cyan: null }, 20);
    await send('127.0.10.1', { serial: 'L1', total: 40, black: 0, cyan: null }, 30);
    const d = await device('L1');
    const e = await events(d.id);
    expect(e.map((x) => x.type)).toEqual(['NEW_DEVICE', 'SUPPLY_LOW']);
    expect(e[1]).toMatchObject({ old_value: '50', new_value: '8', supply_index: 1 });
    const parts = await rows<{ level: number; min_level: number }>(sql`SELECT level, min_level FROM dm_device_part_days WHERE device_id = ${d.id} AND supply_index = 1`);
    expect(parts[0]).toMatchObject({ level: 0, min_level: 0 });
  });

  it('tells a replacement from a glitch', async () => {
    await send('127.0.10.1', { serial: 'R1', total: 100, black: 5 }, 0);
    await send('127.0.10.1', { serial: 'R1', total: 110, black: 95 }, 10);
    const d = await device('R1');
    expect(await eventTypes(d.id)).toEqual(['NEW_DEVICE', 'SUPPLY_LOW', 'SUPPLY_REPLACED']);
    const [s] = await rows<{ installed_at: Date | null; level: number }>(sql`SELECT installed_at, level FROM consumables WHERE device_id = ${d.id}`);
    expect(s.installed_at).not.toBeNull();

    // A one-reading dip that comes back is not a replacement.
    await send('127.0.10.2', { serial: 'G1', total: 100, black: 80 }, 0);
    await send('127.0.10.2', { serial: 'G1', total: 101, black: 20 }, 10);
    await send('127.0.10.2', { serial: 'G1', total: 102, black: 80 }, 20);
    const g = await device('G1');
    expect(await eventTypes(g.id)).toEqual(['NEW_DEVICE']);

    // A jump up while the counter goes backwards is not a replacement either (but is flagged).
    await send('127.0.10.3', { serial: 'G2', total: 5000, black: 20 }, 0);
    await send('127.0.10.3', { serial: 'G2', total: 10, black: 90 }, 10);
    const g2 = await device('G2');
    expect(await eventTypes(g2.id)).toEqual(['NEW_DEVICE', 'COUNTER_BACKWARDS']);
  });

  it('keeps a counter that went backwards, flags it and raises one event', async () => {
    await send('127.0.10.1', { serial: 'C1', total: 1000 }, 0);
    await send('127.0.10.1', { serial: 'C1', total: 900 }, 10);
    await send('127.0.10.1', { serial: 'C1', total: 950 }, 20);
    const d = await device('C1');
    expect(d).toMatchObject({ total_count: 950, need_attention_flag: true });
    expect(d.counter_backwards_at).not.toBeNull();
    expect(await eventTypes(d.id)).toEqual(['NEW_DEVICE', 'COUNTER_BACKWARDS']);
    const [day] = await rows<{ counter_backwards: boolean; total_count: number; total_start: number; readings: number }>(sql`SELECT counter_backwards, total_count::float8 AS total_count, total_start::float8 AS total_start, readings FROM dm_device_days WHERE device_id = ${d.id}`);
    expect(day).toMatchObject({ counter_backwards: true, total_count: 950, total_start: 900, readings: 3 });
  });

  it('raises a status change once', async () => {
    await send('127.0.10.1', { serial: 'ST', total: 1 }, 0);
    await send('127.0.10.1', { serial: 'ST', total: 2, errors: ['jammed'], deviceStatus: 'down' }, 10);
    await send('127.0.10.1', { serial: 'ST', total: 3, errors: ['jammed'], deviceStatus: 'down' }, 20);
    await send('127.0.10.1', { serial: 'ST', total: 4 }, 30);
    const d = await device('ST');
    const e = await events(d.id);
    expect(e.map((x) => x.type)).toEqual(['NEW_DEVICE', 'STATUS_CHANGE', 'STATUS_CHANGE']);
    expect(e[1]).toMatchObject({ old_value: 'OK', new_value: 'ERROR (jammed)' });
  });

  it('marks missed polls, not available after two, and back online', async () => {
    const run = async (s: number, printers: [string, Printer][]) => {
      const runId = randomUUID();
      const start = await t.app.inject({ method: 'POST', url: '/api/agent/runs', headers: bearer(token), payload: { runId, startedAt: at(s).toISOString() } });
      expect(start.statusCode, start.body).toBe(200);
      for (const [ip, p] of printers) await send(ip, p, s + 1, { runId });
      const fin = await t.app.inject({
        method: 'POST', url: `/api/agent/runs/${runId}/finish`, headers: bearer(token),
        payload: { finishedAt: at(s + 5).toISOString(), rangeResults: [{ rangeId, scanned: 254, found: printers.length, durationMs: 5000, error: null }] },
      });
      expect(fin.statusCode, fin.body).toBe(204);
    };
    await run(0, [['127.0.10.1', { serial: 'N1', total: 1 }], ['127.0.10.2', { serial: 'N2', total: 1 }]]);
    await run(100, [['127.0.10.2', { serial: 'N2', total: 2 }]]);
    expect(await device('N1')).toMatchObject({ missed_polls: 1, not_available_flag: false });
    await run(200, [['127.0.10.2', { serial: 'N2', total: 3 }]]);
    expect(await device('N1')).toMatchObject({ missed_polls: 2, not_available_flag: true, status_code: 'NOT_AVAILABLE' });
    await run(300, [['127.0.10.2', { serial: 'N2', total: 4 }]]);
    const n1 = await device('N1');
    expect(await eventTypes(n1.id)).toEqual(['NEW_DEVICE', 'NOT_AVAILABLE']);
    await run(400, [['127.0.10.1', { serial: 'N1', total: 2 }], ['127.0.10.2', { serial: 'N2', total: 5 }]]);
    expect(await device('N1')).toMatchObject({ missed_polls: 0, not_available_flag: false, status_code: 'OK' });
    expect(await eventTypes(n1.id)).toEqual(['NEW_DEVICE', 'NOT_AVAILABLE', 'BACK_ONLINE']);
    expect(await eventTypes((await device('N2')).id)).toEqual(['NEW_DEVICE']);
  });

  it('writes events to the event log (DEVICES, with the location) and to the hub', async () => {
    const seen: WsMessage[] = [];
    const off = t.ctx.hub.subscribe('devices', (m) => seen.push(m));
    await send('127.0.10.1', { serial: 'H1', total: 1 }, 0);
    off();
    const d = await device('H1');
    expect(seen).toEqual([{ type: 'DEVICE_EVENT', deviceId: d.id, locationId: d.location_id, event: 'NEW_DEVICE' }]);
    const [log] = await rows<{ code: string; location_id: number; object_class: string; object_id: number; message_code: string }>(sql`
      SELECT g.code, l.location_id, l.object_class, l.object_id, l.message_code FROM event_logs l JOIN event_groups g ON g.id = l.event_group_id
      WHERE l.message_code = 'device.NEW_DEVICE' AND l.object_id = ${d.id}`);
    expect(log).toMatchObject({ code: 'DEVICES', location_id: d.location_id, object_class: 'DeviceDao', message_code: 'device.NEW_DEVICE' });
    const [ev] = await rows<{ log_id: number; processed: boolean; location_id: number }>(sql`SELECT * FROM device_events WHERE device_id = ${d.id}`);
    expect(ev).toMatchObject({ processed: false, location_id: d.location_id });
    expect(Number(ev.log_id)).toBeGreaterThan(0);
  });

  it('links each device event to the log record of its own device and type', async () => {
    const r = (ip: string, p: Printer, s: number) => agentReading(ip, p, { readAt: at(s), rangeId });
    const res = await post(t.app, token, batch([
      r('127.0.10.1', { serial: 'K1', total: 10, black: 50 }, 0),
      r('127.0.10.2', { serial: 'K2', total: 1000 }, 0),
      r('127.0.10.3', { serial: 'K3', total: 1 }, 0),
      r('127.0.10.9', { serial: 'K1', total: 20, black: 8 }, 10),
      r('127.0.10.2', { serial: 'K2', total: 900 }, 10),
      r('127.0.10.3', { serial: 'K3', total: 2, errors: ['jammed'], deviceStatus: 'down' }, 10),
    ]));
    expect(res.statusCode, res.body).toBe(200);
    const linked = await rows<{ device_id: number; type: string; log_id: number; object_id: number | null; message_code: string | null }>(sql`
      SELECT e.device_id, e.type, e.log_id, l.object_id, l.message_code FROM device_events e LEFT JOIN event_logs l ON l.id = e.log_id ORDER BY e.id`);
    expect(new Set(linked.map((e) => e.type))).toEqual(new Set(['NEW_DEVICE', 'IP_CHANGE', 'SUPPLY_LOW', 'COUNTER_BACKWARDS', 'STATUS_CHANGE']));
    expect(new Set(linked.map((e) => e.device_id)).size).toBe(3);
    expect(new Set(linked.map((e) => Number(e.log_id))).size).toBe(linked.length);
    for (const e of linked) expect({ object_id: Number(e.object_id), message_code: e.message_code }).toEqual({ object_id: Number(e.device_id), message_code: `device.${e.type}` });
  });

  it('stores the walk of a device that matched no profile', async () => {
    const r = agentReading('127.0.10.77', { serial: null, total: 0 }, { readAt: at(0), rangeId });
    r.reading.isPrinter = false;
    r.walk = [['1.3.6.1.2.1.1.1.0', 'OctetString', 'Mystery box'], ['1.3.6.1.2.1.1.2.0', 'OID', '1.3.6.1.4.1.99999']];
    const res = await post(t.app, token, batch([r]));
    expect(res.statusCode, res.body).toBe(200);
    const [w] = await rows<{ row_count: number; device_id: number }>(sql`SELECT * FROM device_walks`);
    expect(w.row_count).toBe(2);
    const [d] = await rows<{ walk_refreshed_at: Date | null }>(sql`SELECT walk_refreshed_at FROM devices WHERE id = ${w.device_id}`);
    expect(d.walk_refreshed_at).not.toBeNull();
  });
});

describe('the tables every poll rewrites', () => {
  it('leave a fifth of each page free, so that a poll updates a row in place without touching its indexes', async () => {
    const tables = await rows<{ name: string; options: string[] | null }>(sql`
      SELECT relname AS name, reloptions AS options FROM pg_class WHERE relname IN ('devices', 'consumables') AND relkind = 'r' ORDER BY relname`);
    expect(tables.map((r) => r.name)).toEqual(['consumables', 'devices']);
    for (const r of tables) expect(r.options ?? [], r.name).toContain('fillfactor=80');
  });
});
