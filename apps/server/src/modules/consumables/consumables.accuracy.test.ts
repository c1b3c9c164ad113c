import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { bearer, signedInAs, testApp } from '../../test/test-app.ts';
import { addLocation } from '../../test/scope-fixture.ts';
import { sqlRows } from '../../test/sql-rows.ts';

/**
 * Forecasts that prove themselves (issue 45): generated histories whose errors are known — past
 * forecasts made 7, 14 and 30 days before each replacement, the replacement's real day — give
 * the mean absolute error in days per part type and overall, over the last 90 days, within the
 * caller's locations.
 */
const t = testApp();
let operator: string;
const DAY = 86_400_000;
const day = (n: number) => new Date(Date.now() - n * DAY).toISOString().slice(0, 10);

/**
 * A device at the location whose supply was replaced `ago` days ago; `errors` maps a horizon
 * (days before the replacement) to how many days late (+) or early (−) that day's forecast was.
 */
async function replaced(location: number, part: string, ago: number, errors: Record<number, number>) {
  const [d] = await sqlRows<{ id: number }>(t.ctx.db, sql`INSERT INTO devices (location_id, ip, serial_number, model_code) VALUES (${location}, '127.0.0.8', ${`FA-${part}-${ago}`}, 'M') RETURNING id`);
  await t.ctx.db.execute(sql`INSERT INTO consumables (device_id, supply_index, part_code, part_name, level, refreshed_at) VALUES (${d.id}, 1, ${part}, ${part}, 100, now())`);
  await t.ctx.db.execute(sql`INSERT INTO device_events (event_at, type, device_id, location_id, supply_index, part_code, processed) VALUES (${`${day(ago)}T12:00:00Z`}::timestamptz, 'SUPPLY_REPLACED', ${d.id}, ${location}, 1, ${part}, true)`);
  for (const [h, err] of Object.entries(errors)) {
    await t.ctx.db.execute(sql`INSERT INTO supply_forecast_history (device_id, supply_index, made_on, runs_out_on, part_code) VALUES (${d.id}, 1, ${day(ago + Number(h))}::date, ${day(ago - err)}::date, ${part})`);
  }
}

beforeAll(async () => {
  const mine = await addLocation(t.ctx.db, 'FA_MINE');
  const other = await addLocation(t.ctx.db, 'FA_OTHER');
  operator = await signedInAs(t, { login: 'fa_op', role: 'OPERATOR', locationIds: [mine] });
  await replaced(mine, 'toner', 10, { 30: 6, 14: -2, 7: 1 });
  await replaced(mine, 'toner', 20, { 30: -4, 7: 3 });
  await replaced(mine, 'opc', 5, { 7: -5 });
  // Elsewhere, and too long ago: never counted for the operator.
  await replaced(other, 'toner', 3, { 7: 40 });
  await replaced(mine, 'toner', 120, { 7: 50 });
});

const accuracy = async (token: string) => {
  const res = await t.app.inject({ url: '/api/consumables/forecast-accuracy', headers: bearer(token) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { partCode: string | null; horizon: number; mae: number; count: number }[];
};

describe('forecast accuracy', () => {
  it('gives the mean absolute error in days per part type and horizon, and overall, from the known errors', async () => {
    expect(await accuracy(operator)).toEqual([
      { partCode: null, horizon: 7, mae: 3, count: 3 }, // |1|, |3|, |−5|
      { partCode: null, horizon: 14, mae: 2, count: 1 },
      { partCode: null, horizon: 30, mae: 5, count: 2 }, // |6|, |−4|
      { partCode: 'opc', horizon: 7, mae: 5, count: 1 },
      { partCode: 'toner', horizon: 7, mae: 2, count: 2 },
      { partCode: 'toner', horizon: 14, mae: 2, count: 1 },
      { partCode: 'toner', horizon: 30, mae: 5, count: 2 },
    ]);
  });

  it('counts every location for whoever sees them all, and answers 401 without a session', async () => {
    expect((await accuracy(t.admin)).find((r) => r.partCode === null && r.horizon === 7)).toEqual({ partCode: null, horizon: 7, mae: 12.3, count: 4 });
    expect((await t.app.inject({ url: '/api/consumables/forecast-accuracy' })).statusCode).toBe(401);
  });
});
