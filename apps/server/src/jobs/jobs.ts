import type { JobDef } from './job-runner.ts';
import { clearLogs } from './log-clearing.job.ts';
import { pruneThrottle } from './auth-throttle-pruning.job.ts';

/** Every scheduled job, in one table: name, schedule (UTC), handler. Their runs appear in the event log. */
export const JOBS: JobDef[] = [
  { name: 'log-clearing', title: 'Log clearing', schedule: { daily: '02:30' }, handler: clearLogs },
  { name: 'auth-throttle-pruning', title: 'Sign-in throttling clean-up', schedule: { daily: '03:10' }, handler: pruneThrottle },
];
