/**
 * Print jobs benchmark (issue 20), on PostgreSQL:
 *   1. A day of jobs of 200 queues (100,000 jobs, 500 users) through POST /api/agent/queue-jobs
 *      as 10 agents send them: a run every 15 minutes, one request per run with every queue's
 *      new jobs (as the agent sends them), the agents at once. Each queue prints to a known device, so every batch also adds up the
 *      device's user days. Prints the wall clock and the CPU time of the server and the database.
 *   2. The jobs tab of a queue with a year of jobs (500 a day, 182,500): GET /api/queue-jobs/page
 *      as the console asks (the queue's filter, newest first; sorted by user; a user's jobs),
 *      p50/p95.
 * Targets: the day in under 30 s of server time; the jobs grid p95 under 50 ms.
 *
 *   npm run bench:jobs   (BENCH_QUEUES=200 BENCH_JOBS=100000 BENCH_AGENTS=10 BENCH_REQUESTS=200;
 *                         BENCH_DATABASE_URL or DATABASE_URL, default the test PostgreSQL)
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import type { AgentQueueJob } from '@pagewatch/contracts/agent-queues';
import { bearer, createTestApp, signIn } from '../apps/server/src/test/test-app.ts';
import { createAgent } from '../apps/server/src/modules/ingest/ingest.fixtures.ts';
import { testAppsOnBenchPostgres } from './lib/bench-server.ts';
import { procCpuMs } from './lib/cpu.ts';

const QUEUES = Number(process.env.BENCH_QUEUES ?? 200);
const JOBS = Number(process.env.BENCH_JOBS ?? 100_000);
const AGENTS = Number(process.env.BENCH_AGENTS ?? 10);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const RUNS_A_DAY = 96;
const YEAR_PER_DAY = 500;
testAppsOnBenchPostgres();

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

const t = await createTestApp();
try {
  const db = t.ctx.db;
  /** CPU of this process (the server, and the benchmark's client beside it) and of the database's processes. */
  const cpuNow = async () => {
    const own = process.cpuUsage();
    let pg = 0;
    const res = await db.execute(sql`SELECT pid FROM pg_stat_activity WHERE datname = current_database()`);
    for (const { pid } of res.rows as { pid: number }[]) pg += procCpuMs(pid);
    return { node: (own.user + own.system) / 1000, pg };
  };
  const admin = await signIn(t.app);
  console.log(`Jobs benchmark on PostgreSQL; load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);

  // 200 printers and their queues, 20 to an agent.
  const agents: { token: string; queues: number[] }[] = [];
  for (let a = 0; a < AGENTS; a++) {
    const { agentId, token, locationId } = await createAgent(t.app, admin, { name: `Jobs agent ${a}` });
    const queues: number[] = [];
    for (let q = 0; q < QUEUES / AGENTS; q++) {
      const ip = `10.${a}.${q >> 8}.${(q & 255) + 1}`;
      await db.execute(sql`INSERT INTO devices (location_id, ip, serial_number, model_code, agent_id) VALUES (${locationId}, ${ip}, ${`JOBS-${a}-${q}`}, 'Bench', ${agentId})`);
      const res = await t.app.inject({ method: 'POST', url: '/api/queues', headers: bearer(admin), payload: { type: 'IPP', agent: { id: agentId }, host: 'cups.bench', port: 631, url: `/printers/p${q}` } });
      if (res.statusCode !== 200) throw new Error(res.body);
      queues.push(res.json().id);
    }
    agents.push({ token, queues });
  }

  // 1. A day: job n of queue q completes at its time of day; each run sends what completed since the last one.
  const perQueue = Math.round(JOBS / QUEUES);
  const day = Date.UTC(2026, 2, 2);
  const job = (q: number, n: number): AgentQueueJob => {
    const done = day + Math.floor((n / perQueue) * 86_400_000);
    return {
      externalJobId: n + 1, name: `document-${n}.pdf`, username: `user${(q * 7 + n) % 500}`, clientMachine: `pc-${n % 50}`,
      createdAt: new Date(done - 30_000).toISOString(), completedAt: new Date(done).toISOString(), printedPageCount: 1 + (n % 9),
      colorPageCount: n % 3 ? null : n % 4, sizeKb: 100 + n, paperSize: 'iso_a4_210x297mm', duplex: n % 2 === 0,
    };
  };
  const cpu0 = await cpuNow();
  const t0 = performance.now();
  let sent = 0;
  await Promise.all(agents.map(async (agent, a) => {
    for (let run = 0; run < RUNS_A_DAY; run++) {
      const from = Math.floor((run / RUNS_A_DAY) * perQueue);
      const to = Math.floor(((run + 1) / RUNS_A_DAY) * perQueue);
      const queues = agent.queues.map((queueId, i) => ({
        queueId, stateVersion: 0, printerUri: `socket://10.${a}.${i >> 8}.${(i & 255) + 1}:9100`, error: null,
        jobs: Array.from({ length: to - from }, (_, k) => job(a * 1000 + i, from + k)),
      }));
      const n = queues.reduce((sum, q) => sum + q.jobs.length, 0);
      const res = await t.app.inject({
        method: 'POST', url: '/api/agent/queue-jobs', headers: bearer(agent.token),
        payload: { batchId: randomUUID(), readAt: new Date(day + ((run + 1) / RUNS_A_DAY) * 86_400_000).toISOString(), queues },
      });
      if (res.statusCode !== 200 || res.json().stored !== n) throw new Error(`run: ${res.statusCode} ${res.body.slice(0, 300)}`);
      sent += n;
    }
  }));
  const wall = performance.now() - t0;
  const cpu1 = await cpuNow();
  const cpu = cpu1.node - cpu0.node + cpu1.pg - cpu0.pg;
  const requests = agents.length * RUNS_A_DAY;
  const [{ days, pages, colour }] = (await db.execute(sql`SELECT count(*)::int AS days, sum(printed_page_count)::int AS pages, sum(color_page_count)::int AS colour FROM dm_device_user_days`)).rows as { days: number; pages: number; colour: number }[];
  console.log(`1. a day of jobs: ${sent.toLocaleString('en')} jobs from ${QUEUES} queues in ${(wall / 1000).toFixed(1)} s wall clock (${AGENTS} agents at once), ` +
    `${(cpu / 1000).toFixed(1)} s CPU (node ${((cpu1.node - cpu0.node) / 1000).toFixed(1)} s with the benchmark's client, PostgreSQL ${((cpu1.pg - cpu0.pg) / 1000).toFixed(1)} s): ` +
    `${cpu / 1000 < 30 ? 'met' : 'not met'} (target 30 s); ${requests.toLocaleString('en')} requests (one per agent run), ${(cpu / requests).toFixed(2)} ms CPU each; ${days.toLocaleString('en')} user days, ${pages.toLocaleString('en')} pages, ${colour.toLocaleString('en')} of them colour`);

  // 2. A year of one queue's jobs, written straight to the table, then the jobs tab's pages.
  const queueId = agents[0]!.queues[0]!;
  const n = 365 * YEAR_PER_DAY;
  const y0 = performance.now();
  await db.execute(sql`
    INSERT INTO queue_jobs (queue_id, external_job_id, device_id, name, created_at, completed_at, username, client_machine, printed_page_count, color_page_count, size_kb, paper_size, duplex)
    SELECT ${queueId}, 1000000 + g, (SELECT device_id FROM queues WHERE id = ${queueId}), 'year-' || g || '.pdf',
           timestamptz '2025-03-01' + (g * interval '1 day' / ${YEAR_PER_DAY}) - interval '30 seconds', timestamptz '2025-03-01' + (g * interval '1 day' / ${YEAR_PER_DAY}),
           'user' || (g % 500), 'pc-' || (g % 50), 1 + g % 9, NULLIF(g % 4, 0), 100 + g % 900, 'iso_a4_210x297mm', g % 2 = 0
    FROM generate_series(1, ${n}) g`);
  await db.execute(sql`ANALYZE queue_jobs`);
  console.log(`2. a year of one queue's jobs: ${n.toLocaleString('en')} rows written in ${((performance.now() - y0) / 1000).toFixed(1)} s`);
  const filter = (f: unknown) => encodeURIComponent(JSON.stringify(f));
  const scenarios: [string, string][] = [
    ['the jobs tab (newest first)', `/api/queue-jobs/page?page=20,1&filter-json=${filter(['queueId', '=', queueId])}`],
    ['page 50', `/api/queue-jobs/page?page=20,50&filter-json=${filter(['queueId', '=', queueId])}`],
    ['sorted by user', `/api/queue-jobs/page?page=20,1&sort=username,ASC&filter-json=${filter(['queueId', '=', queueId])}`],
    ['one user\'s jobs', `/api/queue-jobs/page?page=20,1&filter-json=${filter([['queueId', '=', queueId], 'and', ['username', '=', 'user42']])}`],
    ['a month', `/api/queue-jobs/page?page=20,1&filter-json=${filter([['queueId', '=', queueId], 'and', ['completedAt', 'between', ['2025-06-01T00:00:00Z', '2025-07-01T00:00:00Z']]])}`],
  ];
  let worst = 0;
  for (const [name, url] of scenarios) {
    const ms: number[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const s = performance.now();
      const res = await t.app.inject({ url, headers: bearer(admin) });
      ms.push(performance.now() - s);
      if (res.statusCode !== 200) throw new Error(`${name}: ${res.statusCode} ${res.body.slice(0, 300)}`);
    }
    worst = Math.max(worst, pct(ms, 95));
    console.log(`   ${name.padEnd(28)} p50 ${pct(ms, 50).toFixed(1)} ms, p95 ${pct(ms, 95).toFixed(1)} ms`);
  }
  console.log(`   the jobs grid: p95 ${worst.toFixed(1)} ms at worst: ${worst < 50 ? 'met' : 'not met'} (target 50 ms)`);
} finally {
  await t.close();
}
