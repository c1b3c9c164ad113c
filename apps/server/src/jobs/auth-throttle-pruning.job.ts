import type { RunOutcome } from '../modules/event-logs/event-logs.service.ts';
import { part } from '../modules/event-logs/event-logs.messages.ts';
import { pruneCounters } from '../modules/auth/auth.repository.ts';
import { THROTTLE_KEEP_MS } from '../modules/auth/throttle.ts';
import type { JobDeps } from './job-runner.ts';

/** Deletes sign-in throttling counters idle for a day: made-up logins would otherwise pile up. */
export async function pruneThrottle(deps: JobDeps): Promise<RunOutcome> {
  const deleted = await pruneCounters(deps.db, new Date(Date.now() - THROTTLE_KEEP_MS), deps.tuning.pruneBatchSize);
  return { params: { result: part('throttlePruned', { deleted }) } };
}
