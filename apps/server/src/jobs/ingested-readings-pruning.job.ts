import { part, type RunOutcome } from '../modules/event-logs/index.ts';
import { pruneIngestedReadings } from '../modules/ingest/index.ts';
import type { JobDeps } from './job-runner.ts';

// An agent resends a batch only when its acknowledgement was lost, as soon as it runs again; a
// resend 30 days late would need an agent down for a month right after that loss.
export const INGESTED_READINGS_KEEP_MS = 30 * 86_400_000;

/** Forgets reading ids (the ingest's idempotency record) once no resend of them can come. */
export async function pruneReadingIds(deps: JobDeps): Promise<RunOutcome> {
  const deleted = await pruneIngestedReadings(deps.db, new Date(Date.now() - INGESTED_READINGS_KEEP_MS), deps.tuning.pruneBatchSize);
  return { params: { result: part('readingIdsPruned', { deleted }) } };
}
