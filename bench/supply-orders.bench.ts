/**
 * What-to-order benchmark (issue 45): the what-to-order list (GET /api/supply-orders/suggestions)
 * on the lists benchmark's fleet (bench/lib/fleet.ts, the same database `pw_bench_lists`: 100,000
 * devices in 20 locations, 313,333 supplies; the forecast job's code forecasts every supply once
 * per database), with 1,000 open orders, through the real server over HTTP: every location, then
 * the location with the most supplies; one unmeasured run, then 5 (BENCH_RUNS; min, median, max), each
 * median also as a multiple of the session baseline measured between the runs (issue 53).
 * Targets: every location under 1 s, one location under 100 ms.
 *
 *   BENCH_KEEP=1 npm run bench:supply-orders   (BENCH_KEEP=1 keeps the filled database for the
 *                                               other benchmarks; BENCH_HOG=1 runs a CPU hog beside it)
 */
import type pg from 'pg';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { forecastSupplies } from '../apps/server/src/modules/consumables/consumables.forecast.ts';
import { BENCH_HTTP as HTTP, databaseUrl, withBenchServer, withClient } from './lib/bench-server.ts';
import { besideHog, bothWays, loadAverage, SessionBaseline } from './lib/busy.ts';
import { cpuMeter } from './lib/cpu.ts';
import { FLEET_DB, fillFleet } from './lib/fleet.ts';

const TARGETS_MS = { all: 1_000, one: 100 };
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
/** GET /api/users/me one call at a time on the quiet machine: the ratios' reference (as bench:reports; session 30's quiet run: 1.8 ms). */
const QUIET_SESSION_MS = 2;

/** The fleet, its supplies forecast as the nightly job does (once per database), and 1,000 open orders among the supplies due. */
async function fill(c: pg.Client) {
  await fillFleet(c);
  const { rows: [{ n }] } = await c.query<{ n: number }>('SELECT count(*)::int AS n FROM consumables WHERE runs_out_on IS NOT NULL');
  if (n === 0) {
    const database = await openDatabase({ url: databaseUrl(FLEET_DB), dataDir: '' });
    try {
      const t0 = Date.now();
      console.log(`forecasts: ${JSON.stringify(await forecastSupplies(database.db))} in ${Math.round((Date.now() - t0) / 1000)} s`);
    } finally {
      await database.close();
    }
  }
  await c.query(`
    INSERT INTO supply_orders (device_id, supply_index, part_code, part_model_code, state)
    SELECT device_id, supply_index, part_code, part_model_code, 'ORDERED' FROM consumables WHERE runs_out_on IS NOT NULL ORDER BY device_id LIMIT 1000
    ON CONFLICT DO NOTHING`);
  await c.query('ANALYZE supply_orders');
}

type Line = { count: number };
async function timed(path: string, token: string): Promise<{ ms: number; lines: Line[] }> {
  const t0 = performance.now();
  const res = await fetch(`${HTTP}${path}`, { headers: { authorization: `Bearer ${token}` } });
  const lines = (await res.json()) as Line[];
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(lines).slice(0, 300)}`);
  return { ms: performance.now() - t0, lines };
}

await withBenchServer(FLEET_DB, fill, async ({ server, admin }) => {
  const loc = await withClient(databaseUrl(FLEET_DB), async (c) =>
    (await c.query<{ id: number; n: number }>('SELECT location_id AS id, count(*)::int AS n FROM consumables GROUP BY 1 ORDER BY 2 DESC LIMIT 1')).rows[0]!);
  const meter = await cpuMeter(server.pid!, FLEET_DB, admin);
  const baseline = new SessionBaseline(admin);
  await besideHog(async () => {
    console.log(`\n${loadAverage()} at start`);
    for (const [name, query, target] of [['every location', '', TARGETS_MS.all], [`one location (${loc.n.toLocaleString('en')} supplies)`, `?location=${loc.id}`, TARGETS_MS.one]] as const) {
      const { lines } = await timed(`/api/supply-orders/suggestions${query}`, admin);
      const times: number[] = [];
      let cpu = 0;
      for (let i = 0; i < RUNS; i++) {
        await baseline.sample();
        const cpu0 = meter.total();
        times.push((await timed(`/api/supply-orders/suggestions${query}`, admin)).ms);
        cpu += meter.total() - cpu0;
      }
      times.sort((a, b) => a - b);
      const supplies = lines.reduce((n, g) => n + g.count, 0);
      const mid = times[Math.floor(RUNS / 2)]!;
      const verdict = bothWays(mid, target, baseline.median(), QUIET_SESSION_MS);
      console.log(`${name}: ${lines.length.toLocaleString('en')} lines, ${supplies.toLocaleString('en')} supplies to order; ${times[0]!.toFixed(0)} / ${mid.toFixed(0)} / ${times.at(-1)!.toFixed(0)} ms (min / median / max), CPU ${(cpu / RUNS).toFixed(0)} ms; median ${verdict.line}; ${loadAverage()}`);
    }
    console.log(`session baseline: GET /api/users/me one at a time, median ${baseline.median().toFixed(1)} ms over the runs; ${loadAverage()} at end`);
  });
});
