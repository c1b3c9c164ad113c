import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { BENCH_HTTP, pct } from './bench-server.ts';
import { startHog, type Hog } from './hog.ts';

/**
 * Benchmarks on a busy machine (issue 53): `BENCH_HOG=1` runs a CPU hog beside the measuring
 * (`bench/lib/hog.ts`), every figure line gives the load average, and each target is also
 * given against the same run's session-only baseline (`GET /api/users/me`: the session and three
 * small queries, the floor of any signed-in call), which slows down with the machine as the
 * figures do.
 */
export const HOG = process.env.BENCH_HOG === '1';
export const loadAverage = (): string => `load ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')} on ${availableParallelism()} cores`;

/** The hog of BENCH_HOG=1 around `work`, stopped by its PID afterwards; without it, `work` alone. */
export async function besideHog<T>(work: () => Promise<T>): Promise<T> {
  let hog: Hog | null = null;
  if (HOG) {
    hog = startHog();
    console.log(`CPU hog beside the measuring: ${hog.what}`);
  }
  try {
    return await work();
  } finally {
    hog?.stop();
  }
}

/**
 * The session baseline one call at a time, as the reports are asked: `sample` adds calls
 * (between the measured runs, so that the baseline sees the same machine as they do); the
 * median of all of them is the run's baseline.
 */
export class SessionBaseline {
  private readonly times: number[] = [];
  private readonly token: string;
  constructor(token: string) {
    this.token = token;
  }

  async sample(calls = 10): Promise<void> {
    for (let i = 0; i < calls; i++) {
      const t0 = performance.now();
      const res = await fetch(`${BENCH_HTTP}/api/users/me`, { headers: { authorization: `Bearer ${this.token}` } });
      await res.text();
      if (res.status !== 200) throw new Error(`/api/users/me: ${res.status}`);
      this.times.push(performance.now() - t0);
    }
  }

  median(): number {
    return pct([...this.times].sort((a, b) => a - b), 50);
  }
}

/**
 * A time against its target both ways: absolutely, and as a multiple of the run's baseline
 * against the target's multiple of the quiet machine's baseline (`quietMs`, measured there):
 * on a machine k times slower the session is about k times slower too, so the ratio holds
 * where the absolute time does not.
 */
export function bothWays(ms: number, targetMs: number, baselineMs: number, quietMs: number): { line: string; absolute: boolean; relative: boolean } {
  const ratio = ms / baselineMs;
  const targetRatio = targetMs / quietMs;
  const absolute = ms < targetMs;
  const relative = ratio < targetRatio;
  const x = (v: number) => `${v < 10 ? v.toFixed(1) : Math.round(v).toLocaleString('en')}×`;
  return {
    absolute,
    relative,
    line: `${absolute ? 'met' : 'NOT met'} (< ${targetMs.toLocaleString('en')} ms); ${x(ratio)} the session: ${relative ? 'met' : 'NOT met'} (< ${x(targetRatio)}, the target over the quiet session's ${quietMs} ms)`,
  };
}
