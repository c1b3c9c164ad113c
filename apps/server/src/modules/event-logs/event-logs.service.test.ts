import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { WsMessage } from '@pagewatch/contracts/ws';
import { eventLogs } from '../../db/schema/event-logs.ts';
import { testApp } from '../../test/test-app.ts';

const t = testApp({ signIn: false });

const record = async (id: number) => (await t.ctx.db.select().from(eventLogs).where(eq(eventLogs.id, id)))[0];

describe('EventLog runs', () => {
  it('startRun, child, finish: counts children, takes the worst level, sets the duration, publishes', async () => {
    const log = t.ctx.eventLog;
    const seen: WsMessage[] = [];
    const runId = await log.startRun({ group: 'AGENTS', message: 'run', locationId: 1 });
    const off = t.ctx.hub.subscribe(`log:${runId}`, (m) => seen.push(m));
    expect((await record(runId)).logLevel).toBe('P');
    const c1 = await log.child(runId, { level: 'I', message: 'range 1' });
    await log.child(runId, { level: 'W', message: 'range 2', group: 'DEVICES' });
    await new Promise((r) => setTimeout(r, 20));
    await log.finish(runId);
    off();
    const parent = await record(runId);
    expect(parent).toMatchObject({ logLevel: 'W', childrenCount: 2 });
    expect(parent.durationMs).toBeGreaterThanOrEqual(15);
    expect(await record(c1)).toMatchObject({ parentId: runId, locationId: 1, eventGroupId: parent.eventGroupId });
    expect(seen.map((m) => m.type)).toEqual(['EVENT_LOG_CHANGED', 'EVENT_LOG_CHANGED', 'EVENT_LOG_CHANGED', 'EVENT_LOG_FINISHED']);
  });

  it('finish with an explicit level, message and duration', async () => {
    const runId = await t.ctx.eventLog.startRun({ group: 'AGENTS', message: 'run' });
    await t.ctx.eventLog.finish(runId, { level: 'E', message: 'stopped', durationMs: 1234 });
    expect(await record(runId)).toMatchObject({ logLevel: 'E', message: 'stopped', durationMs: 1234 });
  });

  it('run(): a throw finishes as E with the stack trace on a child', async () => {
    let id = 0;
    await expect(t.ctx.eventLog.run({ group: 'JOBS', message: 'job' }, async (runId) => {
      id = runId;
      throw new Error('boom');
    })).rejects.toThrow('boom');
    expect(await record(id)).toMatchObject({ logLevel: 'E', childrenCount: 1 });
    const [child] = await t.ctx.db.select().from(eventLogs).where(eq(eventLogs.parentId, id));
    expect(child.stackTrace).toContain('boom');
    const ok = await t.ctx.eventLog.run({ group: 'JOBS', message: 'job' }, async () => ({ message: 'done, 3 rows' }));
    expect(ok).toEqual({ message: 'done, 3 rows' });
  });
});
