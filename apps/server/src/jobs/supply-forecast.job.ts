import { part, type RunOutcome } from '../modules/event-logs/index.ts';
import { forecastSupplies } from '../modules/consumables/index.ts';
import type { JobDeps } from './job-runner.ts';

/** Fits when each supply runs out, from the days up to yesterday's end. */
export async function forecastAllSupplies(deps: JobDeps): Promise<RunOutcome> {
  const { supplies, forecasts } = await forecastSupplies(deps.db);
  return { params: { result: part('suppliesForecast', { supplies, forecasts }) } };
}
