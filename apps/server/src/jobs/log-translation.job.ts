import { part, type RunOutcome } from '../modules/event-logs/index.ts';
import type { JobDeps } from './job-runner.ts';

/**
 * Renders the Russian message of event log records written before it was stored (migration
 * 0041), so that a Russian reader's search finds them as shown; SQL cannot render a template.
 * Runs a minute after an upgrade installs it, then daily (finding nothing, it reads the log's
 * ids once).
 */
export async function translateLogs(deps: JobDeps): Promise<RunOutcome> {
  const translated = await deps.eventLog.translateMissing({ batchSize: deps.tuning.pruneBatchSize / 10, pauseMs: deps.tuning.logClearingPauseMs });
  return { params: { result: part('logTranslated', { translated }) } };
}
