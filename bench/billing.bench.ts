/**
 * Billing benchmark (issue 54): a billing run (BillingRunsService.compute, what
 * POST /api/contracts/:id/runs and …/rerun do) of one contract of 10,000 devices over a year of
 * daily history (3.65 million days; every 50th device unread for the 10 days around the period's
 * start, every 100th silent for the period's last 12 days, so that estimates are made), on
 * PostgreSQL. One run, then 3 re-runs (min, median, max), the heap and RSS sampled every 50 ms.
 * Targets: a run under 60 s; memory flat (the heap after the re-runs within 50 MB of after the
 * first). `BENCH_HOG=1` keeps every core busy meanwhile (bench/lib/hog.ts).
 *
 *   npm run bench:billing   (its own database, pw_bench_billing, filled once and kept;
 *                            BENCH_DEVICES to change the 10,000)
 */
import { loadavg } from 'node:os';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { seed } from '../apps/server/src/seed.ts';
import { EventLog } from '../apps/server/src/modules/event-logs/event-logs.service.ts';
import { BillingRunsService, ContractsService } from '../apps/server/src/modules/contracts/index.ts';
import { insertContract, insertContractDevices } from '../apps/server/src/modules/contracts/contracts.repository.ts';
import { insertRun } from '../apps/server/src/modules/contracts/billing-runs.repository.ts';
import { databaseUrl, withClient } from './lib/bench-server.ts';
import { startHog } from './lib/hog.ts';

const DB_NAME = 'pw_bench_billing';
const DEVICES = Number(process.env.BENCH_DEVICES ?? 10_000);
const TARGET_MS = 60_000;
const YEAR_FROM = '2025-11-01';
const YEAR_TO = '2026-10-31';
const PERIOD = { from: '2026-10-01', to: '2026-10-31' };

const fresh = await withClient(databaseUrl('postgres'), async (c) => {
  if ((await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [DB_NAME])).rowCount) return false;
  await c.query(`CREATE DATABASE ${DB_NAME}`);
  return true;
});
const database = await openDatabase({ url: databaseUrl(DB_NAME), dataDir: '' });
const db = database.db;
const serial = (i: number) => `BB${String(i).padStart(6, '0')}`;

if (fresh) {
  const t0 = performance.now();
  await seed(db, 'bench-Admin-pass1');
  await db.execute(sql`INSERT INTO locations (code, name, parent_id) SELECT 'BILLING_BENCH', 'Billing bench', id FROM locations WHERE code = 'DEFAULT'`);
  const [loc] = (await db.execute<{ id: number }>(sql`SELECT id FROM locations WHERE code = 'BILLING_BENCH'`)).rows;
  await db.execute(sql`INSERT INTO devices (location_id, ip, serial_number, model_code, device_type, color_type)
    SELECT ${loc!.id}, '10.' || (i / 65536) || '.' || (i / 256 % 256) || '.' || (i % 256), 'BB' || lpad(i::text, 6, '0'), 'Bench MFP', 'MFP', 'COLOR' FROM generate_series(1, ${DEVICES}) i`);
  // A year of days, 500 devices a statement: each meter climbs by its device's pages a day.
  for (let from = 1; from <= DEVICES; from += 500) {
    await db.execute(sql`INSERT INTO dm_device_days (fact_date, device_id, location_id, readings, status_code, total_start, total_count, mono_count, color_count)
      SELECT g.day::date, d.id, d.location_id, 1, 'OK', t.total, t.total, t.total - t.color, t.color
      FROM devices d CROSS JOIN generate_series(${YEAR_FROM}::date, ${YEAR_TO}::date, interval '1 day') g(day)
      CROSS JOIN LATERAL (SELECT 1000 + (d.id % 97 + 20) * (g.day::date - ${YEAR_FROM}::date) AS total, 300 + (d.id % 13 + 2) * (g.day::date - ${YEAR_FROM}::date) AS color) t
      WHERE d.serial_number BETWEEN ${serial(from)} AND ${serial(Math.min(DEVICES, from + 499))}
        AND NOT (d.id % 50 = 0 AND g.day BETWEEN '2026-09-25' AND '2026-10-05')
        AND NOT (d.id % 100 = 1 AND g.day > '2026-10-19')`);
  }
  const [user] = (await db.execute<{ id: number }>(sql`SELECT id FROM users ORDER BY id LIMIT 1`)).rows;
  const contract = await insertContract(db, {
    locationId: Number(loc!.id), name: 'Bench contract', billingDay: 1, period: 'MONTHLY', currency: 'EUR', baseFeeMinor: 100_000, includedPages: 'PER_DEVICE', startsOn: '2025-01-01', endsOn: null,
    prices: [{ meter: 'total', price: '0.004', includedPages: 500 }, { meter: 'mono', price: '0.008', includedPages: 0 }, { meter: 'color', price: '0.045', includedPages: 0 }],
  }, Number(user!.id));
  const list = Array.from({ length: DEVICES }, (_, k) => ({ serialNumber: serial(k + 1), equipmentId: `EQ${k + 1}`, joinedOn: k % 200 === 7 ? '2026-10-12' : '2025-01-01', leftOn: k % 200 === 9 ? '2026-10-20' : null }));
  await insertContractDevices(db, contract, list);
  await db.execute(sql`ANALYZE`);
  console.log(`filled ${DEVICES.toLocaleString('en')} devices with a year of days in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
}

try {
  const [c] = (await db.execute<{ id: number }>(sql`SELECT id FROM contracts WHERE name = 'Bench contract'`)).rows;
  const contractId = Number(c!.id);
  await db.execute(sql`DELETE FROM billing_runs WHERE contract_id = ${contractId}`);
  const [user] = (await db.execute<{ id: number }>(sql`SELECT id FROM users ORDER BY id LIMIT 1`)).rows;
  const runId = (await insertRun(db, { contractId, periodFrom: PERIOD.from, periodTo: PERIOD.to, currency: 'EUR', baseFeeMinor: 100_000 }, Number(user!.id)))!;
  const log = new EventLog(db, null);
  const runs = new BillingRunsService(db, log, new ContractsService(db, log));
  const hog = process.env.BENCH_HOG === '1' ? startHog() : null;
  let peakHeap = 0;
  let peakRss = 0;
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    peakHeap = Math.max(peakHeap, m.heapUsed);
    peakRss = Math.max(peakRss, m.rss);
  }, 50);
  const mb = (n: number) => `${(n / 1_048_576).toFixed(0)} MB`;
  try {
    console.log(`load average at start ${loadavg().map((x) => x.toFixed(2)).join(' ')}${hog ? `; hog: ${hog.what}` : ''}`);
    const heapBefore = process.memoryUsage().heapUsed;
    const t0 = performance.now();
    await db.transaction((tx) => runs.compute(tx, runId));
    const first = performance.now() - t0;
    global.gc?.();
    const heapAfterFirst = process.memoryUsage().heapUsed;
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      await db.transaction((tx) => runs.compute(tx, runId));
      times.push(performance.now() - t);
    }
    global.gc?.();
    const heapEnd = process.memoryUsage().heapUsed;
    times.sort((a, b) => a - b);
    const [figures] = (await db.execute<{ devices: number; meters: number; estimated: number; total: number }>(sql`SELECT count(*)::int AS devices,
      (SELECT count(*)::int FROM billing_run_meters m JOIN billing_run_devices d ON d.id = m.run_device_id WHERE d.run_id = ${runId}) AS meters,
      count(*) FILTER (WHERE estimated)::int AS estimated, (SELECT total_minor FROM billing_runs WHERE id = ${runId}) AS total
      FROM billing_run_devices WHERE run_id = ${runId}`)).rows;
    console.log(`run of ${figures!.devices.toLocaleString('en')} devices (${figures!.meters.toLocaleString('en')} meter lines, ${figures!.estimated} estimated, total ${(Number(figures!.total) / 100).toFixed(2)} EUR)`);
    console.log(`first ${(first / 1000).toFixed(1)} s; re-runs ${times.map((x) => (x / 1000).toFixed(1)).join(' / ')} s (min / median / max): ${Math.max(first, ...times) < TARGET_MS ? 'met' : 'NOT met'} (< 60 s)`);
    const growth = heapEnd - heapAfterFirst;
    console.log(`heap before ${mb(heapBefore)}, after the first run ${mb(heapAfterFirst)}, after 3 re-runs ${mb(heapEnd)} (peak ${mb(peakHeap)}, peak RSS ${mb(peakRss)}): ${growth < 50 * 1_048_576 ? 'flat' : 'NOT flat'}`);
    console.log(`load average at end ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  } finally {
    clearInterval(sampler);
    hog?.stop();
  }
} finally {
  await database.close();
}
