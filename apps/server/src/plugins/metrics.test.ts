import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, signIn, testApp } from '../test/test-app.ts';
import { agentReading, batch, createAgent, post } from '../modules/ingest/ingest.fixtures.ts';
import { startMetricsServer } from './metrics.ts';

const t = testApp({ signIn: false });
let server: Server;
let url: string;
beforeAll(async () => {
  server = await startMetricsServer(t.ctx.metrics, '127.0.0.1', 0);
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`;
});
afterAll(async () => {
  server.close();
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

  it('count the readings of every agent, the built-in one included, at the service', async () => {
    const admin = await signIn(t.app);
    const { agentId } = await createAgent(t.app, admin, { range: { from: '127.0.21.1', to: '127.0.21.9' } });
    const before = await (await fetch(url)).text();
    // The built-in agent hands its batches to the ingest service straight, not through the route.
    const result = await t.ctx.ingest.ingest(agentId, batch([agentReading('127.0.21.1', { serial: 'MET-B1', total: 10 })]));
    expect(result.stored).toBe(1);
    const after = await (await fetch(url)).text();
    expect(value(after, 'pagewatch_ingest_readings_total{outcome="stored"}') - value(before, 'pagewatch_ingest_readings_total{outcome="stored"}')).toBe(1);
  });

  it('tell the outbox, the agents, the licenses and the jobs as they are in the database', async () => {
    const admin = await signIn(t.app);
    const { token, agentId } = await createAgent(t.app, admin, { range: { from: '127.0.22.1', to: '127.0.22.9' } });
    expect((await t.app.inject({ method: 'POST', url: '/api/agent/status', headers: bearer(token), payload: { status: 'IDLE', spoolDepth: 0 } })).statusCode).toBe(204);
    await t.ctx.db.execute(sql`
      INSERT INTO notification_messages (message_id, to_email, subject, html, created_at, failed_at) VALUES
        ('<m1@metrics>', 'a@example.com', 's', 'h', now() - interval '1 hour', NULL),
        ('<m2@metrics>', 'b@example.com', 's', 'h', now() - interval '10 minutes', NULL),
        ('<m3@metrics>', 'c@example.com', 's', 'h', now() - interval '2 hours', now())`);
    const defaultId = Number((await t.ctx.db.execute(sql`SELECT id FROM locations WHERE code = 'DEFAULT'`)).rows[0].id);
    await t.ctx.db.execute(sql`INSERT INTO licenses (location_id, date_from, date_to, device_count) VALUES (${defaultId}, current_date, current_date + 30, 5)`);
    await t.ctx.jobs.runNow('log-clearing');
    const [queue] = (await t.ctx.db.execute(sql`
      INSERT INTO queues (type, agent_id, host, port, status, last_read_at) VALUES
        ('IPP', ${agentId}, '127.0.22.50', 631, 'OK', now() - interval '5 minutes'),
        ('IPP', ${agentId}, '127.0.22.51', 631, 'ERROR', NULL) RETURNING id`)).rows;

    const text = await (await fetch(url)).text();
    expect(value(text, 'pagewatch_notification_outbox_queued{channel="email"}')).toBe(2);
    expect(value(text, 'pagewatch_notification_outbox_failed{channel="email"}')).toBe(1);
    expect(value(text, 'pagewatch_notification_outbox_oldest_age_seconds{channel="email"}')).toBeGreaterThanOrEqual(3600);
    expect(value(text, 'pagewatch_notification_outbox_oldest_age_seconds{channel="email"}')).toBeLessThan(3700);
    const seen = value(text, `pagewatch_agent_last_seen_age_seconds{agent="${agentId}"}`);
    expect(seen).toBeGreaterThanOrEqual(0);
    expect(seen).toBeLessThan(60);
    expect(value(text, `pagewatch_license_days_left{location="${defaultId}"}`)).toBe(30);
    const success = value(text, 'pagewatch_job_last_success_timestamp_seconds{job="log-clearing"}');
    expect(Math.abs(success - Date.now() / 1000)).toBeLessThan(60);
    expect(value(text, 'pagewatch_print_queues{status="OK"}')).toBe(1);
    expect(value(text, 'pagewatch_print_queues{status="ERROR"}')).toBe(1);
    expect(text).toContain('pagewatch_print_queues{status="NEW"} 0\n');
    const read = value(text, `pagewatch_print_queue_last_read_age_seconds{queue="${queue.id}"}`);
    expect(read).toBeGreaterThanOrEqual(300);
    expect(read).toBeLessThan(360);

    // The outbox gauges share one statement per scrape, never an earlier scrape's answer.
    await t.ctx.db.execute(sql`UPDATE notification_messages SET sent_at = now() WHERE message_id = '<m1@metrics>'`);
    const next = await (await fetch(url)).text();
    expect(value(next, 'pagewatch_notification_outbox_queued{channel="email"}')).toBe(1);
    expect(value(next, 'pagewatch_notification_outbox_oldest_age_seconds{channel="email"}')).toBeLessThan(700);
  });

  it('follow the Prometheus names: counters end in _total, gauges do not', async () => {
    const types = (await (await fetch(url)).text()).split('\n').filter((l) => l.startsWith('# TYPE ')).map((l) => l.split(' ').slice(2) as [string, string]);
    expect(types.length).toBeGreaterThan(10);
    for (const [name, type] of types) {
      expect(name, type).toMatch(/^pagewatch_/);
      if (type === 'counter') expect(name).toMatch(/_total$/);
      else expect(name, type).not.toMatch(/_total$/);
    }
  });

  it('hold every metric that the shipped Grafana dashboard queries', async () => {
    const dashboard = JSON.parse(readFileSync(new URL('../../../../ops/grafana-dashboard.json', import.meta.url), 'utf8'));
    const queried = new Set<string>(JSON.stringify(dashboard).match(/pagewatch_[a-z0-9_]+/g));
    expect(queried.size).toBeGreaterThan(10);
    const text = await (await fetch(url)).text();
    const served = new Set(text.split('\n').filter((l) => l && !l.startsWith('#')).map((l) => l.split(/[{ ]/)[0]));
    for (const line of text.split('\n').filter((l) => l.startsWith('# TYPE '))) served.add(line.split(' ')[2]);
    for (const name of queried) expect(served, name).toContain(name);
  });
});
