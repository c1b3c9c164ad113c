import type { Db } from '../../db/client.ts';
import { forecastRound, pruneForecastHistory, storeForecasts, type ForecastDayRow, type StoredForecast } from './consumables.repository.ts';
import { forecastSupply, levelStep, WINDOW_DAYS, type SupplyDay } from './supply-forecast.ts';

/** Past forecasts are kept this long (days), for the accuracy figures. */
const HISTORY_DAYS = 366;

/** Devices per round: their supplies' days are read, fitted and written at once. */
const CHUNK = 2_000;

/**
 * Fits every supply's forecast from its last WINDOW_DAYS days (its level per day, the device's
 * page counter of that day) and stores it on the supply; a supply without enough history gets
 * the reason instead. Device by device in rounds, so memory stays small on any fleet; the
 * database reads the next round while this one is fitted.
 */
export async function forecastSupplies(db: Db, today = new Date()): Promise<{ supplies: number; forecasts: number }> {
  const since = new Date(today.getTime() - WINDOW_DAYS * 86_400_000).toISOString().slice(0, 10);
  let supplies = 0;
  let forecasts = 0;
  let pending = forecastRound(db, 0, CHUNK, since);
  for (;;) {
    const round = await pending;
    if (!round) break;
    pending = forecastRound(db, round.last, CHUNK, since);
    const results = fit(round.days);
    supplies += results.length;
    forecasts += results.filter((r) => r.forecast_reason === null).length;
    await storeForecasts(db, results, today.toISOString().slice(0, 10));
  }
  await pruneForecastHistory(db, new Date(today.getTime() - HISTORY_DAYS * 86_400_000).toISOString().slice(0, 10));
  return { supplies, forecasts };
}

/** Each supply's forecast from its days (rows in supply, then day order). */
function fit(days: ForecastDayRow[]): StoredForecast[] {
  const results: StoredForecast[] = [];
  let history: SupplyDay[] = [];
  const flush = (row: ForecastDayRow) => {
    const f = forecastSupply(history);
    const step = levelStep(history);
    results.push(f.ok
      ? { device_id: row.device_id, supply_index: row.supply_index, pages_left: f.pagesLeft, days_left: f.daysLeft, runs_out_on: f.runsOutOn, forecast_reason: null, level_step: step }
      : { device_id: row.device_id, supply_index: row.supply_index, pages_left: null, days_left: null, runs_out_on: null, forecast_reason: f.reason, level_step: step });
  };
  let previous: ForecastDayRow | null = null;
  for (const row of days) {
    if (previous && (row.device_id !== previous.device_id || row.supply_index !== previous.supply_index)) {
      flush(previous);
      history = [];
    }
    previous = row;
    if (row.day) history.push({ day: row.day, level: row.level === null ? null : Number(row.level), pages: row.total_count === null ? null : Number(row.total_count), replaced: row.replaced === true });
  }
  if (previous) flush(previous);
  return results;
}
