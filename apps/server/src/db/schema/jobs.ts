import { bigint, pgTable, varchar } from 'drizzle-orm/pg-core';
import { ts } from '../columns.ts';

/**
 * One row per declared job: when it runs next and whether a run is under way. Claiming a run is
 * one UPDATE on this row, so across server instances each due run happens once, and the
 * schedule survives restarts (a run missed while the server was down happens at start-up).
 */
export const jobSchedules = pgTable('job_schedules', {
  name: varchar('name', { length: 100 }).primaryKey(),
  nextRunAt: ts('next_run_at').notNull(),
  /** Set while a run is under way; a run whose instance died is given up once this passes. */
  leaseUntil: ts('lease_until'),
  lastStartedAt: ts('last_started_at'),
  lastFinishedAt: ts('last_finished_at'),
  /** The event log record of the last run. */
  lastLogId: bigint('last_log_id', { mode: 'number' }),
});
