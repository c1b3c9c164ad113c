import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { createTestApp, signIn } from '../../test/test-app.ts';

// The live flow the log detail page relies on, over a real WebSocket: subscribe to a run,
// see EVENT_LOG_CHANGED for each child and EVENT_LOG_FINISHED when it is closed.
let t: Awaited<ReturnType<typeof createTestApp>>;
let url: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  url = `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/ws`;
});
afterAll(() => t.close());

describe('run records over the WebSocket', () => {
  it('a subscriber hears each child and the finish of its run, and nothing of other runs', async () => {
    const token = await signIn(t.app);
    const ws = new WebSocket(`${url}?access_token=${token}`);
    const inbox: unknown[] = [];
    const waiters: ((m: unknown) => void)[] = [];
    ws.onmessage = (e) => {
      const m = JSON.parse(String(e.data));
      const w = waiters.shift();
      if (w) w(m);
      else inbox.push(m);
    };
    const next = () => (inbox.length ? Promise.resolve(inbox.shift()) : new Promise((r) => waiters.push(r)));
    await new Promise((r) => (ws.onopen = r));

    const log = t.ctx.eventLog;
    const runId = await log.startRun({ group: 'AGENTS', message: 'live run' });
    const other = await log.startRun({ group: 'AGENTS', message: 'other run' });
    ws.send(JSON.stringify({ command: 'subscribe-log-events', id: runId }));
    expect(await next()).toEqual({ type: 'response', command: 'subscribe-log-events', ok: true });

    await log.child(other, { level: 'I', message: 'not for us' });
    await log.child(runId, { level: 'W', message: 'range 1' });
    expect(await next()).toEqual({ type: 'EVENT_LOG_CHANGED', id: runId });
    await log.finish(runId);
    expect(await next()).toEqual({ type: 'EVENT_LOG_CHANGED', id: runId });
    expect(await next()).toEqual({ type: 'EVENT_LOG_FINISHED', id: runId });

    ws.send(JSON.stringify({ command: 'unsubscribe-log-events', id: runId }));
    expect(await next()).toEqual({ type: 'response', command: 'unsubscribe-log-events', ok: true });
    expect(t.ctx.hub.listenerCount(`log:${runId}`)).toBe(0);
    expect(inbox).toEqual([]);
    ws.close(1000);
  });
});
