import { part, type RunOutcome } from '../modules/event-logs/index.ts';
import { settingValues } from '../modules/settings/index.ts';
import type { JobDeps } from './job-runner.ts';
import { dropMonthsBefore } from '../db/partitions.ts';
import { EVENT_LOG_TABLE } from './history-housekeeping.job.ts';

const DAY = 86_400_000;

/**
 * Drops the event log's months and deletes its records older than LOG_STORAGE_DAYS when CLEARING_ENABLED is on. 0 days
 * keeps everything (deleting the whole log, including this run, is never what is meant).
 */
export async function clearLogs(deps: JobDeps, runId: number): Promise<RunOutcome> {
  const s = await settingValues(deps.db, ['LOG_STORAGE_DAYS', 'CLEARING_ENABLED']);
  if (s.CLEARING_ENABLED !== true) return { params: { result: part('clearingOff') } };
  const days = Number(s.LOG_STORAGE_DAYS);
  if (!Number.isFinite(days) || days <= 0) return { params: { result: part('clearingKept') } };
  const before = new Date(Date.now() - days * DAY);
  // Whole months first, as partitions (db/partitions.ts): then only the rest of one month (and
  // any old record in the DEFAULT partition) is deleted in batches.
  const months = await dropMonthsBefore(deps.db, EVENT_LOG_TABLE, before, null);
  const { deleted, batches } = await deps.eventLog.deleteOlderThan(before, {
    batchSize: deps.tuning.logClearingBatchSize,
    pauseMs: deps.tuning.logClearingPauseMs,
    keepId: runId,
  });
  return { params: { result: part('clearingDone', { deleted, days, before: before.toISOString(), batches, months: months.dropped }) } };
}
