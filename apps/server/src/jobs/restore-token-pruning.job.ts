import { part, type RunOutcome } from '../modules/event-logs/index.ts';
import { pruneRestoreTokens } from '../modules/auth/index.ts';
import type { JobDeps } from './job-runner.ts';

/** Deletes password restore tokens that were used or have expired. */
export async function pruneSpentRestoreTokens(deps: JobDeps): Promise<RunOutcome> {
  const deleted = await pruneRestoreTokens(deps.db, new Date(), deps.tuning.pruneBatchSize);
  return { params: { result: part('restoreTokensPruned', { deleted }) } };
}
