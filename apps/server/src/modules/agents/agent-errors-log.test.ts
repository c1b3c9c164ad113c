import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bearer, capturedLog, testApp } from '../../test/test-app.ts';
import { createAgent } from '../ingest/ingest.fixtures.ts';

/**
 * Operations (issue 43): each error an agent reports is in the server's log once, with its
 * reason and the agent, as a JSON line an operator's log search finds; the event log keeps its
 * own record as before.
 */
const log = capturedLog();
const t = testApp({ logStream: log.stream });

const send = (url: string, token: string, payload: object) => t.app.inject({ method: 'POST', url, headers: bearer(token), payload });

describe("an agent's errors in the server's log", () => {
  it('logs an agent entering ERROR once, not at every status call while it stays there', async () => {
    const { token, agentId } = await createAgent(t.app, t.admin, { name: 'Failing', range: { from: '127.0.44.1', to: '127.0.44.9' } });
    for (const status of ['IDLE', 'ERROR', 'ERROR', 'ERROR', 'IDLE']) {
      expect((await send('/api/agent/status', token, { status, message: status === 'ERROR' ? 'spool folder not writable' : undefined, spoolDepth: 0 })).statusCode).toBe(204);
    }
    const errors = log.entries('agent reports an error').filter((l) => l.agent === agentId);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ level: 'error', reason: 'spool folder not writable' });
    // And again when it fails anew after recovering.
    await send('/api/agent/status', token, { status: 'ERROR', message: 'again', spoolDepth: 0 });
    expect(log.entries('agent reports an error').filter((l) => l.agent === agentId)).toHaveLength(2);
  });

  it("logs a run's error and each failed range once, with the reason and never the agent's token", async () => {
    const { token, agentId, rangeId } = await createAgent(t.app, t.admin, { name: 'Broken range', range: { from: '127.0.45.1', to: '127.0.45.9' } });
    const runId = randomUUID();
    const startedAt = new Date(Date.now() - 10_000);
    expect((await send('/api/agent/runs', token, { runId, startedAt: startedAt.toISOString() })).statusCode).toBe(200);
    expect((await send(`/api/agent/runs/${runId}/problems`, token, { rangeId, level: 'E', message: 'socket: permission denied' })).statusCode).toBe(204);
    expect((await send(`/api/agent/runs/${runId}/problems`, token, { rangeId, level: 'W', message: 'a warning only' })).statusCode).toBe(204);
    const fin = await send(`/api/agent/runs/${runId}/finish`, token, {
      finishedAt: new Date().toISOString(),
      rangeResults: [{ rangeId, scanned: 0, found: 0, durationMs: 5, error: "no route to 127.0.45.0/24" }],
    });
    expect(fin.statusCode, fin.body).toBe(204);
    // The same finish sent again (an agent retrying) changes nothing and logs nothing more.
    expect((await send(`/api/agent/runs/${runId}/finish`, token, { finishedAt: new Date().toISOString(), rangeResults: [{ rangeId, scanned: 0, found: 0, durationMs: 5, error: "no route to 127.0.45.0/24" }] })).statusCode).toBe(204);
    const runErrors = log.entries('agent run error').filter((l) => l.agent === agentId);
    expect(runErrors).toEqual([expect.objectContaining({ level: 'error', run: runId, range: rangeId, reason: 'socket: permission denied' })]);
    const rangeErrors = log.entries('agent range failed').filter((l) => l.agent === agentId);
    expect(rangeErrors).toEqual([expect.objectContaining({ level: 'error', run: runId, range: rangeId, reason: 'no route to 127.0.45.0/24' })]);
    expect(log.lines.join('\n')).not.toContain(token);
  });
});
