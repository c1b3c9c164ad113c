import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, signIn } from '../test/test-app.ts';
import { agentReading, batch, createAgent, post } from '../modules/ingest/ingest.fixtures.ts';
import { startMetricsServer } from './metrics.ts';

let t: Awaited<ReturnType<typeof createTestApp>>;
let server: Server;
let url: string;
beforeAll(async () => {
  t = await createTestApp();
  server = await startMetricsServer(t.ctx.metrics, '127.0.0.1', 0);
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`;
});
afterAll(async () => {
  server.close();
  await t.close();
});

/** The value of one series in a scrape (0 when absent). */
function value(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe('metrics', () => {
  it('are served on their own listener, not on the public API', async () => {
    expect((await t.app.inject({ url: '/metrics' })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/api/metrics' })).statusCode).toBe(404);
    expect((await fetch(url.replace('/metrics', '/other'))).status).toBe(404);
  });

  it('count requests by route and status, readings by outcome, agents\' spools and job runs', async () => {
    const before = await (await fetch(url)).text();
    const admin = await signIn(t.app);
    await t.app.inject({ url: '/api/health' });
    await t.app.inject({ url: '/api/health' });
    await t.app.inject({ url: '/api/users' });
    await t.app.inject({ url: '/api/users/12', headers: bearer(admin) });
    const { token, agentId } = await createAgent(t.app, admin, { range: { from: '127.0.20.1', to: '127.0.20.9' } });
    const readings = [agentReading('127.0.20.1', { serial: 'MET-1', total: 100 }), agentReading('127.0.20.2', { serial: 'MET-2', total: 200 })];
    const b = batch(readings);
    expect((await post(t.app, token, b)).statusCode).toBe(200);
    expect((await post(t.app, token, { ...b, batchId: randomUUID() })).statusCode).toBe(200);
    // A bad reading is refused on its own inside a 200 answer; a malformed batch is a 400.
    const refused = await post(t.app, token, batch([{ ...readings[0], id: 'not-a-uuid' }]));
    expect(refused.statusCode).toBe(200);
    expect(refused.json().rejected).toHaveLength(1);
    expect((await post(t.app, token, { batchId: randomUUID(), readings: 'none' })).statusCode).toBe(400);
    const status = await t.app.inject({ method: 'POST', url: '/api/agent/status', headers: bearer(token), payload: { status: 'IDLE', spoolDepth: 42 } });
    expect(status.statusCode).toBe(204);
    await t.ctx.jobs.runNow('log-clearing');

    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const after = await res.text();
    const moved = (series: string) => value(after, series) - value(before, series);
    expect(moved('pagewatch_http_requests_total{method="GET",route="/api/health",status="200"}')).toBe(2);
    expect(moved('pagewatch_http_requests_total{method="GET",route="/api/users",status="401"}')).toBe(1);
    // By route pattern, not by URL.
    expect(moved('pagewatch_http_requests_total{method="GET",route="/api/users/:id",status="404"}')).toBe(1);
    expect(moved('pagewatch_http_request_duration_seconds_count{method="GET",route="/api/health",status="200"}')).toBe(2);
    expect(moved('pagewatch_ingest_readings_total{outcome="stored"}')).toBe(2);
    expect(moved('pagewatch_ingest_readings_total{outcome="duplicate"}')).toBe(2);
    expect(moved('pagewatch_ingest_readings_total{outcome="rejected"}')).toBe(2);
    expect(value(after, `pagewatch_agent_spool_depth{agent="${agentId}"}`)).toBe(42);
    expect(moved('pagewatch_job_runs_total{job="log-clearing",outcome="ok"}')).toBe(1);
    expect(after).toContain('pagewatch_db_statements_in_flight');
    expect(after).toContain('pagewatch_process_cpu_seconds_total');
  });
});
