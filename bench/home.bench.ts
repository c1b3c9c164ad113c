/**
 * Home benchmark (issue 21): GET /api/home on the lists benchmark's fleet (bench/lib/fleet.ts:
 * 100,000 devices, a year of days and their months, about 313,000 supplies) through the real
 * server over HTTP, on PostgreSQL.
 *   1. From a device event to figures that include it: the one pass over every location that an
 *      event (or the figures' age) starts, timed alone, 5 times.
 *   2. 20 concurrent clients, the administrator (every location) and an operator of two.
 *   3. The same while device events arrive from another instance (NOTIFY on the live-events
 *      channel, as a server that ingests sends them) 5 times a second: each event makes the
 *      next request start a pass (one at a time); requests get the last figures meanwhile.
 * Target: p95 under 100 ms at 20 concurrent; each p95 also against the session baseline's
 * (GET /api/users/me, the same load just before it), issue 53.
 *
 *   BENCH_KEEP=1 npm run bench:home   (the lists benchmark's variables; BENCH_KEEP=1 keeps the
 *                                      database; BENCH_HOG=1 runs a CPU hog beside it)
 */
import { BENCH_HTTP as HTTP, databaseUrl, pct, withBenchServer, withClient } from './lib/bench-server.ts';
import { DEVICES, FLEET_DB, fillFleet } from './lib/fleet.ts';
import { latencies, load } from './lib/load.ts';
import { besideHog, bothWays, loadAverage } from './lib/busy.ts';

const CONCURRENCY = 20;
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const EVENTS_PER_SECOND = 5;
const TARGET_MS = 100;
const HUB_CHANNEL = 'pagewatch_hub';
/** The session baseline's p95 at 20 concurrent on the quiet machine (session 30: 30.3, 26.1 and 16.6 ms, load 0.2 to 1.0): the ratios' reference. */
const QUIET_SESSION_P95_MS = 26;

const get = async (token: string) => {
  const res = await fetch(`${HTTP}/api/home`, { headers: { authorization: `Bearer ${token}` } });
  const body = (await res.json()) as { devices: { total: number } | null; pending: boolean };
  if (res.status !== 200 || !body.devices) throw new Error(`/api/home: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  return { pending: body.pending, total: body.devices.total };
};

/** From a device event to figures that include it: home asked every 10 ms until it is no longer pending. */
async function untilCurrent(token: string, notify: () => Promise<unknown>) {
  await notify();
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, 50)); // the event crosses the database to the server
  for (;;) {
    const h = await get(token);
    if (!h.pending) return { ms: performance.now() - t0, total: h.total };
    await new Promise((r) => setTimeout(r, 10));
  }
}

await withBenchServer(FLEET_DB, fillFleet, async ({ admin, operator }) => {
  const url = databaseUrl(FLEET_DB);
  await withClient(url, (c) => besideHog(async () => {
    const notify = () =>
      c.query('SELECT pg_notify($1, $2)', [HUB_CHANNEL, JSON.stringify({ from: 'bench', topic: 'devices', msg: { type: 'DEVICE_EVENT', deviceId: 1, locationId: 1, event: 'STATUS_CHANGE' } })]);
    console.log(`\n${DEVICES.toLocaleString('en')} devices; ${loadAverage()} at start`);

    const computes: number[] = [];
    for (let i = 0; i < 6; i++) {
      const { ms, total } = await untilCurrent(admin, notify);
      if (i > 0) computes.push(ms);
      if (i === 0) console.log(`home of every location: ${total.toLocaleString('en')} devices`);
    }
    computes.sort((a, b) => a - b);
    console.log(`from a device event to figures that include it (one pass over every location): min ${Math.round(computes[0]!)} ms, median ${Math.round(pct(computes, 50))} ms, max ${Math.round(computes.at(-1)!)} ms`);

    /** The session alone under the same load, just before a scenario: its p95 is that scenario's reference. */
    const session = async (token: string, amount: number) => {
      const measured = await load({ url: HTTP, paths: ['/api/users/me'], headers: { authorization: `Bearer ${token}` }, connections: CONCURRENCY, amount });
      console.log(`${`  baseline: GET /api/users/me, ${CONCURRENCY} concurrent`.padEnd(62)} ${latencies(measured)}`);
      return pct(measured.times, 95);
    };
    const results: number[] = [];
    const verdicts: boolean[] = [];
    const judged = (p95: number, base: number) => {
      const v = bothWays(p95, TARGET_MS, base, QUIET_SESSION_P95_MS);
      verdicts.push(v.relative);
      return `p95 ${v.line}; ${loadAverage()}`;
    };
    for (const [name, token] of [['administrator, every location', admin], ['operator of 2 locations', operator]] as const) {
      await load({ url: HTTP, paths: ['/api/home'], headers: { authorization: `Bearer ${token}` }, connections: CONCURRENCY, amount: 200 });
      const base = await session(token, REQUESTS);
      const measured = await load({ url: HTTP, paths: ['/api/home'], headers: { authorization: `Bearer ${token}` }, connections: CONCURRENCY, amount: REQUESTS });
      console.log(`${`${name}, ${CONCURRENCY} concurrent`.padEnd(62)} ${latencies(measured)}`);
      console.log(`    ${judged(pct(measured.times, 95), base)}`);
      results.push(pct(measured.times, 95));
    }

    let sent = 0;
    const base = await session(admin, REQUESTS * 10);
    const timer = setInterval(() => void notify().then(() => sent++), 1000 / EVENTS_PER_SECOND);
    try {
      const measured = await load({ url: HTTP, paths: ['/api/home'], headers: { authorization: `Bearer ${admin}` }, connections: CONCURRENCY, amount: REQUESTS * 10 });
      console.log(`${`administrator, ${CONCURRENCY} concurrent, ${EVENTS_PER_SECOND} device events/s`.padEnd(62)} ${latencies(measured)}  (${sent} events)`);
      console.log(`    ${judged(pct(measured.times, 95), base)}`);
      results.push(pct(measured.times, 95));
    } finally {
      clearInterval(timer);
    }
    const worst = Math.max(...results);
    console.log(`\nworst p95: ${worst.toFixed(1)} ms (target < ${TARGET_MS} ms at ${CONCURRENCY} concurrent): ${worst < TARGET_MS ? 'met' : 'NOT met'}; against the session baseline: ${verdicts.every(Boolean) ? 'met' : 'NOT met'}`);
    console.log(`${loadAverage()} at end`);
  }));
});
