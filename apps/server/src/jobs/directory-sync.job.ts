import { part, type RunOutcome } from '../modules/event-logs/index.ts';
import { pruneSsoTickets } from '../modules/identity-providers/index.ts';
import type { JobDeps } from './job-runner.ts';

/**
 * Looks every directory's users up again (issue 55): whom it no longer lists, or whose groups
 * give nothing, is disabled and their sessions end; a directory that does not answer changes
 * nobody. Spent OpenID tickets go too.
 */
export async function syncDirectories(deps: JobDeps): Promise<RunOutcome> {
  await pruneSsoTickets(deps.db, new Date());
  if (!deps.directories) return { params: { result: '' } };
  const r = await deps.directories.syncAll();
  return { level: r.failed ? 'W' : 'I', params: { result: part('directoriesSynced', r) } };
}
