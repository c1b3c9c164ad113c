import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { forecastSupply, WINDOW_DAYS, type SupplyDay } from './supply-forecast.ts';

/** Devices per round: their supplies' days are read, fitted and written at once. */
const CHUNK = 2_000;

type DayRow = { device_id: number; supply_index: number; day: string; percent: number | null; replaced: boolean; total_count: number | string | null };
type Result = { device_id: number; supply_index: number; pages_left: number | null; days_left: number | null; runs_out_on: string | null; forecast_reason: string | null };

/**
 * Fits every supply's forecast from its last WINDOW_DAYS days (its level per day, the device's
 * page counter of that day) and stores it on the supply; a supply without enough history gets
 * the reason instead. Device by device in rounds, so memory stays small on any fleet.
 */
export async function forecastSupplies(db: Db, today = new Date()): Promise<{ supplies: number; forecasts: number }> {
  const since = new Date(today.getTime() - WINDOW_DAYS * 86_400_000).toISOString().slice(0, 10);
  /** The next round's devices and their supplies' days. */
  const load = async (after: number): Promise<{ last: number; days: DayRow[] } | null> => {
    const ids = (await db.execute(sql`SELECT id FROM devices WHERE id > ${after} ORDER BY id LIMIT ${CHUNK}`)).rows.map((r) => Number((r as { id: number }).id));
    if (!ids.length) return null;
    const [first, last] = [ids[0]!, ids.at(-1)!];
    const days = (await db.execute(sql`
      SELECT s.device_id, s.supply_index, to_char(pd.fact_date, 'YYYY-MM-DD') AS day, pd.percent, pd.replaced, dd.total_count
      FROM consumables s
      LEFT JOIN dm_device_part_days pd ON pd.device_id = s.device_id AND pd.supply_index = s.supply_index AND pd.fact_date > ${since}::date
      LEFT JOIN dm_device_days dd ON dd.device_id = pd.device_id AND dd.fact_date = pd.fact_date
      WHERE s.device_id BETWEEN ${first} AND ${last}
      ORDER BY s.device_id, s.supply_index, pd.fact_date`)).rows as DayRow[];
    return { last, days };
  };
  let supplies = 0;
  let forecasts = 0;
  let pending = load(0);
  for (;;) {
    const round = await pending;
    if (!round) break;
    // The database reads the next round while this one is fitted.
    pending = load(round.last);
    const results = fit(round.days);
    supplies += results.length;
    forecasts += results.filter((r) => r.forecast_reason === null).length;
    if (results.length) {
      await db.execute(sql`
        UPDATE consumables c SET pages_left = v.pages_left, days_left = v.days_left, runs_out_on = v.runs_out_on, forecast_reason = v.forecast_reason, forecast_at = now()
        FROM json_to_recordset(${JSON.stringify(results)}::json)
          AS v(device_id integer, supply_index integer, pages_left integer, days_left real, runs_out_on date, forecast_reason varchar)
        WHERE c.device_id = v.device_id AND c.supply_index = v.supply_index`);
    }
  }
  return { supplies, forecasts };
}

/** Each supply's forecast from its days (rows in supply, then day order; a supply without days has one row with no day). */
function fit(days: DayRow[]): Result[] {
  const results: Result[] = [];
  let history: SupplyDay[] = [];
  const flush = (row: DayRow) => {
    const f = forecastSupply(history);
    results.push(f.ok
      ? { device_id: row.device_id, supply_index: row.supply_index, pages_left: f.pagesLeft, days_left: f.daysLeft, runs_out_on: f.runsOutOn, forecast_reason: null }
      : { device_id: row.device_id, supply_index: row.supply_index, pages_left: null, days_left: null, runs_out_on: null, forecast_reason: f.reason });
  };
  let previous: DayRow | null = null;
  for (const row of days) {
    if (previous && (row.device_id !== previous.device_id || row.supply_index !== previous.supply_index)) {
      flush(previous);
      history = [];
    }
    previous = row;
    if (row.day) history.push({ day: row.day, percent: row.percent === null ? null : Number(row.percent), pages: row.total_count === null ? null : Number(row.total_count), replaced: row.replaced });
  }
  if (previous) flush(previous);
  return results;
}
