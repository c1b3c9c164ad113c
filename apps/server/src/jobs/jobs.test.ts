import { describe, expect, it } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import { eventLogs } from '../db/schema/event-logs.ts';
import { settings } from '../db/schema/settings.ts';
import { testApp } from '../test/test-app.ts';
import { JobRunner, type JobDef } from './job-runner.ts';
import { jobSchedules } from '../db/schema/jobs.ts';
import { nextRun } from './schedule.ts';

const t = testApp({ signIn: false });

const DAY = 86_400_000;
const setSettings = async (days: number, enabled: boolean) => {
  await t.ctx.db.update(settings).set({ numericValue: days }).where(eq(settings.code, 'LOG_STORAGE_DAYS'));
  await t.ctx.db.update(settings).set({ flagValue: enabled }).where(eq(settings.code, 'CLEARING_ENABLED'));
};
/** Records `daysAgo` old: a run with children (as agents write them) and plain ones. */
async function records(daysAgo: number, plain: number): Promise<number[]> {
  const at = new Date(Date.now() - daysAgo * DAY);
  const ids: number[] = [];
  const run = await t.ctx.eventLog.startRun({ group: 'AGENTS', message: `run ${daysAgo}` });
  ids.push(run, await t.ctx.eventLog.child(run, { level: 'W', message: 'range' }));
  await t.ctx.eventLog.finish(run);
  for (let i = 0; i < plain; i++) ids.push(await t.ctx.eventLog.write({ group: 'DEVICES', level: 'I', message: `event ${i}` }));
  await t.ctx.db.update(eventLogs).set({ logDatetime: at }).where(inArray(eventLogs.id, ids));
  return ids;
}
const existing = async (ids: number[]) => (await t.ctx.db.select({ id: eventLogs.id }).from(eventLogs).where(inArray(eventLogs.id, ids))).length;
const record = async (id: number) => (await t.ctx.db.select().from(eventLogs).where(eq(eventLogs.id, id)))[0];

describe('log clearing job', () => {
  it('with storage days 1 and clearing on: deletes older records in batches and logs its run with the count', async () => {
    await setSettings(1, true);
    const old = await records(3, 5); // 7 records
    const fresh = await records(0, 2);
    t.ctx.jobs.tuning.logClearingBatchSize = 3;
    t.ctx.jobs.tuning.logClearingPauseMs = 1;
    const runId = await t.ctx.jobs.runNow('log-clearing');
    expect(runId).not.toBeNull();
    expect(await existing(old)).toBe(0);
    expect(await existing(fresh)).toBe(fresh.length);
    const run = await record(runId!);
    expect(run).toMatchObject({ parentId: null, logLevel: 'I', messageCode: 'job.log-clearing' });
    expect(run.message).toMatch(/deleted 7 records older than 1 days .* in 3 batches/);
    expect(run.durationMs).not.toBeNull();
    const [schedule] = await t.ctx.db.select().from(jobSchedules).where(eq(jobSchedules.name, 'log-clearing'));
    expect(schedule).toMatchObject({ lastLogId: runId, leaseUntil: null });
  });

  it('with clearing off: deletes nothing, and says so', async () => {
    await setSettings(1, false);
    const old = await records(5, 1);
    const runId = await t.ctx.jobs.runNow('log-clearing');
    expect(await existing(old)).toBe(old.length);
    expect((await record(runId!)).message).toMatch(/off/);
  });

  it('with storage days 0: keeps everything', async () => {
    await setSettings(0, true);
    const old = await records(400, 1);
    await t.ctx.jobs.runNow('log-clearing');
    expect(await existing(old)).toBe(old.length);
  });
});

describe('job runner', () => {
  it('runs a due job once across instances, keeps its schedule across restarts, catches up a missed run', async () => {
    let runs = 0;
    const job: JobDef = {
      name: 'test-counter',
      title: 'Counter',
      schedule: { everyMs: 60 * 60_000 },
      handler: async () => {
        runs++;
        await new Promise((r) => setTimeout(r, 20));
        return { message: `run ${runs}` };
      },
    };
    const a = new JobRunner(t.ctx.db, t.ctx.eventLog, [job]);
    const b = new JobRunner(t.ctx.db, t.ctx.eventLog, [job]);
    await a.init();
    await b.init();
    await Promise.all([a.tick(), b.tick()]);
    expect(runs).toBe(0); // not due yet: the first run is one period after creation

    const due = sql`now() - interval '1 minute'`;
    await t.ctx.db.update(jobSchedules).set({ nextRunAt: due }).where(eq(jobSchedules.name, job.name));
    await Promise.all([a.tick(), b.tick(), a.tick(), b.tick()]);
    expect(runs).toBe(1);
    const [after] = await t.ctx.db.select().from(jobSchedules).where(eq(jobSchedules.name, job.name));
    expect(after.nextRunAt.getTime()).toBeGreaterThan(Date.now() + 50 * 60_000);
    expect((await record(after.lastLogId!)).message).toBe('run 1');

    // A restart (a new runner) keeps the stored time; a run missed while down happens at once.
    const c = new JobRunner(t.ctx.db, t.ctx.eventLog, [job]);
    await c.init();
    const [kept] = await t.ctx.db.select().from(jobSchedules).where(eq(jobSchedules.name, job.name));
    expect(kept.nextRunAt.getTime()).toBe(after.nextRunAt.getTime());
    await t.ctx.db.update(jobSchedules).set({ nextRunAt: due }).where(eq(jobSchedules.name, job.name));
    await c.tick();
    expect(runs).toBe(2);

    // A run under way elsewhere (leased) is not started again, not even by runNow.
    await t.ctx.db.update(jobSchedules).set({ leaseUntil: sql`now() + interval '1 hour'` }).where(eq(jobSchedules.name, job.name));
    expect(await c.runNow(job.name)).toBeNull();
    expect(runs).toBe(2);
  });

  it('runs a job with a first run soon after it is installed, then on its schedule', async () => {
    const job: JobDef = { name: 'test-first', title: 'First', schedule: { daily: '04:10' }, firstRunAfterMinutes: 5, handler: async () => ({ message: 'ran' }) };
    const r = new JobRunner(t.ctx.db, t.ctx.eventLog, [job]);
    const before = Date.now();
    await r.init();
    const [row] = await t.ctx.db.select().from(jobSchedules).where(eq(jobSchedules.name, job.name));
    expect(row.nextRunAt.getTime() - before).toBeGreaterThanOrEqual(5 * 60_000 - 1000);
    expect(row.nextRunAt.getTime() - before).toBeLessThan(5 * 60_000 + 5000);
    // Installed once: a restart keeps the time.
    await new JobRunner(t.ctx.db, t.ctx.eventLog, [job]).init();
    const [kept] = await t.ctx.db.select().from(jobSchedules).where(eq(jobSchedules.name, job.name));
    expect(kept.nextRunAt.getTime()).toBe(row.nextRunAt.getTime());
  });

  it('a failing job is logged as an error run with its stack trace', async () => {
    const job: JobDef = { name: 'test-fail', title: 'Failing', schedule: { everyMs: 1000 }, handler: async () => { throw new Error('job broke'); } };
    const r = new JobRunner(t.ctx.db, t.ctx.eventLog, [job]);
    await r.init();
    const runId = await r.runNow('test-fail');
    expect(await record(runId!)).toMatchObject({ logLevel: 'E', childrenCount: 1 });
    const [child] = await t.ctx.db.select().from(eventLogs).where(eq(eventLogs.parentId, runId!));
    expect(child.stackTrace).toContain('job broke');
  });

  it('daily schedules run at the next UTC time', () => {
    expect(nextRun({ daily: '02:30' }, new Date('2026-01-01T01:00:00Z')).toISOString()).toBe('2026-01-01T02:30:00.000Z');
    expect(nextRun({ daily: '02:30' }, new Date('2026-01-01T02:30:00Z')).toISOString()).toBe('2026-01-02T02:30:00.000Z');
  });
});
