import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

/** One supply's day for the forecast: its level, whether it was replaced, the device's page counter that day. */
export type ForecastDayRow = { device_id: number; supply_index: number; day: string | null; percent: number | null; replaced: boolean | null; total_count: number | string | null };
/** What the forecast job stores on a supply. */
export type StoredForecast = { device_id: number; supply_index: number; pages_left: number | null; days_left: number | null; runs_out_on: string | null; forecast_reason: string | null };

/**
 * The next `limit` devices after `after` (by id), and their supplies' days since `since`: one
 * row per supply and day, in supply and day order; a supply without days has one row with no day.
 */
export async function forecastRound(db: Db, after: number, limit: number, since: string): Promise<{ last: number; days: ForecastDayRow[] } | null> {
  const ids = (await db.execute<{ id: number }>(sql`SELECT id FROM devices WHERE id > ${after} ORDER BY id LIMIT ${limit}`)).rows.map((r) => Number(r.id));
  if (!ids.length) return null;
  const [first, last] = [ids[0]!, ids.at(-1)!];
  const days = (await db.execute<ForecastDayRow>(sql`
    SELECT s.device_id, s.supply_index, to_char(pd.fact_date, 'YYYY-MM-DD') AS day, pd.percent, pd.replaced, dd.total_count
    FROM consumables s
    LEFT JOIN dm_device_part_days pd ON pd.device_id = s.device_id AND pd.supply_index = s.supply_index AND pd.fact_date > ${since}::date
    LEFT JOIN dm_device_days dd ON dd.device_id = pd.device_id AND dd.fact_date = pd.fact_date
    WHERE s.device_id BETWEEN ${first} AND ${last}
    ORDER BY s.device_id, s.supply_index, pd.fact_date`)).rows;
  return { last, days };
}

/** Stores the forecasts on their supplies, with the time they were made. */
export async function storeForecasts(db: Db, results: StoredForecast[]): Promise<void> {
  if (!results.length) return;
  await db.execute(sql`
    UPDATE consumables c SET pages_left = v.pages_left, days_left = v.days_left, runs_out_on = v.runs_out_on, forecast_reason = v.forecast_reason, forecast_at = now()
    FROM json_to_recordset(${JSON.stringify(results)}::json)
      AS v(device_id integer, supply_index integer, pages_left integer, days_left real, runs_out_on date, forecast_reason varchar)
    WHERE c.device_id = v.device_id AND c.supply_index = v.supply_index`);
}
