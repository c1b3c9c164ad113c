import { Cron } from 'croner';

/** When a schedule (a seconds-first cron string in UTC) fires next after `from`; null for none. */
export function nextFire(schedule: string | null, from: Date): Date | null {
  if (!schedule) return null;
  return new Cron(schedule, { timezone: 'UTC', paused: true }).nextRun(from) ?? null;
}

/** Whether a schedule string is one croner can run (the contract's pattern checks its shape). */
export function validSchedule(schedule: string): boolean {
  try {
    return nextFire(schedule, new Date()) !== null;
  } catch {
    return false;
  }
}
