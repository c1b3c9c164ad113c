/**
 * Supply forecast benchmark (issue 21): the forecast of every supply of the lists benchmark's
 * fleet (bench/lib/fleet.ts: 100,000 devices, about 313,000 supplies, a year of days; the black
 * toner of each device has daily levels) recomputed by the forecast job's code on PostgreSQL,
 * the server's CPU and the database's wall clock apart. Target: under 60 s.
 *
 *   npm run bench:forecast   (the database pw_bench_lists is filled as bench:lists fills it, and kept)
 */
import { openDatabase } from '../apps/server/src/db/client.ts';
import { forecastSupplies } from '../apps/server/src/modules/consumables/consumables.forecast.ts';
import { databaseUrl, withClient } from './lib/bench-server.ts';
import { FLEET_DB, fillFleet } from './lib/fleet.ts';

const TARGET_S = 60;
const url = databaseUrl(FLEET_DB);
await withClient(databaseUrl('postgres'), async (c) => {
  const exists = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [FLEET_DB]);
  if (!exists.rowCount) await c.query(`CREATE DATABASE ${FLEET_DB}`);
});
const database = await openDatabase({ url, dataDir: '' });
try {
  await withClient(url, fillFleet);
  const load = (await import('node:os')).loadavg().map((x) => x.toFixed(2)).join(' ');
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const { supplies, forecasts } = await forecastSupplies(database.db);
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  console.log(`load average at start ${load}`);
  console.log(`forecast of ${supplies.toLocaleString('en')} supplies (${forecasts.toLocaleString('en')} with a forecast) in ${seconds.toFixed(1)} s; this process's CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s: ${seconds < TARGET_S ? 'met' : 'NOT met'} (< ${TARGET_S} s)`);
} finally {
  await database.close();
}
