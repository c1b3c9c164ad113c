import { part, type RunOutcome } from '../modules/event-logs/index.ts';
import { pruneMessages } from '../modules/notifications/index.ts';
import type { JobDeps } from './job-runner.ts';

/** Sent e-mails stay a month (the event log keeps each send longer); given-up ones a quarter, to be looked into. */
export const SENT_MESSAGES_KEEP_MS = 30 * 86_400_000;
export const FAILED_MESSAGES_KEEP_MS = 90 * 86_400_000;

/** Deletes outbox messages past their use: sent, or given up, long enough ago. */
export async function pruneOutbox(deps: JobDeps): Promise<RunOutcome> {
  const now = Date.now();
  const deleted = await pruneMessages(deps.db, new Date(now - SENT_MESSAGES_KEEP_MS), new Date(now - FAILED_MESSAGES_KEEP_MS), deps.tuning.pruneBatchSize);
  return { params: { result: part('messagesPruned', { deleted }) } };
}
