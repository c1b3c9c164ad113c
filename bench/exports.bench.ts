/**
 * Exports benchmark (issue 39): the installed consumables report as XLSX on a fleet of 20,000
 * devices (BENCH_EXPORT_DEVICES) on PGlite, the embedded database the server runs in its own
 * process, through the real server over HTTP. One export alone, then 8 at once
 * (BENCH_EXPORT_PARALLEL), while `/api/health` is asked every 100 ms and the server's resident
 * memory sampled: each export's time, the slowest health answer, the peak memory.
 * Targets: health always under 1 s; the exports past the server's bound queued, none refused
 * while the queue has room; the memory grown by under 150 MB with 8 asked at once; one export
 * at 1 MB/s or more (issue 53), also as a multiple of the session baseline's rate (GET
 * /api/users/me one at a time, before the export) against the quiet machine's.
 *
 *   BENCH_EXPORT_DIR=/some/dir npm run bench:exports   (keeps the filled PGlite database there;
 *                                                      BENCH_HOG=1 runs a CPU hog beside it)
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { openDatabase, runStatement } from '../apps/server/src/db/client.ts';
import { seed } from '../apps/server/src/seed.ts';
import { BENCH_HTTP as HTTP, BENCH_PASSWORD, BENCH_PORT, benchApi, startServer } from './lib/bench-server.ts';
import { besideHog, loadAverage, SessionBaseline } from './lib/busy.ts';

process.env.BENCH_DEVICES ??= process.env.BENCH_EXPORT_DEVICES ?? '20000';
process.env.BENCH_DAYS ??= '0';
const { DEVICES, fillFleet } = await import('./lib/fleet.ts');
const PARALLEL = Number(process.env.BENCH_EXPORT_PARALLEL ?? 8);
const TARGET_HEALTH_MS = 1000;
const TARGET_MB_S = 1;
/** GET /api/users/me one call at a time on the quiet machine, on PGlite (session 30: 5.0 ms, load 1.0): the ratio's reference. */
const QUIET_SESSION_MS = 5;

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/** The fleet filled into a PGlite directory of its own (the fill's statements through the server's runner). */
async function fill(dataDir: string) {
  const database = await openDatabase({ url: null, dataDir });
  await seed(database.db, BENCH_PASSWORD);
  const client = { query: async (text: string, params: unknown[] = []) => ({ rows: await runStatement(database.db, { sql: text, params }) }) };
  await fillFleet(client as never);
  await database.close();
}

/** While `work` runs: health asked every 100 ms (each answer timed) and the server's memory sampled. */
async function watched<T>(pid: number, work: () => Promise<T>) {
  let stop = false;
  const health: number[] = [];
  const before = rssMb(pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 100);
  const prober = (async () => {
    while (!stop) {
      const t0 = performance.now();
      await fetch(`${HTTP}/api/health`, { signal: AbortSignal.timeout(60_000) }).then((r) => r.text()).catch(() => undefined);
      health.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  try {
    return { result: await work(), health, before, peak: () => peak };
  } finally {
    stop = true;
    clearInterval(sampler);
    await prober;
  }
}

/** One XLSX export read to its end: its status, time, bytes (and the queue's header, if any). */
async function exportOnce(token: string) {
  const t0 = performance.now();
  const res = await fetch(`${HTTP}/api/reports/download/4/XLSX?filter=${encodeURIComponent('{}')}`, { headers: { authorization: `Bearer ${token}`, 'accept-language': 'en' } });
  const body = Buffer.from(await res.arrayBuffer());
  return { status: res.status, ms: performance.now() - t0, bytes: body, retryAfter: res.headers.get('retry-after') };
}

// BENCH_EXPORT_DIR keeps the filled database for the next run.
const dataDir = process.env.BENCH_EXPORT_DIR ?? mkdtempSync(join(tmpdir(), 'pw-bench-exports-'));
try {
  const t0 = Date.now();
  await fill(dataDir);
  console.log(`PGlite fleet: ${DEVICES.toLocaleString('en')} devices in ${Math.round((Date.now() - t0) / 1000)} s; load average ${load()}`);
  const server = await startServer({ databaseUrl: '', port: BENCH_PORT, password: BENCH_PASSWORD, env: { PAGEWATCH_DATA_DIR: dataDir } });
  try {
    const pid = server.pid!;
    const admin = await benchApi(HTTP, '').signIn('admin', BENCH_PASSWORD);
    await besideHog(async () => {
      const baseline = new SessionBaseline(admin);
      await baseline.sample(20);
      const one = await watched(pid, () => exportOnce(admin));
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(one.result.bytes as unknown as ArrayBuffer);
      const rows = book.worksheets[0].rowCount - 1;
      const rate = one.result.bytes.length / 1e6 / (one.result.ms / 1000);
      // The rate scaled to the quiet machine: as much faster as the session is there.
      const scaled = rate * (baseline.median() / QUIET_SESSION_MS);
      console.log(`one export: ${one.result.status}, ${rows.toLocaleString('en')} rows, ${(one.result.bytes.length / 1e6).toFixed(1)} MB in ${(one.result.ms / 1000).toFixed(1)} s = ${rate.toFixed(2)} MB/s (${rate >= TARGET_MB_S ? 'met' : 'NOT met'}, >= ${TARGET_MB_S} MB/s); session ${baseline.median().toFixed(1)} ms, so ${scaled.toFixed(2)} MB/s at the quiet session's ${QUIET_SESSION_MS} ms (${scaled >= TARGET_MB_S ? 'met' : 'NOT met'}); health slowest ${Math.round(Math.max(...one.health))} ms of ${one.health.length}; memory ${Math.round(one.before)} MB, peak ${Math.round(one.peak())} MB (+${Math.round(one.peak() - one.before)} MB); ${loadAverage()}`);
      const many = await watched(pid, () => Promise.all(Array.from({ length: PARALLEL }, () => exportOnce(admin))));
      const ok = many.result.filter((r) => r.status === 200);
      const worst = Math.max(...many.health);
      console.log(`${PARALLEL} at once: ${many.result.map((r) => `${r.status} ${(r.ms / 1000).toFixed(1)} s`).join(', ')}`);
      console.log(`  ${ok.length} of ${PARALLEL} delivered, all done in ${(Math.max(...many.result.map((r) => r.ms)) / 1000).toFixed(1)} s; health slowest ${Math.round(worst)} ms of ${many.health.length} (${worst < TARGET_HEALTH_MS ? 'met' : 'NOT met'}, < ${TARGET_HEALTH_MS} ms); memory ${Math.round(many.before)} MB, peak ${Math.round(many.peak())} MB (+${Math.round(many.peak() - many.before)} MB); ${loadAverage()}`);
    });
    console.log(`load average at end ${load()}`);
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
  }
} finally {
  if (!process.env.BENCH_EXPORT_DIR) rmSync(dataDir, { recursive: true, force: true });
}
