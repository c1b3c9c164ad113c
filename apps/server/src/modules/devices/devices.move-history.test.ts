import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { bearer, signedInAs, testApp } from '../../test/test-app.ts';
import { addLocation } from '../../test/scope-fixture.ts';

/**
 * A device moved from location A to B takes its history with it: A's operators no longer see
 * any of its days, consumables, print users or event log records, and B's see all of them.
 */
const t = testApp();
let opA: string;
let opB: string;
let a: number;
let b: number;
let deviceId: number;

beforeAll(async () => {
  a = await addLocation(t.ctx.db, 'MOVE_A');
  b = await addLocation(t.ctx.db, 'MOVE_B');
  const [d] = (await t.ctx.db.execute(sql`INSERT INTO devices (model_code, serial_number, location_id, ip) VALUES ('LaserJet', 'MOVE-SN', ${a}, '10.1.1.1') RETURNING id`)).rows;
  deviceId = Number(d.id);
  await t.ctx.db.execute(sql`INSERT INTO dm_device_days (fact_date, device_id, location_id, total_count, readings)
    SELECT current_date - k, ${deviceId}, ${a}, 1000 + k, 1 FROM generate_series(1, 3) k`);
  await t.ctx.db.execute(sql`INSERT INTO dm_device_part_days (fact_date, device_id, supply_index, part_code, level)
    SELECT current_date - k, ${deviceId}, 1, 'toner', 50 + k FROM generate_series(1, 3) k`);
  await t.ctx.db.execute(sql`INSERT INTO dm_device_user_days (fact_date, device_id, location_id, username, printed_page_count)
    SELECT current_date - k, ${deviceId}, ${a}, 'bob', k FROM generate_series(1, 3) k`);
  await t.ctx.db.execute(sql`INSERT INTO consumables (device_id, supply_index, part_code, part_name, level, refreshed_at) VALUES (${deviceId}, 1, 'toner', 'Black Toner', 53, now())`);
  const logId = await t.ctx.eventLog.write({ group: 'DEVICES', level: 'W', messageCode: 'device.changed', params: { device: 'MOVE-SN', fields: 'x' }, objectClass: 'DeviceDao', objectId: deviceId, locationId: a });
  await t.ctx.db.execute(sql`INSERT INTO device_events (event_at, type, device_id, location_id, log_id) VALUES (now(), 'STATUS_CHANGED', ${deviceId}, ${a}, ${logId})`);
  opA = await signedInAs(t, { login: 'move-op-a', role: 'OPERATOR', locationIds: [a] });
  opB = await signedInAs(t, { login: 'move-op-b', role: 'OPERATOR', locationIds: [b] });
});

const LISTS = ['/api/dm-device-days/page', '/api/dm-device-days-v/page', '/api/dm-device-part-days/page', '/api/dm-device-user-days/page', '/api/device-part-v/page'];

/** How many rows of each history list, and of the event log about the device, the caller sees. */
async function seen(token: string) {
  const filter = encodeURIComponent(JSON.stringify(['deviceId', '=', deviceId]));
  const out: Record<string, number> = {};
  for (const url of LISTS) {
    const res = await t.app.inject({ url: `${url}?page=100,1&filter-json=${filter}`, headers: bearer(token) });
    expect(res.statusCode, `${url} ${res.body}`).toBe(200);
    out[url] = res.json().totalRows;
  }
  const logs = await t.app.inject({ url: '/api/event-logs/page?page=1000,1', headers: bearer(token) });
  expect(logs.statusCode, logs.body).toBe(200);
  out.eventLog = (logs.json().pageRows as { objectId: number | null; message: string }[]).filter((r) => r.objectId === deviceId && !r.message.includes('location')).length;
  return out;
}

const none = { ...Object.fromEntries(LISTS.map((l) => [l, 0])), eventLog: 0 };
const all = { '/api/dm-device-days/page': 3, '/api/dm-device-days-v/page': 3, '/api/dm-device-part-days/page': 3, '/api/dm-device-user-days/page': 3, '/api/device-part-v/page': 1, eventLog: 1 };

describe('moving a device', () => {
  it('moves its history to the new location', async () => {
    expect(await seen(opA)).toEqual(all);
    expect(await seen(opB)).toEqual(none);
    const res = await t.app.inject({ method: 'PUT', url: `/api/devices/${deviceId}`, headers: bearer(t.admin), payload: { location: { id: b } } });
    expect(res.statusCode, res.body).toBe(200);
    expect(await seen(opA)).toEqual(none);
    const afterMove = await seen(opB);
    expect({ ...afterMove, eventLog: Math.min(afterMove.eventLog, 1) }).toEqual(all);
    const [events] = (await t.ctx.db.execute(sql`SELECT count(*)::int AS n FROM device_events WHERE device_id = ${deviceId} AND location_id = ${b}`)).rows;
    expect(events.n).toBe(1);
  });
});
