import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { bearer, signedInAs, testApp } from '../../test/test-app.ts';
import { addLocation } from '../../test/scope-fixture.ts';
import { sqlRows } from '../../test/sql-rows.ts';

/**
 * A counter reset (a board swap) as one act (issue 54), on a generated history: a colour MFP
 * whose board was swapped on 15 October 2026, every meter back near zero. One reset carries
 * every meter over at once, so the meter reads go on without a step back and without black plus
 * colour parting from the total, and the card, the grid and the report show the same count.
 */
const t = testApp();
let here: number;
let mfp: number;
let fresh: number;
let operator: string;

const METERS = ['total', 'mono', 'color', 'a3', 'a4', 'a3Bw', 'a4Bw', 'a3Color', 'a4Color', 'copy', 'scan', 'fax', 'duplex'] as const;
type Day = Record<(typeof METERS)[number], number>;
/** A day's counters from its total, every meter a fixed share of it (black + colour = total, A3 + A4 = total). */
const counters = (total: number): Day => {
  const mono = Math.round(total * 0.7);
  const a3Bw = Math.round(mono * 0.1);
  const a3Color = Math.round((total - mono) * 0.1);
  return {
    total, mono, color: total - mono, a3: a3Bw + a3Color, a4: total - a3Bw - a3Color, a3Bw, a4Bw: mono - a3Bw, a3Color, a4Color: total - mono - a3Color,
    copy: Math.round(total * 0.2), scan: Math.round(total * 0.05) + 1, fax: Math.round(total * 0.01) + 1, duplex: Math.round(total * 0.4),
  };
};
/** 28 September to 31 October: 100 pages a day; the old board stops at 14 October, the new one starts at 0 on the 15th. */
const DAYS: [string, number][] = [];
for (let i = 0; i < 34; i++) {
  const day = new Date(Date.UTC(2026, 8, 28 + i)).toISOString().slice(0, 10);
  DAYS.push([day, day < '2026-10-15' ? 50_000 + 100 * i : 100 * (i - 16)]);
}
const OLD_LAST = 50_000 + 100 * 16;
const NEW_LAST = 100 * 17;
const OCTOBER = 'from=2026-10-01&to=2026-10-31';

const call = (token: string, method: 'GET' | 'POST', url: string, payload?: unknown, lang = 'en') =>
  t.app.inject({ method, url, payload: payload as never, headers: { ...bearer(token), 'accept-language': lang } });
const reset = (body: Record<string, unknown>, token = t.admin, lang = 'en', id = mfp) =>
  call(token, 'POST', `/api/devices/${id}/meter-corrections/reset`, { fromDate: '2026-10-15', reason: 'Main board swapped', ...body }, lang);
const report = async () => ((await call(t.admin, 'GET', `/api/reports/meter-reads?${OCTOBER}`)).json() as Record<string, unknown>[]).find((r) => r.serialNumber === 'SW-1')!;
const card = async () => (await call(t.admin, 'GET', `/api/devices/${mfp}`)).json() as Record<string, unknown>;
const gridRow = async () => {
  const filter = encodeURIComponent(JSON.stringify(['serialNumber', '=', 'SW-1']));
  return ((await call(t.admin, 'GET', `/api/devices/page?page=10,1&filter-json=${filter}`)).json() as { pageRows: Record<string, unknown>[] }).pageRows[0];
};

beforeAll(async () => {
  here = await addLocation(t.ctx.db, 'SW_HERE');
  operator = await signedInAs(t, { login: 'sw_op', role: 'OPERATOR', locationIds: [here] });
  const now = counters(NEW_LAST);
  const [d] = await sqlRows<{ id: number }>(t.ctx.db, sql`INSERT INTO devices (location_id, ip, serial_number, model_code, device_type, color_type,
      total_count, mono_count, color_count, a3_count, a4_count, copy_count, scan_count, fax_count, duplex_count)
    VALUES (${here}, '127.0.0.54', 'SW-1', 'Colour MFP 54', 'MFP', 'COLOR', ${now.total}, ${now.mono}, ${now.color}, ${now.a3}, ${now.a4}, ${now.copy}, ${now.scan}, ${now.fax}, ${now.duplex})
    RETURNING id`);
  mfp = Number(d.id);
  for (const [day, total] of DAYS) {
    const c = counters(total);
    await t.ctx.db.execute(sql`INSERT INTO dm_device_days (fact_date, device_id, location_id, readings, status_code, total_start, total_count, mono_count, color_count,
      a3_count, a4_count, a3_bw_count, a4_bw_count, a3_color_count, a4_color_count, copy_count, scan_count, fax_count, duplex_count)
      VALUES (${day}::date, ${mfp}, ${here}, 1, 'OK', ${c.total}, ${c.total}, ${c.mono}, ${c.color}, ${c.a3}, ${c.a4}, ${c.a3Bw}, ${c.a4Bw}, ${c.a3Color}, ${c.a4Color},
        ${c.copy}, ${c.scan}, ${c.fax}, ${c.duplex})`);
  }
  // Ingest's plausibility check flagged the swap when the new board's first read came in.
  await t.ctx.db.execute(sql`INSERT INTO meter_flags (device_id, at, kind, meter, previous_value, value) VALUES (${mfp}, '2026-10-15T08:00:00Z', 'BACKWARDS', 'total', ${OLD_LAST}, 40)`);
  const [f] = await sqlRows<{ id: number }>(t.ctx.db, sql`INSERT INTO devices (location_id, ip, serial_number, model_code) VALUES (${here}, '127.0.0.55', 'SW-2', 'M') RETURNING id`);
  fresh = Number(f.id);
});

describe('a counter reset (issue 54)', () => {
  it('carries every meter over at once: the meter reads go on, the card and the grid show the same count', async () => {
    // As read: the swap is a step back, and the card shows the new board's count.
    expect(await report()).toMatchObject({ total101Last: NEW_LAST, dataQuality: 'BACKWARDS' });

    const res = await reset({});
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json() as { id: number; meter: string; offset: number; fromDate: string; resetId: number | null }[];
    // Every stored meter, one act: the old board's last read of each, all under one reset.
    const old = counters(OLD_LAST);
    expect(rows).toHaveLength(13);
    expect(new Set(rows.map((r) => r.resetId))).toEqual(new Set([Math.min(...rows.map((r) => r.id))]));
    expect(Object.fromEntries(rows.map((r) => [r.meter, r.offset]))).toEqual({
      total: old.total, mono: old.mono, color: old.color, a3: old.a3, a4: old.a4, a3Bw: old.a3Bw, a4Bw: old.a4Bw, a3Color: old.a3Color, a4Color: old.a4Color,
      copies: old.copy, scans: old.scan, fax: old.fax, duplex: old.duplex,
    });
    expect(rows.every((r) => r.fromDate === '2026-10-15')).toBe(true);

    // The month's pages as if the board had never changed: 31 days of 100 pages; no step back, no split.
    const r = await report();
    const raw = counters(NEW_LAST);
    const now = Object.fromEntries(METERS.map((m) => [m, old[m] + raw[m]])) as Day;
    expect(r).toMatchObject({
      total101First: counters(50_000 + 200).total, total101Last: now.total, total101Pages: 100 * 31, monoPages: old.mono - counters(50_200).mono + raw.mono,
      monoLast: now.mono, colorLast: now.color, a3Last: now.a3, copiesLast: now.copy, scansLast: now.scan, duplexLast: now.duplex,
      dataQuality: 'CORRECTED',
    });
    // The card and the grid show the count the report bills.
    const c = await card();
    expect(c).toMatchObject({ totalCount: now.total, monoCount: now.mono, colorCount: now.color, a3Count: now.a3, copyCount: now.copy, faxCount: now.fax, duplexCount: now.duplex, equivalentCount: now.total + now.a3 });
    expect(await gridRow()).toMatchObject({ totalCount: now.total, monoCount: now.mono, colorCount: now.color });
    // The history stays as read.
    const [last] = await sqlRows<{ total: number }>(t.ctx.db, sql`SELECT total_count AS total FROM dm_device_days WHERE device_id = ${mfp} ORDER BY fact_date DESC LIMIT 1`);
    expect(Number(last.total)).toBe(NEW_LAST);

    const logs = await sqlRows<{ code: string; message: string }>(t.ctx.db, sql`SELECT message_code AS code, message FROM event_logs WHERE object_class = 'DeviceDao' AND object_id = ${mfp} ORDER BY id`);
    expect(logs.map((l) => l.code)).toEqual(['device.meterReset']);
    expect(logs[0].message).toBe(`admin entered counter reset #${rows[0].resetId} of SW-1 from 2026-10-15: 13 meters carried over, the total by ${OLD_LAST} pages (Main board swapped)`);
  });

  it('is withdrawn as one act: every meter back to the figures as read', async () => {
    const rows = (await call(t.admin, 'GET', `/api/devices/${mfp}/meter-corrections`)).json() as { id: number; meter: string }[];
    const mono = rows.find((c) => c.meter === 'mono')!;
    const res = await call(t.admin, 'POST', `/api/devices/${mfp}/meter-corrections/${mono.id}/withdraw`, { reason: 'Wrong device' });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json() as { withdrawnAt: string | null }[]).every((c) => c.withdrawnAt !== null)).toBe(true);
    expect(await report()).toMatchObject({ total101Last: NEW_LAST, monoLast: counters(NEW_LAST).mono, dataQuality: 'BACKWARDS' });
    expect(await card()).toMatchObject({ totalCount: NEW_LAST, monoCount: counters(NEW_LAST).mono });
  });

  it('is a device write with checked input: the grant, the locations, the field named in the caller\'s language', async () => {
    expect((await reset({}, operator)).statusCode).toBe(403);
    const other = await addLocation(t.ctx.db, 'SW_THERE');
    const boss = await signedInAs(t, { login: 'sw_boss', role: 'ADMIN', locationIds: [other] });
    expect((await reset({}, boss)).statusCode).toBe(403);
    expect((await reset({}, t.admin, 'en', 999_999)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: `/api/devices/${mfp}/meter-corrections/reset`, payload: { fromDate: '2026-10-15', reason: 'x' } })).statusCode).toBe(401);
    const bad = async (body: Record<string, unknown>, lang: string, id = mfp) => {
      const res = await reset(body, t.admin, lang, id);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      return res.json().details[0] as { field: string; message: string };
    };
    expect(await bad({ fromDate: '2026-02-30' }, 'en')).toEqual({ field: 'fromDate', message: 'Enter a date as YYYY-MM-DD' });
    expect(await bad({ reason: ' ' }, 'ru')).toEqual({ field: 'reason', message: 'Обязательное поле' });
    expect(await bad({ reason: 'x'.repeat(501) }, 'en')).toEqual({ field: 'reason', message: 'The value is too long' });
    // Nothing read before the day: nothing to carry over.
    expect(await bad({}, 'ru', fresh)).toEqual({ field: 'fromDate', message: 'У устройства нет показаний до этого дня, которые можно перенести' });
    const [n] = await sqlRows<{ n: number }>(t.ctx.db, sql`SELECT count(*)::int AS n FROM meter_corrections WHERE withdrawn_at IS NULL`);
    expect(n.n).toBe(0);
  });
});
