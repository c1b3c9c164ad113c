import { and, eq, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.ts';
import type { EventLog, RunOutcome } from '../modules/event-logs/index.ts';
import { jobSchedules } from '../db/schema/jobs.ts';
import { nextRun, type Schedule } from './schedule.ts';

/** Knobs the handlers read; tests make them small. */
export type JobTuning = { logClearingBatchSize: number; logClearingPauseMs: number; pruneBatchSize: number };
export type JobDeps = {
  db: Db;
  eventLog: EventLog;
  tuning: JobTuning;
  /** The directories' sync (issue 55), given by the app once its services exist. */
  directories?: { syncAll(): Promise<{ providers: number; checked: number; disabled: number; failed: number }> };
};
export type JobDef = {
  name: string;
  schedule: Schedule;
  /** Shown in the event log as the run's message. */
  title: string;
  handler: (deps: JobDeps, runId: number) => Promise<RunOutcome>;
  /** Minutes after the job is first installed (a new database, an upgrade) to run it once, besides its schedule. */
  firstRunAfterMinutes?: number;
};

export const DEFAULT_TUNING: JobTuning = { logClearingBatchSize: 5_000, logClearingPauseMs: 50, pruneBatchSize: 10_000 };
const LEASE_MS = 2 * 60 * 60 * 1000;

/**
 * Runs the declared jobs on their schedules. Each run is claimed with one conditional UPDATE of
 * its schedule row (due, and not leased by a run under way), so with several server instances on
 * one database a run happens once; the row lock of that UPDATE is what serialises them, on
 * PostgreSQL and PGlite alike. Every run is an event log run (group JOBS).
 */
export class JobRunner {
  readonly tuning: JobTuning;
  readonly deps: JobDeps;
  private readonly jobs: Map<string, JobDef>;
  private readonly logger: FastifyBaseLogger | null;
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;

  private readonly onFinished: (job: string, ok: boolean, seconds: number) => void;

  constructor(
    db: Db,
    eventLog: EventLog,
    jobs: JobDef[],
    logger: FastifyBaseLogger | null = null,
    onFinished: (job: string, ok: boolean, seconds: number) => void = () => {},
  ) {
    this.onFinished = onFinished;
    this.tuning = { ...DEFAULT_TUNING };
    this.deps = { db, eventLog, tuning: this.tuning };
    this.jobs = new Map(jobs.map((j) => [j.name, j]));
    this.logger = logger;
  }

  /** Adds schedule rows for new jobs; existing rows keep their next run time. */
  async init() {
    const now = new Date();
    for (const job of this.jobs.values()) {
      const first = job.firstRunAfterMinutes === undefined ? nextRun(job.schedule, now) : new Date(now.getTime() + job.firstRunAfterMinutes * 60_000);
      await this.deps.db.insert(jobSchedules).values({ name: job.name, nextRunAt: first }).onConflictDoNothing();
    }
  }

  start(tickMs = 30_000) {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), tickMs);
    this.timer.unref();
    void this.tick();
  }

  async stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.ticking;
  }

  /** Runs every due job once (one after the other). */
  tick(): Promise<void> {
    if (this.ticking) return this.ticking;
    this.ticking = (async () => {
      try {
        for (const job of this.jobs.values()) {
          if (await this.claim(job, false)) await this.execute(job);
        }
      } catch (err) {
        this.logger?.error({ err }, 'job tick failed');
      } finally {
        this.ticking = null;
      }
    })();
    return this.ticking;
  }

  /**
   * Runs a job now, outside its schedule (tests, an operator's "run now"). Returns the id of its
   * event log run, or null when a run of it is already under way somewhere.
   */
  async runNow(name: string): Promise<number | null> {
    const job = this.jobs.get(name);
    if (!job) throw new Error(`No job named ${name}`);
    if (!(await this.claim(job, true))) return null;
    return this.execute(job);
  }

  private async claim(job: JobDef, force: boolean): Promise<boolean> {
    const now = new Date();
    const free = or(isNull(jobSchedules.leaseUntil), lt(jobSchedules.leaseUntil, sql`now()`));
    const claimed = await this.deps.db
      .update(jobSchedules)
      .set({
        leaseUntil: new Date(now.getTime() + LEASE_MS),
        lastStartedAt: now,
        ...(force ? {} : { nextRunAt: nextRun(job.schedule, now) }),
      })
      .where(and(eq(jobSchedules.name, job.name), force ? undefined : lte(jobSchedules.nextRunAt, sql`now()`), free))
      .returning({ name: jobSchedules.name });
    return claimed.length === 1;
  }

  private async execute(job: JobDef): Promise<number | null> {
    let logId: number | null = null;
    const started = performance.now();
    let ok = false;
    try {
      // `log.job.<name>` renders the title with the run's outcome (`result`, empty while it runs).
      await this.deps.eventLog.run({ group: 'JOBS', message: job.title, messageCode: `job.${job.name}`, params: { result: '' } }, (runId) => {
        logId = runId;
        return job.handler(this.deps, runId);
      });
      ok = true;
    } catch (err) {
      // Already in the event log with its stack trace (EventLog.run).
      this.logger?.error({ err, job: job.name }, 'job failed');
    } finally {
      this.onFinished(job.name, ok, (performance.now() - started) / 1000);
      await this.deps.db
        .update(jobSchedules)
        .set({ leaseUntil: null, lastFinishedAt: new Date(), lastLogId: logId })
        .where(eq(jobSchedules.name, job.name));
    }
    return logId;
  }
}
