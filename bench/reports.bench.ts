/**
 * Reports benchmark: the four reports on the lists benchmark's fleet (100,000 devices, a year of
 * daily history, a supply replacement every quarter per device) on PostgreSQL, through the real
 * server over HTTP. Each report for the last month as the administrator of every location and
 * for one location (5 runs, BENCH_RUNS, after one unmeasured; min, median, max), then the device counters
 * report of every device as XLSX and as CSV, streamed to this process while the server's
 * resident memory is sampled every 100 ms.
 * Targets: every location under 2 s, one location under 200 ms; the XLSX of 100,000 rows in
 * under 20 s, at 1 MB/s or more, with the server's memory grown by under 150 MB. Each report's
 * median is also given as a multiple of the session baseline measured between its runs, and
 * the CPU it cost the server and its database connections (which holds on a busy machine).
 *
 *   BENCH_KEEP=1 npm run bench:reports   (the lists benchmark's variables; BENCH_KEEP=1 keeps
 *                                         the database; BENCH_HOG=1 runs a CPU hog beside it)
 */
import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import type pg from 'pg';
import { BENCH_HTTP as HTTP, databaseUrl, withBenchServer, withClient } from './lib/bench-server.ts';
import { DEVICES, FLEET_DB, fillFleet } from './lib/fleet.ts';
import { besideHog, bothWays, loadAverage, SessionBaseline } from './lib/busy.ts';
import { cpuMeter, type CpuMeter } from './lib/cpu.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const TARGET_ALL_MS = 2000;
const TARGET_ONE_MS = 200;
const TARGET_XLSX_MS = 20_000;
const TARGET_MEMORY_MB = 150;
const TARGET_XLSX_MB_S = 1;
/** GET /api/users/me one call at a time on the quiet machine (session 30's quiet pass: 2.0 ms, load 1.1): the ratios' reference. */
const QUIET_SESSION_MS = 2;

/** A supply replacement per device every 91 days over the year (idempotent: made once per database). */
async function fillReplacements(c: pg.Client) {
  const { rows: [{ n }] } = await c.query<{ n: number }>(`SELECT count(*)::int AS n FROM device_events WHERE type = 'SUPPLY_REPLACED' AND part_code = 'bench'`);
  if (n > 0) return console.log(`replacements kept from an earlier run: ${n.toLocaleString('en')}`);
  const started = Date.now();
  await c.query(
    `INSERT INTO device_events (event_at, type, device_id, location_id, supply_index, part_code, part_model_code, part_serial_number, processed)
     SELECT current_date - (d.id % 91 + 91 * k) + make_interval(mins => d.id % 1440), 'SUPPLY_REPLACED', d.id, d.location_id, 1, 'bench',
       'PN-1-' || (d.id % 97), 'RS' || d.id || '-' || k, true
     FROM devices d CROSS JOIN generate_series(0, 3) k`,
  );
  await c.query('VACUUM ANALYZE device_events');
  console.log(`replacements: ${(DEVICES * 4).toLocaleString('en')} in ${Math.round((Date.now() - started) / 1000)} s`);
}

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timed(path: string, token: string): Promise<{ ms: number; rows: number }> {
  const t0 = performance.now();
  const res = await fetch(`${HTTP}${path}`, { headers: { authorization: `Bearer ${token}` } });
  const body = (await res.json()) as unknown[] | { pageRows: unknown[]; totalRows: number };
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  // A data call's rows, or a paged grid's total (counted up to 1,000, estimated above).
  return { ms: performance.now() - t0, rows: Array.isArray(body) ? body.length : body.totalRows };
}

/** One report, one scope: a run unmeasured, then RUNS measured one after another, the session baseline sampled before each. */
async function report(name: string, path: string, token: string, target: number, baseline: SessionBaseline, meter: CpuMeter): Promise<boolean> {
  const first = await timed(path, token);
  const ms: number[] = [];
  let cpu = 0;
  for (let i = 0; i < RUNS; i++) {
    await baseline.sample();
    const cpu0 = meter.total();
    ms.push((await timed(path, token)).ms);
    cpu += meter.total() - cpu0;
  }
  const worst = Math.max(...ms);
  const f = (x: number) => `${Math.round(x).toLocaleString('en')} ms`.padStart(9);
  const verdict = bothWays(median(ms), target, baseline.median(), QUIET_SESSION_MS);
  console.log(`${name.padEnd(52)} ${first.rows.toLocaleString('en').padStart(8)} rows  min ${f(Math.min(...ms))}  median ${f(median(ms))}  max ${f(worst)}  CPU ${f(cpu / RUNS)}  median ${verdict.line}; ${loadAverage()}`);
  return verdict.absolute;
}

/** A download read to its end while the server's memory is sampled; the bytes are kept to check. */
async function download(path: string, token: string, pid: number) {
  const before = rssMb(pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 100);
  const t0 = performance.now();
  const res = await fetch(`${HTTP}${path}`, { headers: { authorization: `Bearer ${token}` } });
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  const chunks: Buffer[] = [];
  let firstByteMs = 0;
  for await (const chunk of res.body!) {
    if (!chunks.length) firstByteMs = performance.now() - t0;
    chunks.push(Buffer.from(chunk));
  }
  const ms = performance.now() - t0;
  clearInterval(sampler);
  peak = Math.max(peak, rssMb(pid));
  return { ms, firstByteMs, grownMb: peak - before, before, bytes: Buffer.concat(chunks) };
}

await withBenchServer(FLEET_DB, async (c) => {
  await fillFleet(c);
  await fillReplacements(c);
}, async ({ server, admin }) => {
  const pid = server.pid!;
  const site = await withClient(databaseUrl(FLEET_DB), async (c) => (await c.query<{ id: number }>(`SELECT id FROM locations WHERE code = 'BENCH3'`)).rows[0].id);
  const now = new Date();
  const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 10);
  const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0)).toISOString().slice(0, 10);
  const meter = await cpuMeter(pid, FLEET_DB, admin);
  const baseline = new SessionBaseline(admin);
  await besideHog(async () => {
    console.log(`\n${loadAverage()} at start; last month ${from} to ${to}; ${RUNS} runs after one unmeasured`);
    // The files first, on a server that has not yet held 100,000 rows of JSON: its memory growth is theirs.
    const filter = (columns?: string[]) => encodeURIComponent(JSON.stringify({ from, to, ...(columns ? { columns } : {}) }));
    let cpu0 = meter.total();
    const xlsx = await download(`/api/reports/download/2/XLSX?filter=${filter()}`, admin, pid);
    const xlsxCpu = meter.total() - cpu0;
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(xlsx.bytes as unknown as ArrayBuffer);
    const sheetRows = book.worksheets[0].rowCount;
    const rate = xlsx.bytes.length / 1e6 / (xlsx.ms / 1000);
    const xlsxMet = xlsx.ms < TARGET_XLSX_MS && rate >= TARGET_XLSX_MB_S && xlsx.grownMb < TARGET_MEMORY_MB && sheetRows === DEVICES + 1;
    console.log(`XLSX, device counters of every device: ${(xlsx.bytes.length / 1e6).toFixed(1)} MB, ${sheetRows.toLocaleString('en')} sheet rows, first byte ${Math.round(xlsx.firstByteMs)} ms, all ${(xlsx.ms / 1000).toFixed(1)} s = ${rate.toFixed(2)} MB/s, CPU ${(xlsxCpu / 1000).toFixed(1)} s, server memory ${Math.round(xlsx.before)} MB + ${Math.round(xlsx.grownMb)} MB: ${xlsxMet ? 'met' : 'NOT met'} (< ${TARGET_XLSX_MS / 1000} s, >= ${TARGET_XLSX_MB_S} MB/s, < ${TARGET_MEMORY_MB} MB, ${(DEVICES + 1).toLocaleString('en')} rows); ${loadAverage()}`);
    cpu0 = meter.total();
    const csv = await download(`/api/reports/download/2/CSV?filter=${filter(['location', 'serialNumber', 'bwDiff', 'colorDiff', 'totalDiff'])}`, admin, pid);
    const lines = csv.bytes.toString('utf8').trimEnd().split('\r\n').length;
    console.log(`CSV, 5 columns of every device: ${(csv.bytes.length / 1e6).toFixed(1)} MB, ${lines.toLocaleString('en')} lines, all ${(csv.ms / 1000).toFixed(1)} s, CPU ${((meter.total() - cpu0) / 1000).toFixed(1)} s, server memory + ${Math.round(csv.grownMb)} MB`);
    const results: boolean[] = [];
    for (const [name, call, period] of [
      ['device availability', 'device-availability', true],
      ['device counters', 'device-counters', true],
      ['part replacements', 'part-replacements', true],
      // Its screen reads it a page at a time: the first page of 50 in the grid's default order.
      ['installed consumables, the grid\'s first page', 'installed-consumables/page', false],
    ] as const) {
      const q = period ? `from=${from}&to=${to}` : 'page=50,1&sort=location,ASC&sort=modelCode,ASC';
      results.push(await report(`${name}, every location`, `/api/reports/${call}?${q}`, admin, TARGET_ALL_MS, baseline, meter));
      results.push(await report(`${name}, one location (1 of 20)`, `/api/reports/${call}?${q}${q ? '&' : ''}location=${site}`, admin, TARGET_ONE_MS, baseline, meter));
    }
    console.log(`session baseline: GET /api/users/me one at a time, median ${baseline.median().toFixed(1)} ms over the runs`);
    console.log('not in the target: the data call of every installed supply at once (API clients; the screen pages):');
    await report('installed consumables, every row, every location', '/api/reports/installed-consumables', admin, TARGET_ALL_MS, baseline, meter);
    console.log(`\n${results.filter(Boolean).length} of ${results.length} report timings met; XLSX ${xlsxMet ? 'met' : 'NOT met'}`);
    console.log(`${loadAverage()} at end`);
  });
});
