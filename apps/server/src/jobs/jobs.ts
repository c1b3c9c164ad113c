import type { JobDef } from './job-runner.ts';
import { clearLogs } from './log-clearing.job.ts';

/** Every scheduled job, in one table: name, schedule (UTC), handler. Their runs appear in the event log. */
export const JOBS: JobDef[] = [
  { name: 'log-clearing', title: 'Log clearing', schedule: { daily: '02:30' }, handler: clearLogs },
];
