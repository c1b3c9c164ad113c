import { BENCH_HTTP, pct } from './bench-server.ts';
import { perRequest, type CpuMeter } from './cpu.ts';
import { load, type Load } from './load.ts';

/** A scenario of an HTTP benchmark: the paths it asks for in turn, as whom, and the rows they hold. */
export type Scenario = { name: string; paths: string[]; headers: Record<string, string>; total: number };

/**
 * A scenario's figures over all its rounds: answer times (sorted), seconds, CPU per request,
 * and each round's p95 and CPU per request (`byRound`: "p95/CPU …", to see how much they move).
 */
export type Measured = Scenario & Part & { p95: number; byRound: string };

/** What one run of a scenario gave: answer times, seconds, CPU per request. */
type Part = Load & { cpu: number; db: number };

/**
 * Measures scenarios in interleaved rounds: each one's `requests` are split into `rounds`
 * parts, and every round runs every scenario in turn. What else the machine does over a run
 * (other work on the cores, autovacuum, a writer's bursts) then falls on every scenario alike
 * instead of on those measured last, so that scenarios can be compared within a run. One
 * round measures each scenario in one go.
 *
 * Each part comes after a warm-up under the same load: the whole `warmup` in the first round,
 * a tenth of it in the later ones (the caches, after the other scenarios). The first must
 * outlast PostgreSQL's first plans: each connection plans a prepared statement for its
 * parameters five times before it keeps one plan (in bench:lists, a scenario's five pages are
 * five statements on each of the server's 40 connections: 1,000 requests at the least).
 */
export async function measureRounds(
  meter: CpuMeter,
  scenarios: Scenario[],
  opts: { rounds: number; requests: number; warmup: number; connections: number },
): Promise<Measured[]> {
  const rounds = Math.max(1, Math.min(opts.rounds, opts.requests));
  const parts = scenarios.map(() => [] as Part[]);
  for (let r = 0; r < rounds; r++) {
    for (const [i, s] of scenarios.entries()) {
      const run = (amount: number) => load({ url: BENCH_HTTP, paths: s.paths, headers: s.headers, connections: opts.connections, amount });
      const warmup = r === 0 ? opts.warmup : Math.ceil(opts.warmup / 10);
      if (warmup > 0) await run(warmup);
      // The last round takes what the split leaves, so the parts add up to `requests`.
      const amount = r < rounds - 1 ? Math.floor(opts.requests / rounds) : opts.requests - Math.floor(opts.requests / rounds) * (rounds - 1);
      parts[i].push(await perRequest(meter, () => run(amount)));
    }
  }
  return scenarios.map((s, i) => {
    const times = parts[i].flatMap((p) => p.times).sort((a, b) => a - b);
    const sum = (f: (p: Part) => number) => parts[i].reduce((t, p) => t + f(p), 0);
    const n = times.length;
    return {
      ...s,
      times,
      seconds: sum((p) => p.seconds),
      cpu: sum((p) => p.cpu * p.times.length) / n,
      db: sum((p) => p.db * p.times.length) / n,
      p95: pct(times, 95),
      byRound: parts[i].map((p) => `${pct(p.times, 95).toFixed(0)}/${p.cpu.toFixed(2)}`).join(' '),
    };
  });
}
