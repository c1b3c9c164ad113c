import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { locationIn } from '../../db/scope.ts';

/** One supply's day for the forecast: its level, whether it was replaced, the device's page counter that day. */
export type ForecastDayRow = { device_id: number; supply_index: number; day: string | null; level: number | null; replaced: boolean | null; total_count: number | string | null };
/** What the forecast job stores on a supply. */
export type StoredForecast = { device_id: number; supply_index: number; pages_left: number | null; days_left: number | null; runs_out_on: string | null; forecast_reason: string | null; level_step: number | null };

/**
 * The next `limit` devices after `after` (by id), and their supplies' days since `since`: one
 * row per supply and day, in supply and day order; a supply without days has one row with no day.
 */
export async function forecastRound(db: Db, after: number, limit: number, since: string): Promise<{ last: number; days: ForecastDayRow[] } | null> {
  const ids = (await db.execute<{ id: number }>(sql`SELECT id FROM devices WHERE id > ${after} ORDER BY id LIMIT ${limit}`)).rows.map((r) => Number(r.id));
  if (!ids.length) return null;
  const [first, last] = [ids[0]!, ids.at(-1)!];
  const days = (await db.execute<ForecastDayRow>(sql`
    SELECT s.device_id, s.supply_index, to_char(pd.fact_date, 'YYYY-MM-DD') AS day, pd.level, pd.replaced, dd.total_count
    FROM consumables s
    LEFT JOIN dm_device_part_days pd ON pd.device_id = s.device_id AND pd.supply_index = s.supply_index AND pd.fact_date > ${since}::date
    LEFT JOIN dm_device_days dd ON dd.device_id = pd.device_id AND dd.fact_date = pd.fact_date
    WHERE s.device_id BETWEEN ${first} AND ${last}
    ORDER BY s.device_id, s.supply_index, pd.fact_date`)).rows;
  return { last, days };
}

/**
 * Stores the forecasts on their supplies, with the time they were made, and those with a day in
 * the history as made on `madeOn` (a second run that day replaces the first's).
 */
export async function storeForecasts(db: Db, results: StoredForecast[], madeOn: string): Promise<void> {
  if (!results.length) return;
  const dated = results.filter((r) => r.runs_out_on !== null);
  if (dated.length) {
    await db.execute(sql`
      INSERT INTO supply_forecast_history (device_id, supply_index, made_on, runs_out_on, part_code)
      SELECT v.device_id, v.supply_index, ${madeOn}::date, v.runs_out_on, c.part_code
      FROM json_to_recordset(${JSON.stringify(dated)}::json) AS v(device_id integer, supply_index integer, runs_out_on date)
      JOIN consumables c ON c.device_id = v.device_id AND c.supply_index = v.supply_index
      ON CONFLICT (device_id, supply_index, made_on) DO UPDATE SET runs_out_on = excluded.runs_out_on, part_code = excluded.part_code`);
  }
  await db.execute(sql`
    UPDATE consumables c SET pages_left = v.pages_left, days_left = v.days_left, runs_out_on = v.runs_out_on, forecast_reason = v.forecast_reason, level_step = v.level_step, forecast_at = now()
    FROM json_to_recordset(${JSON.stringify(results)}::json)
      AS v(device_id integer, supply_index integer, pages_left integer, days_left real, runs_out_on date, forecast_reason varchar, level_step smallint)
    WHERE c.device_id = v.device_id AND c.supply_index = v.supply_index`);
}

/** Past forecasts are kept a year: those made before `before` go. */
export async function pruneForecastHistory(db: Db, before: string): Promise<void> {
  await db.execute(sql`DELETE FROM supply_forecast_history WHERE made_on < ${before}::date`);
}

/** The horizons a replacement is compared at: the forecast made this many days before it. */
export const ACCURACY_HORIZONS = [7, 14, 30] as const;
/** The window of replacements the accuracy covers, in days. */
export const ACCURACY_DAYS = 90;

export type AccuracyRow = { partCode: string | null; horizon: number; mae: number; count: number };

/**
 * The forecasts' mean absolute error in days over the replacements of the last 90 days (to
 * `today`) in the given locations (null: all): for each replacement, the forecast made 7, 14
 * and 30 days before against the day it really came; per part type and overall (partCode null).
 */
export async function forecastAccuracy(db: Db, locationIds: number[] | null, today: string): Promise<AccuracyRow[]> {
  const scope = locationIds ? locationIn(locationIds, sql`e.location_id`) : sql`true`;
  const rows = (await db.execute<{ partCode: string | null; horizon: number; mae: number; count: number }>(sql`
    WITH replaced AS (
      SELECT DISTINCT e.device_id, e.supply_index, (e.event_at AT TIME ZONE 'UTC')::date AS day
      FROM device_events e
      WHERE e.type = 'SUPPLY_REPLACED' AND e.supply_index IS NOT NULL AND ${scope}
        AND e.event_at >= (${today}::date - ${ACCURACY_DAYS}::int)::timestamp AT TIME ZONE 'UTC' AND e.event_at < (${today}::date + 1)::timestamp AT TIME ZONE 'UTC'
    ), errors AS (
      SELECT f.part_code, h.horizon, abs(f.runs_out_on - r.day) AS err
      FROM replaced r CROSS JOIN (VALUES ${sql.join(ACCURACY_HORIZONS.map((h) => sql`(${h}::int)`), sql`, `)}) AS h(horizon)
      JOIN supply_forecast_history f ON f.device_id = r.device_id AND f.supply_index = r.supply_index AND f.made_on = r.day - h.horizon
    )
    SELECT part_code AS "partCode", horizon, round(avg(err)::numeric, 1)::float8 AS mae, count(*)::int AS count
    FROM errors GROUP BY GROUPING SETS ((part_code, horizon), (horizon))
    ORDER BY part_code NULLS FIRST, horizon`)).rows;
  return rows.map((r) => ({ partCode: r.partCode, horizon: Number(r.horizon), mae: Number(r.mae), count: Number(r.count) }));
}
