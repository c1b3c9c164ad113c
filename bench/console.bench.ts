/**
 * The console in Chromium on 100,000 devices (issue 22): how long opening `/devices` takes until
 * its first rows show, measured in the page (performance.now() from the navigation's start, when
 * the first row enters the DOM). The lists benchmark's fleet (`bench/lib/fleet.ts`, database
 * `pw_bench_lists`), the real server serving the built console, Debian's Chromium through
 * Playwright. Two cases: a first visit (a new browser profile: every script fetched) and a
 * visit again (scripts from the browser's cache). Target: first rows in under 1 s.
 *
 *   npm run bench:console   (BENCH_RUNS=7; BENCH_TIMELINE=1 prints a visit's requests; CHROMIUM_PATH, default /usr/bin/chromium;
 *                            BENCH_KEEP=1 keeps the filled database; builds the console first)
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { BENCH_HTTP as HTTP, pct, withBenchServer } from './lib/bench-server.ts';
import { DEVICES, FLEET_DB, fillFleet } from './lib/fleet.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const TARGET_MS = 1_000;
const WEB_DIST = join(import.meta.dirname, '../apps/web/dist');
const ROW = '[data-grid-key="gridDevices"] [role="rowgroup"] [role="row"][data-row-id]';

/** Records, in the page, when the grid's first row appears and when the devices page was asked for. */
const probe = (row: string) => {
  const w = window as unknown as { __firstRow?: number };
  new MutationObserver((_, observer) => {
    if (w.__firstRow === undefined && document.querySelector(row)) {
      w.__firstRow = performance.now();
      observer.disconnect();
    }
  }).observe(document, { childList: true, subtree: true });
};

type Visit = { firstRow: number; api: number; scripts: number; scriptKb: number; timeline: string[] };

async function visit(browser: Browser, token: string, reuse?: Awaited<ReturnType<Browser['newContext']>>): Promise<{ visit: Visit; context: Awaited<ReturnType<Browser['newContext']>> }> {
  const context = reuse ?? (await browser.newContext({ locale: 'en-US', viewport: { width: 1600, height: 900 } }));
  if (!reuse) {
    await context.addInitScript((t) => localStorage.setItem('pagewatch.token', t), token);
    await context.addInitScript(probe, ROW);
  }
  const page = await context.newPage();
  // BENCH_TRACE=file: Chromium's trace of the visits again (the last one stays), for DevTools' Performance panel.
  const trace = reuse && process.env.BENCH_TRACE;
  if (trace) await browser.startTracing(page, { path: trace, categories: (process.env.BENCH_TRACE_CATEGORIES ?? 'devtools.timeline,v8.execute,blink.user_timing').split(',') });
  await page.goto(`${HTTP}/devices`, { waitUntil: 'commit' });
  await page.locator(ROW).first().waitFor({ timeout: 30_000 });
  if (trace) await browser.stopTracing();
  const figures = await page.evaluate(() => {
    const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    const list = entries.find((e) => e.name.includes('/api/devices/page'));
    const scripts = entries.filter((e) => e.name.endsWith('.js'));
    const timeline = entries
      .map((e) => `${e.startTime.toFixed(0).padStart(6)} – ${e.responseEnd.toFixed(0).padStart(6)} ms  ${new URL(e.name).pathname}`)
      .concat(performance.getEntriesByType('paint').map((e) => `${e.startTime.toFixed(0).padStart(6)}            ${e.name}`));
    return {
      timeline,
      firstRow: (window as unknown as { __firstRow: number }).__firstRow,
      api: list ? list.responseEnd - list.startTime : NaN,
      scripts: scripts.length,
      scriptKb: scripts.reduce((n, e) => n + e.transferSize, 0) / 1024,
    };
  });
  await page.close();
  return { visit: figures, context };
}

function report(name: string, visits: Visit[]) {
  const rows = visits.map((v) => v.firstRow).sort((a, b) => a - b);
  const api = visits.map((v) => v.api).sort((a, b) => a - b);
  const last = visits.at(-1)!;
  console.log(
    `${name.padEnd(44)} first rows median ${pct(rows, 50).toFixed(0)} ms, max ${rows.at(-1)!.toFixed(0)} ms` +
      `  (the devices page request ${pct(api, 50).toFixed(0)} ms; ${last.scripts} scripts, ${last.scriptKb.toFixed(0)} KB over the network)` +
      `  target < ${TARGET_MS} ms: ${rows.at(-1)! < TARGET_MS ? 'met' : 'NOT met'}`,
  );
}

console.log('building the console…');
const build = spawnSync('npm', ['run', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
if (build.status !== 0) throw new Error('the console did not build');

await withBenchServer(
  FLEET_DB,
  fillFleet,
  async ({ admin }) => {
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
    try {
      console.log(`\n/devices on ${DEVICES.toLocaleString('en')} devices in Chromium, as the administrator (every location), ${RUNS} visits each, after one unmeasured:`);
      await (await visit(browser, admin)).context.close();
      const first: Visit[] = [];
      for (let i = 0; i < RUNS; i++) {
        const { visit: v, context } = await visit(browser, admin);
        first.push(v);
        await context.close();
      }
      report('first visit (new profile, nothing cached)', first);
      const { context } = await visit(browser, admin);
      const again: Visit[] = [];
      for (let i = 0; i < RUNS; i++) again.push((await visit(browser, admin, context)).visit);
      await context.close();
      report('visit again (scripts cached)', again);
      // BENCH_TIMELINE=1: what the last visit asked for and when, to see where the time goes.
      if (process.env.BENCH_TIMELINE === '1') console.log(`\nthe last visit's requests (from the navigation's start):\n${again.at(-1)!.timeline.join('\n')}\n  first row at ${again.at(-1)!.firstRow.toFixed(0)} ms`);
    } finally {
      await browser.close();
    }
    console.log(`load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')} on ${availableParallelism()} cores`);
  },
  { webDist: WEB_DIST },
);
