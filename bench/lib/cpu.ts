import { readFileSync } from 'node:fs';
import { BENCH_HTTP, databaseUrl, withClient } from './bench-server.ts';

/** CPU milliseconds a process has used (utime + stime from /proc, in clock ticks of 10 ms). */
export function procCpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** CPU used so far by the server (`total`, its database connections included) and by its database connections alone. */
export type CpuMeter = { total(): number; database(): number };

/**
 * The CPU of the benchmark's server and of its PostgreSQL connections (the database runs on
 * this machine): a figure that holds when other work shares the cores, unlike the latencies.
 * The server first opens its whole pool (40 requests at once, signed in with `token`), so that
 * every connection it will use is found and counted; connections opened after this are not.
 */
export async function cpuMeter(serverPid: number, dbName: string, token: string): Promise<CpuMeter> {
  await Promise.all(Array.from({ length: 40 }, () => fetch(`${BENCH_HTTP}/api/users/me`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.text())));
  const pids = await withClient(databaseUrl(dbName), async (c) =>
    (await c.query<{ pid: number }>(
      // Client connections only: an autovacuum worker busy with the database at that moment
      // would count its work as the requests'.
      `SELECT pid FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend' AND pid <> pg_backend_pid()`, [dbName])).rows.map((r) => r.pid));
  // A connection that closes (the server's pool drops one idle for 10 s) keeps the CPU it had
  // used: its last reading, instead of none, which made a scenario's CPU negative.
  const last = new Map<number, number>();
  const cpuOf = (pid: number) => {
    const ms = Math.max(procCpuMs(pid), last.get(pid) ?? 0);
    last.set(pid, ms);
    return ms;
  };
  const database = () => pids.reduce((s, pid) => s + cpuOf(pid), 0);
  return { database, total: () => procCpuMs(serverPid) + database() };
}

/** What a measured run cost: CPU per request of the server with its database, and of the database alone. */
export async function perRequest<T extends { times: number[] }>(meter: CpuMeter, run: () => Promise<T>): Promise<T & { cpu: number; db: number }> {
  const cpu0 = meter.total();
  const db0 = meter.database();
  const measured = await run();
  const n = measured.times.length;
  return { ...measured, cpu: (meter.total() - cpu0) / n, db: (meter.database() - db0) / n };
}

/** `CPU … ms/req (database …)`. */
export const cpuFigures = ({ cpu, db }: { cpu: number; db: number }) => `CPU ${cpu.toFixed(1)} ms/req (database ${db.toFixed(1)})`;

type Figures = { name: string; p95: number; cpu: number };
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Issue 22's target for text filters: each text scenario's CPU per request and p95 within 2× of
 * the median of the other scenarios measured in the same run. Prints each ratio and the verdict.
 */
export function printTextVerdict(text: Figures[], others: Figures[], width: number): boolean {
  const ref = { p95: median(others.map((g) => g.p95)), cpu: median(others.map((g) => g.cpu)) };
  for (const t of text) console.log(`  ${t.name.padEnd(width)} ${(t.cpu / ref.cpu).toFixed(2)}x CPU, ${(t.p95 / ref.p95).toFixed(2)}x p95`);
  const worst = { p95: Math.max(...text.map((g) => g.p95)), cpu: Math.max(...text.map((g) => g.cpu)) };
  const within = worst.p95 <= 2 * ref.p95 && worst.cpu <= 2 * ref.cpu;
  console.log(`text filters, worst: p95 ${worst.p95.toFixed(1)} ms, CPU ${worst.cpu.toFixed(2)} ms/req; the other scenarios' median: p95 ${ref.p95.toFixed(1)} ms, CPU ${ref.cpu.toFixed(2)} ms/req (target: within 2x): ${within ? 'met' : 'NOT met'}`);
  return within;
}
