import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { bearer, createTestApp, signIn } from '../../test/test-app.ts';
import { addLocation } from '../../test/scope-fixture.ts';
import { sqlRows } from '../../test/sql-rows.ts';
import { seededRandom as random } from '../../test/seeded-random.ts';

/**
 * The reports read whole months from the months the database rolls up from the days
 * (dm_device_months, kept by triggers), and other periods from the days. Both must give what
 * the days say, however the days were written: in any order, corrected later, deleted. The
 * answers here come from a plain reference over the same generated days.
 */

type Day = { date: string; status: string; start: number | null; total: number | null; bw: number | null; color: number | null; a3: number | null; copies: number | null };

let t: Awaited<ReturnType<typeof createTestApp>>;
let admin: string;
let loc: number;
const history = new Map<number, Map<string, Day>>();

const dayAfter = (d: string, n = 1) => new Date(Date.parse(`${d}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/** Days from May to October 2026 with gaps, resets, counters missing now and then, a colour counter that appears late. */
function generate(rnd: () => number): Day[] {
  const days: Day[] = [];
  let total = Math.floor(rnd() * 50_000);
  let bw = Math.floor(total * 0.7);
  let a3 = 0;
  let copies = 0;
  const colorFrom = rnd() < 0.5 ? '2026-05-01' : '2026-07-20';
  for (let d = '2026-05-01'; d <= '2026-10-31'; d = dayAfter(d)) {
    if (rnd() < 0.25) continue; // not read that day
    if (rnd() < 0.03) { total = Math.floor(rnd() * 100); bw = Math.floor(total / 2); a3 = 0; copies = 0; } // a new board
    const start = total;
    const printed = Math.floor(rnd() * 300);
    total += printed;
    bw += Math.floor(printed * 0.6);
    a3 += Math.floor(printed * 0.1);
    copies += Math.floor(printed * 0.2);
    const gone = (p: number) => rnd() < p;
    days.push({
      date: d, status: rnd() < 0.8 ? 'OK' : rnd() < 0.5 ? 'WARNING' : 'ERROR', start,
      total: gone(0.03) ? null : total, bw: gone(0.05) ? null : bw,
      color: d < colorFrom || gone(0.05) ? null : total - bw, a3: gone(0.1) ? null : a3, copies: gone(0.5) ? null : copies,
    });
  }
  return days;
}

const write = (deviceId: number, d: Day) =>
  t.ctx.db.execute(sql`INSERT INTO dm_device_days (fact_date, device_id, location_id, readings, status_code, total_start, total_count, mono_count, color_count, a3_count, copy_count)
    VALUES (${d.date}::date, ${deviceId}, ${loc}, 1, ${d.status}, ${d.start}, ${d.total}, ${d.bw}, ${d.color}, ${d.a3}, ${d.copies})
    ON CONFLICT (fact_date, device_id) DO UPDATE SET status_code = excluded.status_code, total_start = excluded.total_start, total_count = excluded.total_count,
      mono_count = excluded.mono_count, color_count = excluded.color_count, a3_count = excluded.a3_count, copy_count = excluded.copy_count`);

/** The counters report by its definition: forward steps from each read day to the next, the last day before the period first. */
function expectedCounters(days: Day[], from: string, to: string) {
  const sorted = [...days].sort((a, b) => a.date.localeCompare(b.date));
  const base = sorted.filter((d) => d.date < from).at(-1);
  const inside = sorted.filter((d) => d.date >= from && d.date <= to);
  if (!inside.length) return { bwStart: null, bwEnd: null, bwDiff: null, totalStart: null, totalEnd: null, totalDiff: null, colorDiff: null, a3Diff: null, copyDiff: null, reason: null };
  const series = base ? [base, ...inside] : inside;
  const back: string[] = [];
  const sumSteps = (name: string, value: (d: Day) => number | null, first?: (d: Day) => number | null) => {
    if (inside.every((d) => value(d) === null)) return null;
    let sum = 0;
    let wentBack = false;
    series.forEach((d, i) => {
      const prev = i > 0 ? value(series[i - 1]) : null;
      const now = value(d);
      const isBase = d === base;
      const step = prev !== null && now !== null ? now - prev : prev === null && first && !isBase && now !== null && first(d) !== null ? now - first(d)! : null;
      if (step !== null && step < 0) wentBack = true;
      if (step !== null && step > 0) sum += step;
    });
    if (wentBack) back.push(name);
    return sum;
  };
  const firstKnown = (v: (d: Day) => number | null) => inside.map(v).find((x) => x !== null) ?? null;
  const lastKnown = (v: (d: Day) => number | null) => [...inside].reverse().map(v).find((x) => x !== null) ?? null;
  const bwDiff = sumSteps('bw', (d) => d.bw);
  const colorDiff = sumSteps('color', (d) => d.color);
  const totalDiff = sumSteps('total', (d) => d.total, (d) => d.start);
  const a3Diff = sumSteps('a3', (d) => d.a3);
  const copyDiff = sumSteps('copy', (d) => d.copies);
  return {
    bwStart: (base ? base.bw : null) ?? firstKnown((d) => d.bw), bwEnd: lastKnown((d) => d.bw), bwDiff,
    totalStart: (base ? base.total : null) ?? firstKnown((d) => d.start), totalEnd: lastKnown((d) => d.total), totalDiff,
    colorDiff, a3Diff, copyDiff, reason: back.length ? back.join(',') : null,
  };
}

function expectedAvailability(days: Day[], from: string, to: string) {
  const inside = days.filter((d) => d.date >= from && d.date <= to);
  return { daysSeen: inside.length, daysAvailable: inside.filter((d) => d.status === 'OK' || d.status === 'WARNING').length };
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t.app);
  loc = await addLocation(t.ctx.db, 'RM_LOC');
  const rnd = random(20261125);
  for (let i = 0; i < 8; i++) {
    const [row] = await sqlRows<{ id: number }>(t.ctx.db, sql`INSERT INTO devices (location_id, ip, serial_number, model_code, device_type, color_type)
      VALUES (${loc}, '127.0.0.9', ${`RM-${i}`}, 'M', 'MFP', 'COLOR') RETURNING id`);
    const id = Number(row.id);
    const days = generate(rnd);
    // Written out of order (an agent catching up), a tenth of them wrong at first and corrected later, some deleted again.
    const shuffled = [...days].sort(() => rnd() - 0.5);
    for (const d of shuffled) await write(id, rnd() < 0.1 ? { ...d, total: (d.total ?? 0) + 5000, bw: 1 } : d);
    for (const d of days) await write(id, d);
    const kept = new Map(days.map((d) => [d.date, d]));
    for (const d of days) {
      if (rnd() < 0.03) {
        await t.ctx.db.execute(sql`DELETE FROM dm_device_days WHERE device_id = ${id} AND fact_date = ${d.date}::date`);
        kept.delete(d.date);
      }
    }
    history.set(id, kept);
  }
  // A printer elsewhere with months of its own: a report narrowed to the location or to MFPs leaves it out.
  const other = await addLocation(t.ctx.db, 'RM_OTHER');
  const [elsewhere] = await sqlRows<{ id: number }>(t.ctx.db, sql`INSERT INTO devices (location_id, ip, serial_number, model_code, device_type, color_type)
    VALUES (${other}, '127.0.0.10', 'RM-ELSEWHERE', 'P', 'PRINTER', 'MONO') RETURNING id`);
  await t.ctx.db.execute(sql`INSERT INTO dm_device_days (fact_date, device_id, location_id, readings, status_code, total_start, total_count, mono_count)
    SELECT x.date::date, ${Number(elsewhere.id)}, ${other}, 1, x.status, x.start, x.total, x.bw FROM json_to_recordset(${JSON.stringify(generate(rnd))}::json)
      AS x(date text, status text, start bigint, total bigint, bw bigint)`);
  // About 2,300 statements one at a time (the triggers' order of writes is what is tested): 100 to 150 s at load 25 to 30 on PGlite.
}, 300_000);
afterAll(() => t.close());

const get = (url: string) => t.app.inject({ url, headers: bearer(admin) });

describe('reports over whole months and over days', () => {
  // Whole months (the rolled-up months), a month and a half, single days, and a week across a month's end (the days).
  const periods = [['2026-06-01', '2026-06-30'], ['2026-07-01', '2026-09-30'], ['2026-05-01', '2026-10-31'], ['2026-06-15', '2026-07-31'], ['2026-08-28', '2026-09-03'], ['2026-10-31', '2026-10-31']];

  // Every location, one location and a kind of device (issue 53: a narrowed report reads the months of its devices alone).
  const narrowed = () => ['', `&location=${loc}`, '&printerType=MFP&colorType=COLOR'];

  /** Each generated device's row of a report, as the days say, for the whole fleet and narrowed; the printer elsewhere only in the whole fleet's. */
  async function asTheDaysSay(report: string, from: string, to: string, expected: (days: Day[], from: string, to: string) => Record<string, unknown>) {
    for (const filter of narrowed()) {
      const rows: { serialNumber: string }[] = (await get(`/api/reports/${report}?from=${from}&to=${to}${filter}`)).json();
      if (filter) expect(rows.map((r) => r.serialNumber)).not.toContain('RM-ELSEWHERE');
      for (const [id, days] of history) {
        const row = rows.find((r) => r.serialNumber === `RM-${[...history.keys()].indexOf(id)}`);
        expect(row, `device ${id}${filter}`).toMatchObject(expected([...days.values()], from, to));
      }
    }
  }

  it.each(periods)('counts the counters of %s to %s as the days say, for the whole fleet and narrowed', (from, to) => asTheDaysSay('device-counters', from, to, expectedCounters));

  it.each(periods)('counts the days read and working of %s to %s as the days say, for the whole fleet and narrowed', (from, to) => asTheDaysSay('device-availability', from, to, expectedAvailability));

  it('charts the months with the steps the rows sum', async () => {
    const months = (await get('/api/reports/device-counters/months?from=2026-06-01&to=2026-08-31')).json();
    const rows = (await get('/api/reports/device-counters?from=2026-06-01&to=2026-08-31')).json();
    const mine = months.filter((m: { location: string }) => m.location === 'Location RM_LOC');
    expect(mine.map((m: { month: string }) => m.month)).toEqual(['2026-06', '2026-07', '2026-08']);
    const sum = (k: 'bw' | 'color') => mine.reduce((s: number, m: Record<string, number>) => s + m[k], 0);
    const rowSum = (k: 'bwDiff' | 'colorDiff') => rows.filter((r: { location: string }) => r.location === 'Location RM_LOC').reduce((s: number, r: Record<string, number | null>) => s + (r[k] ?? 0), 0);
    expect(sum('bw')).toBe(rowSum('bwDiff'));
    expect(sum('color')).toBe(rowSum('colorDiff'));
  });

  it('forgets a deleted device\'s months with it', async () => {
    const [id] = history.keys();
    await t.ctx.db.execute(sql`DELETE FROM devices WHERE id = ${id}`);
    const [{ n }] = await sqlRows<{ n: number }>(t.ctx.db, sql`SELECT count(*)::int AS n FROM dm_device_months WHERE device_id = ${id}`);
    expect(n).toBe(0);
    history.delete(id);
  });
});
