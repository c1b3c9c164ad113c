import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { homeSchema, type Home } from '@pagewatch/contracts/home';
import { bearer, signedInAs, testApp } from '../../test/test-app.ts';
import { addLocation } from '../../test/scope-fixture.ts';
import { agentReading, batch, createAgent, post, type Printer } from '../ingest/ingest.fixtures.ts';

const t = testApp();
let adminA: string;
let operatorA: string;
let locA: number;
let locB: number;
let agentA: { token: string; rangeId: number | null };
const ids: Record<string, number> = {};

const DAY = 86_400_000;
/** Noon UTC of a day of this month (0) or last month (-1); days past the month's end are its last day. */
function dayOf(monthOffset: 0 | -1, day: number): Date {
  const now = new Date();
  const first = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + monthOffset, 1, 12);
  const last = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + monthOffset + 1, 0, 12);
  return new Date(Math.min(first + (day - 1) * DAY, last));
}

const homeNow = async (token = t.admin): Promise<Home> => {
  const res = await t.app.inject({ method: 'GET', url: '/api/home', headers: bearer(token) });
  expect(res.statusCode, res.body).toBe(200);
  return homeSchema.parse(res.json());
};
/** Home once the figures in the making are done, as the console asks again while `pending`. */
const home = async (token = t.admin): Promise<Home> => {
  for (let i = 0; i < 200; i++) {
    const h = await homeNow(token);
    if (!h.pending) return h;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('home stayed pending');
};
const merge = (into: number, fromId: unknown, token = adminA) =>
  t.app.inject({ method: 'POST', url: `/api/devices/${into}/merge`, headers: bearer(token), payload: { fromId } as object });

beforeAll(async () => {
  locA = await addLocation(t.ctx.db, 'HOME_A');
  locB = await addLocation(t.ctx.db, 'HOME_B');
  const a = await createAgent(t.app, t.admin, { name: 'Agent A', locationId: locA, range: { from: '127.0.30.1', to: '127.0.30.254' } });
  const b = await createAgent(t.app, t.admin, { name: 'Agent B', locationId: locB, range: { from: '127.0.31.1', to: '127.0.31.254' } });
  agentA = a;
  // An agent that never reported.
  await createAgent(t.app, t.admin, { name: 'Agent Quiet', locationId: locA });
  const read = (agent: typeof a, ip: string, p: Printer, readAt = new Date()) =>
    post(t.app, agent.token, batch([agentReading(ip, p, { readAt, rangeId: agent.rangeId })]));

  // SA1 prints 100 pages on the first day of last month, 300 more by its last day and 200 this month
  // (a reading the day before last month, on its first and last day, and now).
  await read(a, '127.0.30.1', { serial: 'SA1', total: 900, black: 60 }, new Date(dayOf(-1, 1).getTime() - DAY));
  await read(a, '127.0.30.1', { serial: 'SA1', total: 1000, black: 60 }, dayOf(-1, 1));
  await read(a, '127.0.30.1', { serial: 'SA1', total: 1300, black: 50 }, dayOf(-1, 31));
  await read(a, '127.0.30.1', { serial: 'SA1', total: 1500, black: 40 });
  // SA2 has a paper jam since its first reading; SA3's toner is empty.
  await read(a, '127.0.30.2', { serial: 'SA2', total: 100, black: 70, errors: ['jammed'] });
  await read(a, '127.0.30.3', { serial: 'SA3', total: 100, black: 0 });
  // A board swap: OLD1 was last seen three days ago at .7; NEW1, the same model, is there now.
  // Its counter stands still, so its pages are none whichever months those days fall in.
  await read(a, '127.0.30.7', { serial: 'OLD1', total: 5000, black: 50 }, new Date(Date.now() - 4 * DAY));
  await read(a, '127.0.30.7', { serial: 'OLD1', total: 5000, black: 49 }, new Date(Date.now() - 3 * DAY));
  await read(a, '127.0.30.7', { serial: 'NEW1', total: 20, black: 49 });
  // Location B: one working printer with a low toner state only (no attention), one down.
  await read(b, '127.0.31.1', { serial: 'SB1', total: 700, black: 55, errors: ['lowToner'] });
  await read(b, '127.0.31.2', { serial: 'SB2', total: 900, black: 30, deviceStatus: 'down' });
  // Two printers in B report one serial: readings match it by serial, so its address flaps.
  for (const [h, ip] of [[4, '127.0.31.40'], [3, '127.0.31.41'], [2, '127.0.31.40'], [1, '127.0.31.41']] as const) {
    await read(b, ip, { serial: 'SX1', total: 100 + h, black: 50 }, new Date(Date.now() - h * 3_600_000));
  }

  for (const r of (await t.ctx.db.execute(sql`SELECT id, serial_number FROM devices`)).rows as { id: number; serial_number: string }[]) ids[r.serial_number] = r.id;
  // What the forecast job would have stored: SA1's toner runs out in 5 days, SB1's in 12.
  await t.ctx.db.execute(sql`UPDATE consumables SET days_left = 5 WHERE device_id = ${ids.SA1}`);
  await t.ctx.db.execute(sql`UPDATE consumables SET days_left = 12 WHERE device_id = ${ids.SB1}`);

  adminA = await signedInAs(t, { login: 'homeadmina', role: 'ADMIN', locationIds: [locA] });
  operatorA = await signedInAs(t, { login: 'homeopa', role: 'OPERATOR', locationIds: [locA] });
});

describe('home', () => {
  it('counts the devices of the caller by state, and their supplies running out', async () => {
    const all = (await home()).devices!;
    expect(all.total).toBe(8);
    expect(all.byStatus).toMatchObject({ ERROR: 2, WARNING: 1 });
    expect(all.runsOut).toEqual({ within7: 1, within14: 2, empty: 1 });
    const mine = (await home(operatorA)).devices!;
    expect(mine.total).toBe(5);
    expect(mine.byStatus.ERROR + mine.byStatus.WARNING + mine.byStatus.OK + mine.byStatus.UNKNOWN + mine.byStatus.NOT_AVAILABLE).toBe(5);
    expect(mine.runsOut).toEqual({ within7: 1, within14: 1, empty: 1 });
    expect(mine.maintenance).toBe(5);
  });

  it('lists the devices that need attention with the time since, only the caller\'s', async () => {
    const all = (await home()).devices!.attention;
    expect(all.rows.map((r) => r.serialNumber).sort()).toEqual(['SA2', 'SB2']);
    expect(all.count).toBe(2);
    const mine = (await home(operatorA)).devices!.attention;
    expect(mine.rows.map((r) => r.serialNumber)).toEqual(['SA2']);
    expect(mine.rows[0]).toMatchObject({ id: ids.SA2, problems: ['jammed'], locationName: 'Location HOME_A' });
    expect(Date.parse(mine.rows[0]!.since!)).toBeLessThanOrEqual(Date.now());
  });

  it('adds up pages of this month so far and of the same days of last month from the forward steps, per location', async () => {
    const pages = (await home(operatorA)).devices!.pages;
    // This month from its first day to today against the same days of last month (issue 54): not all of it.
    const now = new Date();
    const lastLength = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0)).getUTCDate();
    const day = (offset: 0 | -1, d: number) => dayOf(offset, d).toISOString().slice(0, 10);
    expect(pages.span).toEqual({ thisFrom: day(0, 1), thisTo: day(0, now.getUTCDate()), lastFrom: day(-1, 1), lastTo: day(-1, now.getUTCDate()) });
    const sameDays = 100 + (now.getUTCDate() >= lastLength ? 300 : 0);
    expect(pages.lastMonth.total).toBe(sameDays);
    // SA1's 200; a device's first reading adds no pages.
    expect(pages.thisMonth).toEqual({ bw: 200, color: 0, total: 200 });
    expect((await home()).devices!.pages.thisMonth.total).toBe(200);
    expect(pages.byLocation.map((l) => l.locationId)).toEqual([locA]);
    expect(pages.byLocation[0]!.lastMonth.bw).toBe(sameDays);
  });

  it('flags the board swap and the agents that never reported; hides agents without their grant', async () => {
    const h = await home(adminA);
    expect(h.devices!.quality.identity).toEqual([
      expect.objectContaining({ kind: 'BOARD_SWAP', older: expect.objectContaining({ id: ids.OLD1 }), newer: expect.objectContaining({ id: ids.NEW1 }) }),
    ]);
    expect(h.agents!.silent.map((a) => a.name)).toEqual(['Agent Quiet']);
    expect(h.agents!.total).toBe(2);
    expect((await home(operatorA)).agents).toBeNull();
    expect(h.devices!.quality.sharedSerials).toEqual([]);
    // The device card names the other device too.
    const card = (await t.app.inject({ url: `/api/devices/${ids.NEW1}`, headers: bearer(adminA) })).json();
    expect(card.identity).toHaveLength(1);
    expect(card.identity[0].older.serialNumber).toBe('OLD1');
  });

  it('notices one serial answering at two addresses in turn, on home and the card', async () => {
    const flaps = (await home()).devices!.quality.sharedSerials;
    expect(flaps).toEqual([{ device: expect.objectContaining({ id: ids.SX1, serialNumber: 'SX1' }), addresses: ['127.0.31.40', '127.0.31.41'] }]);
    const card = (await t.app.inject({ url: `/api/devices/${ids.SX1}`, headers: bearer(t.admin) })).json();
    expect(card.sharedSerialAddresses).toEqual(['127.0.31.40', '127.0.31.41']);
    const steady = (await t.app.inject({ url: `/api/devices/${ids.SB1}`, headers: bearer(t.admin) })).json();
    expect(steady.sharedSerialAddresses).toEqual([]);
  });

  it('follows device events: kept until one arrives, then computed again without holding requests', async () => {
    const before = (await home()).devices!.byStatus.NOT_AVAILABLE;
    await t.ctx.db.execute(sql`UPDATE devices SET status_code = 'NOT_AVAILABLE' WHERE id = ${ids.SB1}`);
    const kept = await homeNow();
    expect(kept.pending).toBe(false);
    expect(kept.devices!.byStatus.NOT_AVAILABLE).toBe(before);
    t.ctx.hub.publish('devices', { type: 'DEVICE_EVENT', deviceId: ids.SB1, locationId: locB, event: 'NOT_AVAILABLE' });
    // The request right after the event has the last figures and says newer ones are coming.
    const meanwhile = await homeNow();
    expect(meanwhile.pending).toBe(true);
    expect(meanwhile.computedAt).toBe(kept.computedAt);
    expect((await home()).devices!.byStatus.NOT_AVAILABLE).toBe(before + 1);
  });

  it('a failed computation is not kept: once the database answers again, the next request has figures', async () => {
    await home();
    // A part of the database is away: the computation an event starts fails, and home says so.
    await t.ctx.db.execute(sql`ALTER TABLE network_ranges RENAME TO network_ranges_away`);
    try {
      t.ctx.hub.publish('devices', { type: 'DEVICE_EVENT', deviceId: ids.SB1, locationId: locB, event: 'OK' });
      let failed = false;
      for (let i = 0; i < 200 && !failed; i++) {
        failed = (await t.app.inject({ url: '/api/home', headers: bearer(t.admin) })).statusCode >= 500;
        if (!failed) await new Promise((r) => setTimeout(r, 10));
      }
      expect(failed).toBe(true);
    } finally {
      await t.ctx.db.execute(sql`ALTER TABLE network_ranges_away RENAME TO network_ranges`);
    }
    // Back: the very next request computes again and answers, rather than repeating the old failure.
    const back = await homeNow();
    expect(back.devices!.total).toBeGreaterThan(0);
  });

  it('needs a session', async () => {
    expect((await t.app.inject({ url: '/api/home' })).statusCode).toBe(401);
  });
});

describe('two devices after all', () => {
  it('a pair judged to be two devices is no longer offered, on home or the card', async () => {
    // A second board swap at .8, then judged two printers of one model taking turns on the address.
    await post(t.app, agentA.token, batch([agentReading('127.0.30.8', { serial: 'TWO1', total: 10, black: 50 }, { readAt: new Date(Date.now() - 2 * DAY), rangeId: agentA.rangeId })]));
    await post(t.app, agentA.token, batch([agentReading('127.0.30.8', { serial: 'TWO2', total: 10, black: 50 }, { rangeId: agentA.rangeId })]));
    for (const r of (await t.ctx.db.execute(sql`SELECT id, serial_number FROM devices WHERE serial_number LIKE 'TWO%'`)).rows as { id: number; serial_number: string }[]) ids[r.serial_number] = r.id;
    t.ctx.hub.publish('devices', { type: 'DEVICE_EVENT', deviceId: ids.TWO2!, locationId: locA, event: 'NEW_DEVICE' });
    const kinds = (h: Home) => h.devices!.quality.identity.map((p) => `${p.older.serialNumber}>${p.newer.serialNumber}`).sort();
    expect(kinds(await home(adminA))).toEqual(['OLD1>NEW1', 'TWO1>TWO2']);
    const notSame = (id: number, otherId: unknown, token = adminA) =>
      t.app.inject({ method: 'POST', url: `/api/devices/${id}/not-same`, headers: bearer(token), payload: { otherId } as object });
    expect((await notSame(ids.TWO2!, ids.TWO2!)).json().details[0].field).toBe('otherId');
    expect((await notSame(ids.TWO2!, 'x')).statusCode).toBe(400);
    expect((await notSame(ids.TWO2!, ids.SB1!)).statusCode).toBe(403);
    expect((await notSame(ids.TWO2!, ids.TWO1!, operatorA)).statusCode).toBe(403);
    const res = await notSame(ids.TWO2!, ids.TWO1!);
    expect(res.statusCode, res.body).toBe(200);
    expect(kinds(await home(adminA))).toEqual(['OLD1>NEW1']);
    const card = (await t.app.inject({ url: `/api/devices/${ids.TWO1}`, headers: bearer(adminA) })).json();
    expect(card.identity).toEqual([]);
  });
});

describe('merging two devices', () => {
  it('refuses bad input, other locations and callers without the grant', async () => {
    const self = await merge(ids.NEW1, ids.NEW1);
    expect(self.statusCode).toBe(400);
    expect(self.json().details[0].field).toBe('fromId');
    expect((await merge(ids.NEW1, 'x')).statusCode).toBe(400);
    expect((await merge(ids.NEW1, 99_999_999)).statusCode).toBe(404);
    expect((await merge(ids.NEW1, ids.SB1)).statusCode).toBe(403);
    expect((await merge(ids.NEW1, ids.OLD1, operatorA)).statusCode).toBe(403);
    expect((await t.app.inject({ url: `/api/devices/${ids.OLD1}`, headers: bearer(adminA) })).statusCode).toBe(200);
  });

  it('moves the older device\'s history into the newer one and deletes it', async () => {
    const daysOf = async (id: number) =>
      ((await t.ctx.db.execute(sql`SELECT to_char(fact_date, 'YYYY-MM-DD') AS d FROM dm_device_days WHERE device_id = ${id} ORDER BY 1`)).rows as { d: string }[]).map((r) => r.d);
    const oldDays = await daysOf(ids.OLD1);
    const newDays = await daysOf(ids.NEW1);
    // An implausible read of the old board (long ago, outside home's days) moves with its history.
    await t.ctx.db.execute(sql`INSERT INTO meter_flags (device_id, at, kind, meter) VALUES (${ids.OLD1}, now() - interval '90 days', 'BACKWARDS', 'total')`);
    const res = await merge(ids.NEW1, ids.OLD1);
    expect(res.statusCode, res.body).toBe(200);
    expect((await t.app.inject({ url: `/api/devices/${ids.NEW1}`, headers: bearer(adminA) })).json().meterFlags).toMatchObject([{ kind: 'BACKWARDS', meter: 'total' }]);
    expect(res.json().changed).toBe(oldDays.filter((d) => !newDays.includes(d)).length);
    expect(await daysOf(ids.NEW1)).toEqual([...new Set([...oldDays, ...newDays])].sort());
    expect((await t.app.inject({ url: `/api/devices/${ids.OLD1}`, headers: bearer(adminA) })).statusCode).toBe(404);
    const events = await t.ctx.db.execute(sql`SELECT count(*)::int AS n FROM device_events WHERE device_id = ${ids.NEW1} AND type = 'NEW_DEVICE'`);
    expect((events.rows[0] as { n: number }).n).toBe(2);
    // The months follow the moved days; home forgets the pair at once.
    const months = await t.ctx.db.execute(sql`SELECT sum(days_seen)::int AS n FROM dm_device_months WHERE device_id = ${ids.NEW1}`);
    expect((months.rows[0] as { n: number }).n).toBe(new Set([...oldDays, ...newDays]).size);
    expect((await home(adminA)).devices!.quality.identity).toEqual([]);
    const log = await t.ctx.db.execute(sql`SELECT message FROM event_logs WHERE message_code = 'device.merged'`);
    expect(log.rows).toHaveLength(1);
  });

  it('counts the devices with implausible meter reads and lists them, only the caller\'s (issue 41)', async () => {
    // SX1 (location B) went backwards as its two printers took turns; SA3 (location A) now jumps
    // by ten million pages within seconds of its last read.
    expect((await post(t.app, agentA.token, batch([agentReading('127.0.30.3', { serial: 'SA3', total: 10_000_000, black: 0 }, { rangeId: agentA.rangeId })]))).statusCode).toBe(200);
    // A flag is no device event: home counts it within HOME_MAX_AGE_MS, or at the next event, as here.
    t.ctx.hub.publish('devices', { type: 'DEVICE_EVENT', deviceId: ids.SA3, locationId: locA, event: 'STATUS_CHANGE' });
    const all = (await home()).devices!.quality.meterFlags;
    expect(all.byKind).toMatchObject({ JUMP: 1, BACKWARDS: 1 });
    expect(all.rows.map((r) => [r.serialNumber, r.kinds])).toEqual(expect.arrayContaining([['SA3', ['JUMP']], ['SX1', ['BACKWARDS']]]));
    const mine = (await home(operatorA)).devices!.quality.meterFlags;
    expect(mine).toMatchObject({ devices: 1, byKind: { JUMP: 1, BACKWARDS: 0, SPLIT: 0 } });
    expect(mine.rows).toEqual([{ id: ids.SA3, modelCode: 'LaserJet M404', serialNumber: 'SA3', ip: '127.0.30.3', locationName: expect.any(String), kinds: ['JUMP'], lastAt: expect.any(String) }]);
  });
});
