import { describe, expect, it } from 'vitest';
import { signIn, testApp } from '../../test/test-app.ts';
import { openSocket } from '../../test/websocket.ts';

// The live flow the log detail page relies on, over a real WebSocket: subscribe to a run,
// see EVENT_LOG_CHANGED for each child and EVENT_LOG_FINISHED when it is closed.
const t = testApp({ signIn: false, webSocket: true });

describe('run records over the WebSocket', () => {
  it('a subscriber hears each child and the finish of its run, and nothing of other runs', async () => {
    const token = await signIn(t.app);
    const { ws, next, messages } = await openSocket(`${t.wsUrl}?access_token=${token}`);

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
    expect(messages).toEqual([]);
    ws.close(1000);
  });
});
