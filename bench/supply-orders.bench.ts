/**
 * What-to-order benchmark (issue 45): the what-to-order list (`suggestions`, the query behind
 * GET /api/supply-orders/suggestions) on the lists benchmark's fleet (bench/lib/fleet.ts: 100,000
 * devices in 20 locations, 313,333 supplies, the forecasts bench:forecast stored), with 1,000
 * open orders, on PostgreSQL: every location, then one location; one unmeasured run, then 5
 * (min, median, max). Targets: every location under 1 s, one location under 100 ms.
 *
 *   npm run bench:supply-orders   (its own database, pw_bench_orders, filled as bench:lists fills
 *                                  pw_bench_lists and kept: this branch's migration never touches
 *                                  the fleet other benchmarks read)
 */
import { sql } from 'drizzle-orm';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { suggestions } from '../apps/server/src/modules/supply-orders/supply-orders.repository.ts';
import { databaseUrl, withClient } from './lib/bench-server.ts';
import { fillFleet } from './lib/fleet.ts';
import { seed } from '../apps/server/src/seed.ts';
import { forecastSupplies } from '../apps/server/src/modules/consumables/consumables.forecast.ts';

const ORDERS_DB = 'pw_bench_orders';
const TARGETS_MS = { all: 1_000, one: 100 };
const fresh = await withClient(databaseUrl('postgres'), async (c) => {
  if ((await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [ORDERS_DB])).rowCount) return false;
  await c.query(`CREATE DATABASE ${ORDERS_DB}`);
  return true;
});
const database = await openDatabase({ url: databaseUrl(ORDERS_DB), dataDir: '' });
if (fresh) {
  await seed(database.db, 'bench-Admin-pass1');
  // The fleet as bench:lists fills it, and the forecasts as bench:forecast makes them.
  await withClient(databaseUrl(ORDERS_DB), fillFleet);
  console.log(`filled; forecasts: ${JSON.stringify(await forecastSupplies(database.db))}`);
}
const db = database.db;
try {
  // 1,000 open orders among the supplies due, so that the list leaves them out as it would.
  await db.execute(sql`
    INSERT INTO supply_orders (device_id, supply_index, part_code, part_model_code, state)
    SELECT device_id, supply_index, part_code, part_model_code, 'ORDERED' FROM consumables WHERE runs_out_on IS NOT NULL ORDER BY device_id LIMIT 1000
    ON CONFLICT DO NOTHING`);
  await db.execute(sql`ANALYZE supply_orders`);
  const [loc] = (await db.execute(sql`SELECT location_id AS id, count(*)::int AS n FROM consumables GROUP BY 1 ORDER BY 2 DESC LIMIT 1`)).rows as { id: number; n: number }[];
  const load = (await import('node:os')).loadavg().map((x) => x.toFixed(2)).join(' ');
  console.log(`load average at start ${load}`);
  for (const [name, ids, target] of [['every location', null, TARGETS_MS.all], [`one location (${loc!.n.toLocaleString('en')} supplies)`, [Number(loc!.id)], TARGETS_MS.one]] as const) {
    const first = await suggestions(db, ids as number[] | null);
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      await suggestions(db, ids as number[] | null);
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    const supplies = first.reduce((n, g) => n + g.count, 0);
    console.log(`${name}: ${first.length} lines, ${supplies.toLocaleString('en')} supplies to order; ${times[0]!.toFixed(0)} / ${times[2]!.toFixed(0)} / ${times[4]!.toFixed(0)} ms (min / median / max): ${times[2]! < target ? 'met' : 'NOT met'} (< ${target} ms)`);
  }
} finally {
  await database.close();
}
