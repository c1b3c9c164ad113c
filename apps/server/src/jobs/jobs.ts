import type { JobDef } from './job-runner.ts';
import { clearLogs } from './log-clearing.job.ts';
import { pruneThrottle } from './auth-throttle-pruning.job.ts';
import { pruneEndedSessions } from './session-pruning.job.ts';
import { pruneSpentRestoreTokens } from './restore-token-pruning.job.ts';
import { pruneReadingIds } from './ingested-readings-pruning.job.ts';
import { pruneOutbox } from './outbox-pruning.job.ts';
import { forecastAllSupplies } from './supply-forecast.job.ts';
import { translateLogs } from './log-translation.job.ts';
import { keepHistory } from './history-housekeeping.job.ts';
import { syncDirectories } from './directory-sync.job.ts';

/** Every scheduled job, in one table: name, schedule (UTC), handler. Their runs appear in the event log. */
export const JOBS: JobDef[] = [
  // Also a minute after it is installed (an upgraded instance), so that next months' partitions exist from the start.
  { name: 'history-housekeeping', title: 'History housekeeping', schedule: { daily: '02:10' }, handler: keepHistory, firstRunAfterMinutes: 1 },
  { name: 'log-clearing', title: 'Log clearing', schedule: { daily: '02:30' }, handler: clearLogs },
  // A minute after an upgrade installs it: the records written before their Russian text was stored.
  { name: 'log-translation', title: 'Log translation', schedule: { daily: '02:20' }, handler: translateLogs, firstRunAfterMinutes: 1 },
  { name: 'auth-throttle-pruning', title: 'Sign-in throttling clean-up', schedule: { daily: '03:10' }, handler: pruneThrottle },
  { name: 'session-pruning', title: 'Ended sessions clean-up', schedule: { daily: '03:20' }, handler: pruneEndedSessions },
  { name: 'restore-token-pruning', title: 'Password restore tokens clean-up', schedule: { daily: '03:30' }, handler: pruneSpentRestoreTokens },
  { name: 'ingested-readings-pruning', title: 'Reading ids clean-up', schedule: { daily: '03:40' }, handler: pruneReadingIds },
  { name: 'outbox-pruning', title: 'E-mail outbox clean-up', schedule: { daily: '03:50' }, handler: pruneOutbox },
  // Also a few minutes after it is installed, so a new fleet (or the demo's history) has forecasts the first day.
  // Users whom their directory no longer lists are disabled within the hour (issue 55).
  { name: 'directory-sync', title: 'Directory sync', schedule: { everyMs: 3_600_000 }, handler: syncDirectories },
  { name: 'supply-forecast', title: 'Supply forecast', schedule: { daily: '04:10' }, handler: forecastAllSupplies, firstRunAfterMinutes: 5 },
];
