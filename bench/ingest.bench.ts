/**
 * Ingest benchmark: readings per second through POST /api/agent/readings (JSON, validation, the
 * one transaction per batch: matching, current state, supplies, daily history, events), on
 * PGlite and on PostgreSQL. Target: 2,000 readings per second on PostgreSQL.
 *
 *   npm run bench:ingest     (BENCH_PRINTERS=2000 BENCH_ROUNDS=4 BENCH_BATCH=500;
 *                             BENCH_DATABASE_URL or DATABASE_URL, default the test PostgreSQL;
 *                             BENCH_DBS=pglite,postgres)
 *
 * Round 1 sees every printer for the first time (new devices, NEW_DEVICE events); later rounds
 * are the steady state (counters move, toner drains, now and then a status changes).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { performance } from 'node:perf_hooks';
import type { AgentReading } from '@pagewatch/contracts/agent-api';
import { createTestApp, signIn } from '../apps/server/src/test/test-app.ts';
import { agentReading, batch, createAgent, post } from '../apps/server/src/modules/ingest/ingest.fixtures.ts';
import { SERVER_URL } from './lib/bench-server.ts';

const PRINTERS = Number(process.env.BENCH_PRINTERS ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const BATCH = Number(process.env.BENCH_BATCH ?? 500);
const DBS = (process.env.BENCH_DBS ?? 'pglite,postgres').split(',');

type Result = { db: string; round: number; readings: number; ms: number; cpuMs: number };

/**
 * CPU time spent by this process and by the database's server processes (PostgreSQL on this
 * machine, read from /proc): a figure that holds when other work shares the 2 cores.
 */
type Db = Awaited<ReturnType<typeof createTestApp>>['ctx']['db'];
const TICK_MS = 10;
function procCpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}
async function cpuNow(db: Db, postgres: boolean): Promise<Map<string, number>> {
  const cpu = new Map<string, number>();
  const own = process.cpuUsage();
  cpu.set('node', (own.user + own.system) / 1000);
  if (postgres) {
    const res = await db.execute(sql`SELECT pid FROM pg_stat_activity WHERE datname = current_database()`);
    for (const { pid } of res.rows as { pid: number }[]) cpu.set(`pg${pid}`, procCpuMs(pid));
  }
  return cpu;
}
const cpuSpent = (a: Map<string, number>, b: Map<string, number>) => [...b].reduce((s, [k, v]) => s + v - (a.get(k) ?? 0), 0);

function fleetRound(round: number, rangeId: number | null): AgentReading[] {
  const readAt = new Date(Date.now() - (ROUNDS - round) * 15 * 60_000);
  const runId = randomUUID();
  return Array.from({ length: PRINTERS }, (_, i) => {
    const ip = `127.${1 + (i >> 16)}.${(i >> 8) & 255}.${i & 255 || 1}`;
    const color = i % 3 === 0;
    return agentReading(
      ip,
      {
        serial: `BENCH${String(i).padStart(6, '0')}`,
        mac: `02:00:${((i >> 24) & 255).toString(16).padStart(2, '0')}:${((i >> 16) & 255).toString(16).padStart(2, '0')}:${((i >> 8) & 255).toString(16).padStart(2, '0')}:${(i & 255).toString(16).padStart(2, '0')}`,
        total: 10_000 + i * 7 + round * 150,
        black: Math.max(1, 90 - ((i + round * 3) % 85)),
        ...(color ? { cyan: Math.max(1, 70 - ((i + round) % 60)) } : {}),
        ...(round > 1 && i % 97 === 0 ? { errors: ['lowPaper'], deviceStatus: 'warning' as const } : {}),
      },
      { runId, rangeId, readAt },
    );
  });
}

async function run(db: string): Promise<Result[]> {
  if (db === 'postgres') {
    process.env.PAGEWATCH_TEST_DB = 'postgres';
    process.env.DATABASE_URL = SERVER_URL;
  } else {
    process.env.PAGEWATCH_TEST_DB = 'pglite';
  }
  const t = await createTestApp();
  const results: Result[] = [];
  try {
    const admin = await signIn(t.app);
    const { token, rangeId } = await createAgent(t.app, admin, { name: 'Bench', range: { from: '127.1.0.1', to: '127.1.255.254' } });
    for (let round = 1; round <= ROUNDS; round++) {
      const readings = fleetRound(round, rangeId);
      const batches = [];
      for (let i = 0; i < readings.length; i += BATCH) batches.push(batch(readings.slice(i, i + BATCH)));
      const cpu0 = await cpuNow(t.ctx.db, db === 'postgres');
      const start = performance.now();
      for (const b of batches) {
        const res = await post(t.app, token, b);
        if (res.statusCode !== 200) throw new Error(`batch refused: ${res.statusCode} ${res.body.slice(0, 300)}`);
        // Readings are checked one by one since issue 14: a refused one is in a 200 answer.
        if (res.body.includes('"rejected":[{')) throw new Error(`readings refused: ${res.body.slice(0, 300)}`);
      }
      const ms = performance.now() - start;
      const cpuMs = cpuSpent(cpu0, await cpuNow(t.ctx.db, db === 'postgres'));
      results.push({ db, round, readings: readings.length, ms, cpuMs });
      console.log(
        `${db.padEnd(8)} round ${round}${round === 1 ? ' (new devices)' : ' (steady)     '}: ${readings.length} readings in ${(ms / 1000).toFixed(2)} s = ${Math.round((readings.length / ms) * 1000)} readings/s;` +
          ` CPU ${(cpuMs / readings.length).toFixed(2)} ms per reading = ${Math.round((readings.length / cpuMs) * 1000)} readings per CPU-second`,
      );
    }
    // A batch sent again is stored once: the cost of the duplicate check alone.
    const again = batch(fleetRound(ROUNDS, rangeId).slice(0, BATCH));
    await post(t.app, token, again);
    const start = performance.now();
    const res = await post(t.app, token, { ...again, batchId: randomUUID() });
    console.log(`${db.padEnd(8)} duplicate batch of ${BATCH}: ${(performance.now() - start).toFixed(0)} ms (${res.body})`);
  } finally {
    await t.close();
  }
  return results;
}

console.log(`Ingest benchmark: ${PRINTERS} printers, ${ROUNDS} rounds, batches of ${BATCH}, over HTTP (inject) into the real server`);
console.log(`(load average now ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}: wall-clock rates drop when other work shares the cores; CPU per reading does not)`);
const all: Result[] = [];
for (const db of DBS) {
  try {
    all.push(...(await run(db)));
  } catch (error) {
    console.log(`${db}: skipped (${error instanceof Error ? error.message : String(error)})`);
  }
}
console.log('\nsummary (steady state, rounds 2+):');
for (const db of DBS) {
  const steady = all.filter((r) => r.db === db && r.round > 1);
  if (!steady.length) continue;
  const readings = steady.reduce((s, r) => s + r.readings, 0);
  const ms = steady.reduce((s, r) => s + r.ms, 0);
  const cpuMs = steady.reduce((s, r) => s + r.cpuMs, 0);
  const rate = Math.round((readings / ms) * 1000);
  const perCpu = Math.round((readings / cpuMs) * 1000);
  const target = db === 'postgres' ? (rate >= 2000 ? '  (target 2,000/s: met)' : '  (target 2,000/s: not met on this run)') : '';
  console.log(`  ${db.padEnd(8)} ${rate} readings/s wall clock${target}; ${perCpu} readings per CPU-second (server + database)`);
}
