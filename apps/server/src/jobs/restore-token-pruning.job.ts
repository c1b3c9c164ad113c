import type { RunOutcome } from '../modules/event-logs/event-logs.service.ts';
import { part } from '../modules/event-logs/event-logs.messages.ts';
import { pruneRestoreTokens } from '../modules/auth/auth.repository.ts';
import type { JobDeps } from './job-runner.ts';

/** Deletes password restore tokens that were used or have expired. */
export async function pruneSpentRestoreTokens(deps: JobDeps): Promise<RunOutcome> {
  const deleted = await pruneRestoreTokens(deps.db, new Date(), deps.tuning.pruneBatchSize);
  return { params: { result: part('restoreTokensPruned', { deleted }) } };
}
