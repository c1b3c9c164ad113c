import { part, type RunOutcome } from '../modules/event-logs/index.ts';
import { pruneSessions } from '../modules/auth/index.ts';
import type { JobDeps } from './job-runner.ts';

/** A client back within a week of its session's end still hears "session expired", not "unknown". */
export const SESSION_GRACE_MS = 7 * 86_400_000;

/** Deletes sessions that expired or were revoked more than the grace period ago. */
export async function pruneEndedSessions(deps: JobDeps): Promise<RunOutcome> {
  const deleted = await pruneSessions(deps.db, new Date(Date.now() - SESSION_GRACE_MS), deps.tuning.pruneBatchSize);
  return { params: { result: part('sessionsPruned', { deleted }) } };
}
