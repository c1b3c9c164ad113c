import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { WsMessage } from '@pagewatch/contracts/ws';
import { bearer, createTestApp, signIn } from '../../test/test-app.ts';
import { addLocation } from '../../test/scope-fixture.ts';
import { agentReading, batch, createAgent, post, type Printer } from './ingest.fixtures.ts';

type App = Awaited<ReturnType<typeof createTestApp>>;
let t: App;
let admin: string;

const rows = async <T = Record<string, unknown>>(q: ReturnType<typeof sql>) => (await t.ctx.db.execute(q)).rows as T[];
const count = async (table: string, where = sql`true`) =>
  Number((await rows<{ n: number }>(sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE ${where}`))[0].n);
const events = (deviceId?: number) =>
  rows<{ type: string; old_value: string | null; new_value: string | null; supply_index: number | null }>(
    deviceId === undefined ? sql`SELECT * FROM device_events ORDER BY id` : sql`SELECT * FROM device_events WHERE device_id = ${deviceId} ORDER BY id`,
  );
const eventTypes = async (deviceId?: number) => (await events(deviceId)).map((e) => e.type);

beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t.app);
});
afterAll(() => t.close());

async function clean() {
  for (const table of ['devices', 'ingested_readings', 'network_ranges', 'agents']) await t.ctx.db.execute(sql`DELETE FROM ${sql.identifier(table)}`);
}

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
    ({ token, agentId, rangeId } = (await createAgent(t.app, admin, { range: { from: '127.0.10.1', to: '127.0.10.254' } })) as { token: string; agentId: number; rangeId: number });
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
    const parts = await rows<{ percent: number; min_percent: number }>(sql`SELECT percent, min_percent FROM dm_device_part_days WHERE device_id = ${d.id} AND supply_index = 1`);
    expect(parts[0]).toMatchObject({ percent: 0, min_percent: 0 });
  });

  it('tells a replacement from a glitch', async () => {
    await send('127.0.10.1', { serial: 'R1', total: 100, black: 5 }, 0);
    await send('127.0.10.1', { serial: 'R1', total: 110, black: 95 }, 10);
    const d = await device('R1');
    expect(await eventTypes(d.id)).toEqual(['NEW_DEVICE', 'SUPPLY_LOW', 'SUPPLY_REPLACED']);
    const [s] = await rows<{ installed_at: Date | null; percent: number }>(sql`SELECT installed_at, percent FROM consumables WHERE device_id = ${d.id}`);
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

describe('an agent and the devices of other locations', () => {
  // A and its child A_CHILD are agent A's scope; B is another branch (issue 14, finding 4).
  let loc: { A: number; A_CHILD: number; B: number };
  beforeAll(async () => {
    loc = { A: await addLocation(t.ctx.db, 'SCOPE_A'), A_CHILD: 0, B: await addLocation(t.ctx.db, 'SCOPE_B') };
    loc.A_CHILD = await addLocation(t.ctx.db, 'SCOPE_A_CHILD', 'SCOPE_A');
  });
  beforeEach(clean);

  const T0 = Date.now() - 3600_000;
  const sendAs = async (token: string, ip: string, p: Printer, s: number) => {
    const res = await post(t.app, token, batch([agentReading(ip, p, { readAt: new Date(T0 + s * 1000) })]));
    expect(res.statusCode, res.body).toBe(200);
  };
  const bySerial = (serial: string) =>
    rows<{ id: number; location_id: number; agent_id: number | null; ip: string; total_count: number; status_code: string }>(
      sql`SELECT id, location_id, agent_id, ip, total_count::float8 AS total_count, status_code FROM devices WHERE serial_number = ${serial} ORDER BY id`);
  const notes = () =>
    rows<{ log_level: string; message: string; message_code: string; location_id: number; message_params: Record<string, unknown> }>(
      sql`SELECT log_level, message, message_code, location_id, message_params FROM event_logs WHERE message_code = 'device.serialElsewhere' ORDER BY id`);

  it('never overwrites a device of another location by serial or MAC: a new device and a warning note instead', async () => {
    await t.ctx.db.execute(sql`DELETE FROM event_logs WHERE message_code = 'device.serialElsewhere'`);
    const a = await createAgent(t.app, admin, { name: 'Agent A', locationId: loc.A });
    const b = await createAgent(t.app, admin, { name: 'Agent B', locationId: loc.B });
    await sendAs(b.token, '127.0.12.1', { serial: 'X1', mac: '00:11:22:33:44:55', total: 100 }, 0);
    const [victim] = await bySerial('X1');
    expect(victim).toMatchObject({ location_id: loc.B, agent_id: b.agentId, ip: '127.0.12.1', total_count: 100 });

    // A posts B's serial (and MAC) from another address, with other counters and an error.
    await sendAs(a.token, '127.0.13.7', { serial: 'X1', mac: '00:11:22:33:44:55', total: 999_999, errors: ['jammed'], deviceStatus: 'down' }, 10);
    const after = await bySerial('X1');
    expect(after).toHaveLength(2);
    expect(after[0]).toEqual(victim);
    expect(after[1]).toMatchObject({ location_id: loc.A, agent_id: a.agentId, ip: '127.0.13.7', total_count: 999_999 });
    // B's users get no event of A's reading.
    expect(await eventTypes(victim.id)).toEqual(['NEW_DEVICE']);
    // The note: a warning at A's location naming the serial, not B's location.
    const [note, ...more] = await notes();
    expect(more).toEqual([]);
    expect(note).toMatchObject({ log_level: 'W', location_id: loc.A, message_params: expect.objectContaining({ serial: 'X1' }) });
    expect(note.message).toContain('X1');
    expect(note.message).not.toMatch(/SCOPE_B|Location SCOPE_B/);
    expect(JSON.stringify(note.message_params)).not.toMatch(/SCOPE_B/);

    // A's next reading updates its own device; no second note.
    await sendAs(a.token, '127.0.13.7', { serial: 'X1', mac: '00:11:22:33:44:55', total: 1_000_000 }, 20);
    expect((await bySerial('X1')).map((d) => d.total_count)).toEqual([100, 1_000_000]);
    expect(await notes()).toHaveLength(1);

    // No serial, B's MAC: a new device as well.
    await sendAs(b.token, '127.0.12.2', { serial: null, mac: '00:11:22:33:44:66', total: 5 }, 0);
    await sendAs(a.token, '127.0.13.8', { serial: null, mac: '00:11:22:33:44:66', total: 6 }, 10);
    const byMac = await rows<{ location_id: number; total_count: number }>(sql`SELECT location_id, total_count::float8 AS total_count FROM devices WHERE mac_address = '00:11:22:33:44:66' ORDER BY id`);
    expect(byMac).toEqual([{ location_id: loc.B, total_count: 5 }, { location_id: loc.A, total_count: 6 }]);
  });

  it("matches devices of the agent's location and the locations below it", async () => {
    const a = await createAgent(t.app, admin, { name: 'Agent A', locationId: loc.A });
    const child = await createAgent(t.app, admin, { name: 'Agent A child', locationId: loc.A_CHILD });
    await sendAs(child.token, '127.0.14.1', { serial: 'Y1', total: 10 }, 0);
    await sendAs(a.token, '127.0.14.1', { serial: 'Y1', total: 20 }, 10);
    const devs = await bySerial('Y1');
    expect(devs).toHaveLength(1);
    expect(devs[0]).toMatchObject({ location_id: loc.A_CHILD, agent_id: a.agentId, total_count: 20 });
    // The child's agent cannot reach up to its parent's devices.
    await sendAs(a.token, '127.0.14.2', { serial: 'Y2', total: 10 }, 0);
    await sendAs(child.token, '127.0.14.2', { serial: 'Y2', total: 30 }, 10);
    expect((await bySerial('Y2')).map((d) => [d.location_id, d.total_count])).toEqual([[loc.A, 10], [loc.A_CHILD, 30]]);
  });
});

describe('bad agent input', () => {
  let token: string;
  beforeAll(async () => {
    await clean();
    ({ token } = await createAgent(t.app, admin, { name: 'Bad input' }));
  });

  const good = () => agentReading('127.0.11.1', { serial: 'OK1', total: 10, black: 50 });
  const nothingStored = async () => {
    expect(await count('devices')).toBe(0);
    expect(await count('ingested_readings')).toBe(0);
    expect(await count('dm_device_days')).toBe(0);
  };

  it('refuses a wrong or missing token with 401', async () => {
    expect((await post(t.app, 'pwa_wrong', batch([good()]))).statusCode).toBe(401);
    const res = await t.app.inject({ method: 'POST', url: '/api/agent/readings', payload: batch([good()]) });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBeTruthy();
    await nothingStored();
  });

  type Rejection = { index: number; id: string | null; status: number; code: string; message: string; details?: { field: string; message: string }[] };
  /** A batch the server takes as a whole (200) with these readings refused one by one. */
  const refused = async (readings: unknown[]) => {
    const res = await post(t.app, token, { batchId: randomUUID(), readings });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { stored: number; duplicates: number; rejected: Rejection[] };
  };

  it('refuses malformed batches with 400, and a malformed reading on its own, naming the field', async () => {
    // Changed with issue 14: a bad reading no longer refuses its whole batch.
    const noId = { ...good(), id: 'not-a-uuid' };
    const res = await refused([noId]);
    expect(res).toMatchObject({ stored: 0, rejected: [{ index: 0, id: 'not-a-uuid', status: 400, code: 'VALIDATION' }] });
    expect(res.rejected[0].message).toMatch(/readings\.0\.id/);
    const notJson = await t.app.inject({ method: 'POST', url: '/api/agent/readings', headers: { ...bearer(token), 'content-type': 'application/json' }, payload: '{"batchId": ' });
    expect(notJson.statusCode).toBe(400);
    expect((await post(t.app, token, { batchId: randomUUID(), readings: [] })).statusCode).toBe(400);
    expect((await post(t.app, token, { batchId: 'nope', readings: [good()] })).statusCode).toBe(400);
    expect((await post(t.app, token, { batchId: randomUUID(), readings: 'all of them' })).statusCode).toBe(400);
    await nothingStored();
  });

  it('refuses impossible values, each reading on its own: negative counters, percent 250, dates in the future', async () => {
    const negative = good();
    negative.reading.counters.total = -5;
    const percent = good();
    percent.reading.supplies[0].percent = 250;
    const future = good();
    future.reading.readAt = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const huge = good();
    huge.reading.counters.total = 1e15;
    const res = await refused([negative, percent, future, huge]);
    expect(res.stored).toBe(0);
    expect(res.rejected.map((r) => [r.index, r.id, r.status, r.details?.[0]?.field])).toEqual([
      [0, negative.id, 400, 'readings.0.reading.counters.total'],
      [1, percent.id, 400, 'readings.1.reading.supplies.0.percent'],
      [2, future.id, 422, 'readings.2.reading.readAt'],
      [3, huge.id, 400, 'readings.3.reading.counters.total'],
    ]);
    await nothingStored();
  });

  it('refuses oversized batches: more than 500 readings, more than 20 MB', async () => {
    const many = Array.from({ length: 501 }, () => good());
    let res = await post(t.app, token, batch(many));
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toMatch(/500/);
    const big = good();
    big.walk = Array.from({ length: 400 }, (_, i) => [`1.3.6.1.4.1.1.${i}`, 'OctetString', 'x'.repeat(60_000)] as [string, string, string]);
    res = await post(t.app, token, batch([big]));
    expect(res.statusCode).toBe(413);
    await nothingStored();
  });

  it('stores the good readings of a batch and names each bad one with its field (issue 14, finding 7)', async () => {
    const bad = (change: (r: ReturnType<typeof good>) => void) => {
      const r = good();
      change(r);
      return r;
    };
    const readings = [
      agentReading('127.0.11.2', { serial: 'GOOD1', total: 1 }),
      bad((r) => void (r.reading.serialNumber = 'S'.repeat(2000))),
      bad((r) => void (r.reading.hostName = 'h'.repeat(256))),
      bad((r) => void (r.reading.location = 'L'.repeat(501))),
      bad((r) => void (r.reading.model = 'M'.repeat(251))),
      bad((r) => void (r.reading.supplies[0].maxCapacity = 2 ** 31)),
      bad((r) => void (r.reading.supplies[0].index = 2 ** 31)),
      bad((r) => void (r.reading.firmware = 'v1\u0000')),
      agentReading('127.0.11.3', { serial: 'GOOD2', total: 2 }),
    ];
    const res = await refused(readings);
    expect(res).toMatchObject({ stored: 2, duplicates: 0 });
    expect(res.rejected.map((r) => [r.index, r.id, r.status, r.details?.map((d) => d.field)])).toEqual([
      [1, readings[1].id, 400, ['readings.1.reading.serialNumber']],
      [2, readings[2].id, 400, ['readings.2.reading.hostName']],
      [3, readings[3].id, 400, ['readings.3.reading.location']],
      [4, readings[4].id, 400, ['readings.4.reading.model']],
      [5, readings[5].id, 400, ['readings.5.reading.supplies.0.maxCapacity']],
      [6, readings[6].id, 400, ['readings.6.reading.supplies.0.index']],
      [7, readings[7].id, 400, ['readings.7.reading.firmware']],
    ]);
    expect((await rows<{ serial_number: string }>(sql`SELECT serial_number FROM devices ORDER BY serial_number`)).map((d) => d.serial_number)).toEqual(['GOOD1', 'GOOD2']);
    // The refused readings were not taken: sent again (fixed), they are stored.
    readings[1].reading.serialNumber = 'S'.repeat(100);
    expect(await refused([readings[1]])).toMatchObject({ stored: 1, rejected: [] });
    await clean();
  });

  it('keeps agent and user tokens apart', async () => {
    const users = await t.app.inject({ url: '/api/users', headers: bearer(token) });
    expect(users.statusCode).toBe(401);
    const agents = await t.app.inject({ url: '/api/agents', headers: bearer(token) });
    expect(agents.statusCode).toBe(401);
    const asUser = await post(t.app, admin, batch([good()]));
    expect(asUser.statusCode).toBe(401);
    const config = await t.app.inject({ url: '/api/agent/config', headers: bearer(admin) });
    expect(config.statusCode).toBe(401);
    await nothingStored();
  });
});
