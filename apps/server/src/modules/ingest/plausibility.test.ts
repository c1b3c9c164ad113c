import { beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { bearer, testApp } from '../../test/test-app.ts';
import { ingestTables } from '../../test/ingest-tables.ts';
import { meterFlagsInPeriod } from '../devices/meter-flags.repository.ts';
import { stepLimit } from './plausibility.ts';
import { agentReading, batch, createAgent, post, type Printer } from './ingest.fixtures.ts';
import type { ReadingCounters } from '@pagewatch/contracts/reading';

/** Plausibility of meter reads (issue 41): flags written at ingest, shown on the card, read by reports. */

const t = testApp();

const { rows, clean } = ingestTables(() => t.ctx.db);
const MIN = 60_000;

describe('meter plausibility', () => {
  let token: string;
  let rangeId: number;
  const T0 = Date.now() - 24 * 3600_000;
  const send = async (ip: string, p: Printer, at: Date, counters: Partial<ReadingCounters> = {}) => {
    const r = agentReading(ip, p, { readAt: at, rangeId });
    r.reading.counters = { ...r.reading.counters, ...counters };
    const res = await post(t.app, token, batch([r]));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ stored: 1 });
  };
  const idOf = async (serial: string) => (await rows<{ id: number }>(sql`SELECT id FROM devices WHERE serial_number = ${serial}`))[0].id;
  const flags = (serial: string) =>
    rows<Record<string, unknown>>(sql`
      SELECT f.kind, f.meter, f.previous_value::float8 AS previous_value, f.value::float8 AS value, f.detail
      FROM meter_flags f JOIN devices d ON d.id = f.device_id WHERE d.serial_number = ${serial} ORDER BY f.id`);

  beforeEach(async () => {
    await clean();
    ({ token, rangeId } = (await createAgent(t.app, t.admin, { range: { from: '127.0.12.1', to: '127.0.12.254' } })) as { token: string; rangeId: number });
  });

  it('flags a step no device could print in the time, once, and not a normal step', async () => {
    await send('127.0.12.1', { serial: 'J1', total: 1000 }, new Date(T0));
    // 500 pages in 10 minutes: within the default speed's limit.
    await send('127.0.12.1', { serial: 'J1', total: 1500 }, new Date(T0 + 10 * MIN));
    expect(await flags('J1')).toEqual([]);
    // A million pages in the next 10 minutes: the total, black-and-white and A4 meters all jump; one flag.
    await send('127.0.12.1', { serial: 'J1', total: 1_000_000 }, new Date(T0 + 20 * MIN));
    expect(await flags('J1')).toEqual([{
      kind: 'JUMP', meter: 'total', previous_value: 1500, value: 1_000_000,
      detail: { minutes: 10, limit: stepLimit(10, 150), others: [{ meter: 'mono', previousValue: 1500, value: 1_000_000 }, { meter: 'a4', previousValue: 1500, value: 1_000_000 }] },
    }]);
    // The reading is stored all the same.
    expect((await rows<{ total: number }>(sql`SELECT total_count::float8 AS total FROM devices WHERE serial_number = 'J1'`))[0].total).toBe(1_000_000);
  });

  it('judges a step by the rated speed the reading gives (the model\'s name), the default where it gives none', async () => {
    const sendAt = async (serial: string, total: number, at: number, ratedPpm?: number) => {
      const r = agentReading(serial === 'S30' ? '127.0.12.3' : '127.0.12.4', { serial, total }, { readAt: new Date(at), rangeId });
      if (ratedPpm !== undefined) r.reading.ratedPpm = ratedPpm;
      expect((await post(t.app, token, batch([r]))).statusCode).toBe(200);
    };
    // 1,000 pages in 10 minutes: too many for a 30-page-a-minute device (limit 700), not for the default speed (3,100).
    await sendAt('S30', 10_000, T0, 30);
    await sendAt('S30', 11_000, T0 + 10 * MIN, 30);
    expect(await flags('S30')).toMatchObject([{ kind: 'JUMP', meter: 'total', detail: { limit: stepLimit(10, 30) } }]);
    await sendAt('S0', 10_000, T0);
    await sendAt('S0', 11_000, T0 + 10 * MIN);
    expect(await flags('S0')).toEqual([]);
  });

  it('flags any meter going backwards, once per reading, and keeps the reading', async () => {
    await send('127.0.12.2', { serial: 'B1', total: 5000 }, new Date(T0), { scans: 300 });
    // The total moves on; the scan meter alone goes back (no event watches it: the flag does).
    await send('127.0.12.2', { serial: 'B1', total: 5100 }, new Date(T0 + 10 * MIN), { scans: 250 });
    expect(await flags('B1')).toEqual([{ kind: 'BACKWARDS', meter: 'scans', previous_value: 300, value: 250, detail: {} }]);
    expect((await rows<{ scans: number }>(sql`SELECT scan_count::float8 AS scans FROM devices WHERE serial_number = 'B1'`))[0].scans).toBe(250);
    // A total going back: one flag for the reading, the other meters with it in its detail.
    await send('127.0.12.2', { serial: 'B1', total: 4000 }, new Date(T0 + 20 * MIN), { scans: 260 });
    const all = await flags('B1');
    expect(all).toHaveLength(2);
    expect(all[1]).toEqual({
      kind: 'BACKWARDS', meter: 'total', previous_value: 5100, value: 4000,
      detail: { others: [{ meter: 'mono', previousValue: 5100, value: 4000 }, { meter: 'a4', previousValue: 5100, value: 4000 }] },
    });
  });

  it('flags a split that does not add up when it appears, not again at every poll', async () => {
    const split = (total: number, bw: number, color: number) => ({ mono: bw, color, splitMismatch: total === bw + color ? null : { total, monoPlusColor: bw + color } });
    await send('127.0.12.3', { serial: 'S1', total: 1000 }, new Date(T0), split(1000, 700, 300));
    await send('127.0.12.3', { serial: 'S1', total: 1100 }, new Date(T0 + 10 * MIN), split(1100, 700, 350));
    // The same gap at the next poll is the same fault.
    await send('127.0.12.3', { serial: 'S1', total: 1200 }, new Date(T0 + 20 * MIN), split(1200, 750, 400));
    expect(await flags('S1')).toEqual([{ kind: 'SPLIT', meter: 'total', previous_value: null, value: 1100, detail: { monoPlusColor: 1050 } }]);
    // The device card shows it, with the device's own split mismatch it unifies with.
    const id = await idOf('S1');
    const card = (await t.app.inject({ url: `/api/devices/${id}`, headers: bearer(t.admin) })).json();
    expect(card.splitMismatch).toEqual({ total: 1200, monoPlusColor: 1150 });
    expect(card.meterFlags).toEqual([
      { at: new Date(T0 + 10 * MIN).toISOString(), kind: 'SPLIT', meter: 'total', previousValue: null, value: 1100, minutes: null, limit: null, monoPlusColor: 1050, others: [] },
    ]);
  });

  it('shows the flags on the card, the newest first, and gives reports those of a period', async () => {
    await send('127.0.12.4', { serial: 'C1', total: 1000 }, new Date(T0));
    await send('127.0.12.4', { serial: 'C1', total: 900 }, new Date(T0 + 10 * MIN));
    await send('127.0.12.4', { serial: 'C1', total: 900_000 }, new Date(T0 + 20 * MIN));
    await send('127.0.12.5', { serial: 'C2', total: 10 }, new Date(T0));
    await send('127.0.12.5', { serial: 'C2', total: 20 }, new Date(T0 + 10 * MIN));
    const [c1, c2] = [await idOf('C1'), await idOf('C2')];
    const card = (await t.app.inject({ url: `/api/devices/${c1}`, headers: bearer(t.admin) })).json();
    expect(card.meterFlags.map((f: { kind: string }) => f.kind)).toEqual(['JUMP', 'BACKWARDS']);
    expect((await t.app.inject({ url: `/api/devices/${c2}`, headers: bearer(t.admin) })).json().meterFlags).toEqual([]);
    const day = new Date(T0 + 20 * MIN).toISOString().slice(0, 10);
    const period = await meterFlagsInPeriod(t.ctx.db, [c1, c2], new Date(T0).toISOString().slice(0, 10), day);
    expect([...period.keys()]).toEqual([c1]);
    expect(period.get(c1)!.map((f) => [f.kind, f.meter, f.previousValue, f.value])).toEqual([['BACKWARDS', 'total', 1000, 900], ['JUMP', 'total', 900, 900_000]]);
    // A period after the flags has none.
    expect((await meterFlagsInPeriod(t.ctx.db, [c1], '2099-01-01', '2099-01-31')).size).toBe(0);
  });

  it('counts no page for a step backwards in the counters report, by day and by month', async () => {
    // A board swap on 6 October: the counters start again near zero.
    await send('127.0.12.6', { serial: 'R1', total: 1000 }, new Date('2026-10-05T12:00:00Z'));
    await send('127.0.12.6', { serial: 'R1', total: 40 }, new Date('2026-10-06T12:00:00Z'));
    await send('127.0.12.6', { serial: 'R1', total: 240 }, new Date('2026-10-07T12:00:00Z'));
    expect((await flags('R1')).map((f) => f.kind)).toEqual(['BACKWARDS']);
    for (const [from, to] of [['2026-10-05', '2026-10-07'], ['2026-10-01', '2026-10-31']]) {
      const res = await t.app.inject({ url: `/api/reports/device-counters?from=${from}&to=${to}`, headers: bearer(t.admin) });
      expect(res.statusCode, res.body).toBe(200);
      const row = res.json().find((r: { serialNumber: string }) => r.serialNumber === 'R1');
      // 1000 → 40 adds nothing; 40 → 240 is 200 pages.
      expect(row, `${from}..${to}`).toMatchObject({ totalDiff: 200, bwDiff: 200, totalEnd: 240 });
      expect(row.reason).toContain('total');
    }
  });
});
