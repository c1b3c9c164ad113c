import { part, type RunOutcome } from '../modules/event-logs/index.ts';
import { pruneCounters, THROTTLE_KEEP_MS } from '../modules/auth/index.ts';
import type { JobDeps } from './job-runner.ts';

/** Deletes sign-in throttling counters idle for a day: made-up logins would otherwise pile up. */
export async function pruneThrottle(deps: JobDeps): Promise<RunOutcome> {
  const deleted = await pruneCounters(deps.db, new Date(Date.now() - THROTTLE_KEEP_MS), deps.tuning.pruneBatchSize);
  return { params: { result: part('throttlePruned', { deleted }) } };
}
