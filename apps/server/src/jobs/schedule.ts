/** When a job runs: daily at a UTC time, or every so many milliseconds. */
export type Schedule = { daily: `${number}:${number}` } | { everyMs: number };

const DAY = 86_400_000;

/** The first run time strictly after `from`. */
export function nextRun(s: Schedule, from: Date): Date {
  if ('everyMs' in s) return new Date(from.getTime() + s.everyMs);
  const [h, m] = s.daily.split(':').map(Number);
  const at = Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate(), h, m);
  return new Date(at > from.getTime() ? at : at + DAY);
}
