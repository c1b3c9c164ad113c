import { part, type RunOutcome } from '../modules/event-logs/index.ts';
import { pruneSessions } from '../modules/auth/index.ts';
import { pruneApiTokens } from '../modules/api-tokens/index.ts';
import type { JobDeps } from './job-runner.ts';

/** A client back within a week of its session's end still hears "session expired", not "unknown". */
export const SESSION_GRACE_MS = 7 * 86_400_000;

/** Deletes sessions and API tokens that expired or were revoked more than the grace period ago. */
export async function pruneEndedSessions(deps: JobDeps): Promise<RunOutcome> {
  const before = new Date(Date.now() - SESSION_GRACE_MS);
  const deleted = await pruneSessions(deps.db, before, deps.tuning.pruneBatchSize);
  const tokens = await pruneApiTokens(deps.db, before, deps.tuning.pruneBatchSize);
  return { params: { result: tokens ? part('sessionsAndTokensPruned', { deleted, tokens }) : part('sessionsPruned', { deleted }) } };
}
