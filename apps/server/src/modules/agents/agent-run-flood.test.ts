import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { MAX_AGENT_RANGES } from '@pagewatch/contracts/agent-api';
import { bearer, testApp } from '../../test/test-app.ts';
import { createAgent } from '../ingest/ingest.fixtures.ts';

/**
 * Issue 39, finding 2: one agent token finishing a run with 10,000 range results it does not
 * own held the server (PGlite) for minutes and wrote 10,000 event-log records. Now the count is
 * bounded by the contract and foreign ranges are refused from one query, with one record.
 */
const t = testApp();

const send = (url: string, token: string, payload: object) => t.app.inject({ method: 'POST', url, headers: bearer(token), payload });
const result = (rangeId: number) => ({ rangeId, scanned: 1, found: 0, durationMs: 1, error: null });
const logRows = async () => Number(((await t.ctx.db.execute(sql`SELECT count(*)::int AS n FROM event_logs`)).rows[0] as { n: number }).n);

describe('a run finished with range results the agent does not own (issue 39)', () => {
  let token: string;
  let rangeId: number;
  let other: number;
  beforeAll(async () => {
    ({ token, rangeId } = (await createAgent(t.app, t.admin, { name: 'Flooder', range: { from: '127.0.50.1', to: '127.0.50.9' } })) as { token: string; rangeId: number });
    other = (await createAgent(t.app, t.admin, { name: 'Neighbour', range: { from: '127.0.51.1', to: '127.0.51.9' } })).rangeId!;
  });

  const start = async () => {
    const runId = randomUUID();
    const res = await send('/api/agent/runs', token, { runId, startedAt: new Date(Date.now() - 1000).toISOString() });
    expect(res.statusCode, res.body).toBe(200);
    return { runId, logId: res.json().logId as number };
  };

  it('refuses 10,000 results at once with a 400, while /api/health answers in under a second', async () => {
    const { runId } = await start();
    const before = await logRows();
    const rangeResults = Array.from({ length: 10_000 }, (_, i) => result(100_000 + i));
    const started = Date.now();
    const finish = send(`/api/agent/runs/${runId}/finish`, token, { finishedAt: new Date().toISOString(), rangeResults });
    let done = false;
    void finish.then(() => (done = true));
    const health: number[] = [];
    do {
      const at = Date.now();
      expect((await t.app.inject({ url: '/api/health' })).statusCode).toBe(200);
      health.push(Date.now() - at);
      // A turn of the event loop: inject's own work alone would never let the finish run.
      await new Promise((resolve) => setTimeout(resolve, 10));
    } while (!done);
    const res = await finish;
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toMatch(/rangeResults/);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(Math.max(...health)).toBeLessThan(1000);
    expect(await logRows()).toBe(before);
  });

  it('refuses results of ranges that are not its own, or of one range twice, with a 422 and one event-log record; the run stays open', async () => {
    const { runId, logId } = await start();
    const before = await logRows();
    const rangeResults = [result(rangeId), result(other), ...Array.from({ length: MAX_AGENT_RANGES - 3 }, (_, i) => result(200_000 + i)), result(rangeId)];
    const res = await send(`/api/agent/runs/${runId}/finish`, token, { finishedAt: new Date().toISOString(), rangeResults });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().details[0]).toEqual({ field: 'rangeResults.1.rangeId', message: 'not a range of this agent, or named twice' });
    expect(await logRows()).toBe(before + 1);
    const [child] = (await t.ctx.db.execute(sql`SELECT log_level, message FROM event_logs WHERE parent_id = ${logId}`)).rows as { log_level: string; message: string }[];
    expect(child).toMatchObject({ log_level: 'E' });
    expect(child!.message).toContain(`${MAX_AGENT_RANGES - 1} range(s)`);
    // Its own results alone are taken.
    const ok = await send(`/api/agent/runs/${runId}/finish`, token, { finishedAt: new Date().toISOString(), rangeResults: [result(rangeId)] });
    expect(ok.statusCode, ok.body).toBe(204);
  });

  it(`gives an agent at most ${MAX_AGENT_RANGES} ranges, so that its runs fit the contract`, async () => {
    const agent = await createAgent(t.app, t.admin, { name: 'Full', range: { from: '127.0.52.1', to: '127.0.52.1' } });
    await t.ctx.db.execute(sql`INSERT INTO network_ranges (type, ip_from, ip_to, port, community, agent_id, location_id)
      SELECT 'RANGE', '127.0.53.1', '127.0.53.1', 161, 'public', ${agent.agentId}, ${agent.locationId} FROM generate_series(1, ${MAX_AGENT_RANGES - 1})`);
    const payload = { type: 'RANGE', from: '127.0.54.1', to: '127.0.54.2', port: 161, snmpVersion: '2c', community: 'public', agent: { id: agent.agentId } };
    const res = await t.app.inject({ method: 'POST', url: '/api/network-ranges', headers: bearer(t.admin), payload });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().details).toEqual([{ field: 'agent', message: `An agent scans at most ${MAX_AGENT_RANGES} ranges` }]);
    // A range it already has can still be changed.
    const edit = await t.app.inject({ method: 'PUT', url: `/api/network-ranges/${agent.rangeId}`, headers: bearer(t.admin), payload: { ...payload, from: '127.0.52.1', to: '127.0.52.3' } });
    expect(edit.statusCode, edit.body).toBe(200);
  });
});
