import autocannon from 'autocannon';
import { pct } from './bench-server.ts';

export type Load = {
  /** Each answer's time in ms, sorted. */
  times: number[];
  seconds: number;
};

/**
 * The benchmarks' load generator (autocannon): `amount` GET requests over `connections`
 * keep-alive connections, the paths in turn; each answer's time is kept, and an answer that is
 * not a 200 fails the run. `onStart` runs as the measured requests start (CPU counters).
 */
export async function load(opts: {
  url: string;
  paths: string[];
  headers: Record<string, string>;
  connections: number;
  amount: number;
}): Promise<Load> {
  const times: number[] = [];
  let failed = 0;
  const started = performance.now();
  let resolve!: (r: autocannon.Result) => void;
  let reject!: (e: Error) => void;
  const done = new Promise<autocannon.Result>((res, rej) => ((resolve = res), (reject = rej)));
  const instance = autocannon(
    {
      url: opts.url,
      connections: opts.connections,
      amount: opts.amount,
      timeout: 30,
      requests: opts.paths.map((path) => ({ method: 'GET', path, headers: opts.headers })),
    },
    (err, result) => (err ? reject(err) : resolve(result)),
  );
  // The run ends at its last answer (autocannon itself notices the end at its next tick).
  let last = started;
  instance.on('response', (_client, status, _bytes, ms) => {
    last = performance.now();
    if (status === 200) times.push(ms);
    else failed++;
  });
  const result = await done;
  const seconds = (last - started) / 1000;
  if (failed || result.errors || result.timeouts) throw new Error(`${failed} answers were not 200, ${result.errors} errors, ${result.timeouts} timeouts`);
  times.sort((a, b) => a - b);
  return { times, seconds };
}

/** `p50 … ms  p95 … ms  p99 … ms  … req/s` of a load. */
export function latencies({ times, seconds }: Load): string {
  const f = (v: number) => v.toFixed(1).padStart(6);
  return `p50 ${f(pct(times, 50))} ms  p95 ${f(pct(times, 95))} ms  p99 ${f(pct(times, 99))} ms  ${(times.length / seconds).toFixed(0).padStart(4)} req/s`;
}
