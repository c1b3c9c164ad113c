import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { bearer, testApp } from '../../test/test-app.ts';
import { createAgent } from '../ingest/ingest.fixtures.ts';
import { logMessage } from '../event-logs/event-logs.messages.ts';

const t = testApp();

type Child = { log_level: string; message: string; message_code: string; message_params: Record<string, unknown> };
const childrenOf = async (logId: number): Promise<Child[]> =>
  (await t.ctx.db.execute(sql`SELECT log_level, message, message_code, message_params FROM event_logs WHERE parent_id = ${logId}`)).rows as Child[];
const send = (url: string, token: string, payload: object) => t.app.inject({ method: 'POST', url, headers: bearer(token), payload });

describe("a run's summary in the event log (issue 22)", () => {
  it('says per range how many devices answered, were slow, timed out and were unreachable, in both languages', async () => {
    const { token, rangeId } = await createAgent(t.app, t.admin, { name: 'Lossy', range: { from: '127.0.40.1', to: '127.0.40.200' } });
    const quiet = await createAgent(t.app, t.admin, { name: 'Quiet', range: { from: '127.0.41.1', to: '127.0.41.20' } });
    const runId = randomUUID();
    const startedAt = new Date(Date.now() - 60_000);
    const { logId } = (await send('/api/agent/runs', token, { runId, startedAt: startedAt.toISOString() })).json();
    const summary = { answered: 150, slow: 2, timedOut: 3, unreachable: 4 };
    const fin = await send(`/api/agent/runs/${runId}/finish`, token, {
      finishedAt: new Date(startedAt.getTime() + 5000).toISOString(),
      rangeResults: [{ rangeId, scanned: 200, found: 152, durationMs: 4000, error: null, summary }],
    });
    expect(fin.statusCode, fin.body).toBe(204);
    const [child] = await childrenOf(logId);
    // Devices that went silent make the range a warning, and the run with it.
    expect(child!.log_level).toBe('W');
    expect(child!.message).toContain('200 addresses scanned, 152 devices found: 150 answered, 2 slow (a second or more), 3 timed out after retries, 4 unreachable since an earlier run');
    expect(logMessage('ru', child!.message_code, child!.message_params, child!.message)).toContain('ответили 150, медленно (секунда и дольше) 2, не ответили после повторов 3, недоступны с прошлого опроса 4');
    const [parent] = (await t.ctx.db.execute(sql`SELECT log_level FROM event_logs WHERE id = ${logId}`)).rows;
    expect(parent).toEqual({ log_level: 'W' });

    // Every device answered: an information record; an agent without summaries keeps the old text.
    const run2 = randomUUID();
    const second = (await send('/api/agent/runs', quiet.token, { runId: run2, startedAt: startedAt.toISOString() })).json();
    await send(`/api/agent/runs/${run2}/finish`, quiet.token, {
      finishedAt: new Date(startedAt.getTime() + 1000).toISOString(),
      rangeResults: [{ rangeId: quiet.rangeId, scanned: 20, found: 2, durationMs: 900, error: null, summary: { answered: 2, slow: 0, timedOut: 0, unreachable: 0 } }],
    });
    const [ok] = (await t.ctx.db.execute(sql`SELECT log_level FROM event_logs WHERE parent_id = ${second.logId}`)).rows;
    expect(ok).toEqual({ log_level: 'I' });
  });

  it('counts devices that answered but refused apart, with the first ones and why, in both languages', async () => {
    const { token, rangeId } = await createAgent(t.app, t.admin, { name: 'Refusing', range: { from: '127.0.43.1', to: '127.0.43.50' } });
    const runId = randomUUID();
    const { logId } = (await send('/api/agent/runs', token, { runId, startedAt: new Date().toISOString() })).json();
    const refusals = [{ ip: '127.0.43.5', reason: 'community' }, { ip: '127.0.43.7', reason: 'auth' }];
    const fin = await send(`/api/agent/runs/${runId}/finish`, token, {
      finishedAt: new Date().toISOString(),
      rangeResults: [{ rangeId, scanned: 50, found: 10, durationMs: 900, error: null, summary: { answered: 10, slow: 0, timedOut: 0, unreachable: 0, refused: 3, refusals } }],
    });
    expect(fin.statusCode, fin.body).toBe(204);
    const [child] = await childrenOf(logId);
    // Nothing timed out, yet three devices are missing: a warning.
    expect(child!.log_level).toBe('W');
    expect(child!.message).toContain('10 answered, 0 slow (a second or more), 3 refused the request (127.0.43.5: the community is not accepted (the device answers SNMPv3), 127.0.43.7: SNMPv3 user or authentication refused and 1 more), 0 timed out after retries, 0 unreachable since an earlier run');
    expect(logMessage('ru', child!.message_code, child!.message_params, child!.message)).toContain('отказали в запросе 3 (127.0.43.5: community не принимается (устройство отвечает по SNMPv3), 127.0.43.7: пользователь или аутентификация SNMPv3 отклонены и ещё 1)');
  });

  it('counts addresses a busy agent could not probe in time apart from silent ones, in both languages (issue 53)', async () => {
    const { token, rangeId } = await createAgent(t.app, t.admin, { name: 'Starved', range: { from: '127.0.44.1', to: '127.0.44.100' } });
    const runId = randomUUID();
    const { logId } = (await send('/api/agent/runs', token, { runId, startedAt: new Date().toISOString() })).json();
    const fin = await send(`/api/agent/runs/${runId}/finish`, token, {
      finishedAt: new Date().toISOString(),
      rangeResults: [{ rangeId, scanned: 100, found: 40, durationMs: 60_000, error: null, summary: { answered: 40, slow: 0, timedOut: 0, unreachable: 0, refused: 0, refusals: [], unprobed: 55 } }],
    });
    expect(fin.statusCode, fin.body).toBe(204);
    const [child] = await childrenOf(logId);
    // Nothing timed out, yet 55 addresses are unknown: a warning, not a clean range.
    expect(child!.log_level).toBe('W');
    expect(child!.message).toContain('40 answered, 0 slow (a second or more), 0 refused the request, 0 timed out after retries, 0 unreachable since an earlier run, 55 addresses not probed in time (the agent was too busy)');
    expect(logMessage('ru', child!.message_code, child!.message_params, child!.message)).toContain('не проверено адресов за отведённое время (агент был перегружен): 55');
  });

  it('refuses refusals past the bound, of an unknown reason or without an address', async () => {
    const { token, rangeId } = await createAgent(t.app, t.admin, { name: 'Bounds', range: { from: '127.0.44.1', to: '127.0.44.9' } });
    const runId = randomUUID();
    await send('/api/agent/runs', token, { runId, startedAt: new Date().toISOString() });
    const base = { answered: 0, slow: 0, timedOut: 0, unreachable: 0, refused: 6 };
    const six = Array.from({ length: 6 }, (_, i) => ({ ip: `127.0.44.${i + 1}`, reason: 'report' }));
    for (const refusals of [six, [{ ip: '127.0.44.1', reason: 'because' }], [{ ip: 'printer-1', reason: 'auth' }]]) {
      const res = await send(`/api/agent/runs/${runId}/finish`, token, {
        finishedAt: new Date().toISOString(),
        rangeResults: [{ rangeId, scanned: 9, found: 0, durationMs: 1, error: null, summary: { ...base, refusals } }],
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().details).toEqual(expect.arrayContaining([expect.objectContaining({ field: expect.stringContaining('refusals') })]));
    }
  });

  it('refuses a summary with negative counts, naming the field', async () => {
    const { token, rangeId } = await createAgent(t.app, t.admin, { name: 'Bad', range: { from: '127.0.42.1', to: '127.0.42.2' } });
    const runId = randomUUID();
    await send('/api/agent/runs', token, { runId, startedAt: new Date().toISOString() });
    const res = await send(`/api/agent/runs/${runId}/finish`, token, {
      finishedAt: new Date().toISOString(),
      rangeResults: [{ rangeId, scanned: 2, found: 0, durationMs: 1, error: null, summary: { answered: -1, slow: 0, timedOut: 0, unreachable: 0 } }],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual(expect.arrayContaining([expect.objectContaining({ field: expect.stringContaining('summary') })]));
  });
});
