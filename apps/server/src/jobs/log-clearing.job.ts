import { part, type RunOutcome } from '../modules/event-logs/index.ts';
import { settingValues } from '../modules/settings/index.ts';
import type { JobDeps } from './job-runner.ts';

const DAY = 86_400_000;

/**
 * Deletes event log records older than LOG_STORAGE_DAYS when CLEARING_ENABLED is on. 0 days
 * keeps everything (deleting the whole log, including this run, is never what is meant).
 */
export async function clearLogs(deps: JobDeps, runId: number): Promise<RunOutcome> {
  const s = await settingValues(deps.db, ['LOG_STORAGE_DAYS', 'CLEARING_ENABLED']);
  if (s.CLEARING_ENABLED !== true) return { params: { result: part('clearingOff') } };
  const days = Number(s.LOG_STORAGE_DAYS);
  if (!Number.isFinite(days) || days <= 0) return { params: { result: part('clearingKept') } };
  const before = new Date(Date.now() - days * DAY);
  const { deleted, batches } = await deps.eventLog.deleteOlderThan(before, {
    batchSize: deps.tuning.logClearingBatchSize,
    pauseMs: deps.tuning.logClearingPauseMs,
    keepId: runId,
  });
  return { params: { result: part('clearingDone', { deleted, days, before: before.toISOString(), batches }) } };
}
