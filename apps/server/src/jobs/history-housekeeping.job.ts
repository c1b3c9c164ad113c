import { HISTORY_RETENTION_DEFAULTS, type HistoryRetentionCode } from '@pagewatch/contracts/settings';
import { part, type RunOutcome } from '../modules/event-logs/index.ts';
import { settingValues } from '../modules/settings/index.ts';
import { dropMonthsBefore, ensureMonths, type MonthlyTable } from '../db/partitions.ts';
import type { JobDeps } from './job-runner.ts';

/** Partitions made ahead of time, so that a month's rows never wait in the DEFAULT partition. */
export const MONTHS_AHEAD = 3;

/**
 * The history tables partitioned by month (migration 0038) and the setting that says how many
 * months each keeps. The event log keeps LOG_STORAGE_DAYS: the log clearing job drops its
 * months (jobs/log-clearing.job.ts), so its retention is not repeated here.
 */
export const HISTORY_TABLES: (MonthlyTable & { keep: HistoryRetentionCode | null })[] = [
  { table: 'dm_device_days', column: 'fact_date', kind: 'date', keep: 'HISTORY_DAYS_MONTHS' },
  { table: 'dm_device_part_days', column: 'fact_date', kind: 'date', keep: 'HISTORY_DAYS_MONTHS' },
  { table: 'dm_device_user_days', column: 'fact_date', kind: 'date', keep: 'HISTORY_DAYS_MONTHS' },
  { table: 'device_events', column: 'event_at', kind: 'timestamptz', keep: 'HISTORY_EVENTS_MONTHS' },
  { table: 'device_ip_history', column: 'changed_at', kind: 'timestamptz', keep: 'HISTORY_EVENTS_MONTHS' },
  { table: 'agent_runs', column: 'started_at', kind: 'timestamptz', keep: 'HISTORY_RUNS_MONTHS' },
  { table: 'queue_jobs', column: 'completed_at', kind: 'timestamptz', keep: 'HISTORY_RUNS_MONTHS' },
  { table: 'event_logs', column: 'log_datetime', kind: 'timestamptz', keep: null },
];
export const EVENT_LOG_TABLE = HISTORY_TABLES.find((t) => t.table === 'event_logs')!;

/** The oldest time a table keeps with `months` of retention (0 keeps everything). */
export function keptFrom(now: Date, months: number): Date | null {
  if (!(months > 0)) return null;
  const from = new Date(now);
  from.setUTCMonth(from.getUTCMonth() - months);
  return from;
}

/**
 * Makes next months' partitions of every history table, moves rows that landed in a DEFAULT
 * partition into their month's, and drops whole months older than each table's retention.
 */
export async function keepHistory(deps: JobDeps, _runId?: number, now = new Date()): Promise<RunOutcome> {
  const s = await settingValues(deps.db, Object.keys(HISTORY_RETENTION_DEFAULTS));
  let created = 0;
  let moved = 0;
  let dropped = 0;
  let deleted = 0;
  for (const t of HISTORY_TABLES) {
    const months = t.keep ? Number(s[t.keep] ?? HISTORY_RETENTION_DEFAULTS[t.keep]) : 0;
    const from = keptFrom(now, months);
    const made = await ensureMonths(deps.db, t, now, MONTHS_AHEAD, from);
    created += made.created;
    moved += made.moved;
    if (!from) continue;
    const gone = await dropMonthsBefore(deps.db, t, from, deps.tuning.pruneBatchSize);
    dropped += gone.dropped;
    deleted += gone.deleted;
  }
  return { params: { result: part('historyKept', { created, moved, dropped, deleted }) } };
}
