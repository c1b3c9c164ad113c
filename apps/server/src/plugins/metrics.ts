import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { PoolStats } from '../db/pipelined-pool.ts';
import type { Db } from '../db/client.ts';
import { stateGauges } from './metrics-state.ts';

/**
 * prom-client's gauges that end in `_total`, which Prometheus keeps for counters: each is the sum
 * of the gauge of the same name without it (by type), which a query sums when it needs to.
 */
const GAUGES_NAMED_AS_COUNTERS = ['pagewatch_nodejs_active_resources_total', 'pagewatch_nodejs_active_handles_total', 'pagewatch_nodejs_active_requests_total'];

/**
 * The server's Prometheus metrics. Each app has a registry of its own (tests build several in
 * one process). Counters are per instance; Prometheus sums instances.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly requests = new Counter({ name: 'pagewatch_http_requests_total', help: 'HTTP requests by route and status', labelNames: ['method', 'route', 'status'] as const, registers: [this.registry] });
  readonly latency = new Histogram({
    name: 'pagewatch_http_request_duration_seconds', help: 'HTTP request duration by route and status', labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10], registers: [this.registry],
  });
  readonly readings = new Counter({ name: 'pagewatch_ingest_readings_total', help: 'Readings received from agents, the built-in one included, by outcome (stored, duplicate, rejected)', labelNames: ['outcome'] as const, registers: [this.registry] });
  readonly spoolDepth = new Gauge({ name: 'pagewatch_agent_spool_depth', help: 'Records waiting in an agent\'s spool, as last reported to this instance', labelNames: ['agent'] as const, registers: [this.registry] });
  readonly jobRuns = new Counter({ name: 'pagewatch_job_runs_total', help: 'Scheduled job runs by job and outcome', labelNames: ['job', 'outcome'] as const, registers: [this.registry] });
  readonly jobDuration = new Histogram({ name: 'pagewatch_job_duration_seconds', help: 'Job run duration', labelNames: ['job'] as const, buckets: [0.1, 1, 10, 60, 300, 1800, 7200], registers: [this.registry] });
  readonly notificationSendFailures = new Counter({
    name: 'pagewatch_notification_send_failures_total', help: 'Notification attempts that failed (the SMTP server or the channel\'s receiver did not take them), by channel', labelNames: ['channel'] as const, registers: [this.registry],
  });
  readonly notificationsSent = new Counter({ name: 'pagewatch_notifications_sent_total', help: 'Notification messages sent, by channel (email, webhook, slack, teams, telegram)', labelNames: ['channel'] as const, registers: [this.registry] });

  /** When each job last succeeded on this instance (Unix seconds). */
  private readonly lastSuccess = new Map<string, number>();

  /** `db`: the database the state gauges read (outbox, agents, licenses, jobs); none in unit use. */
  constructor(poolStats: () => PoolStats | null, db?: Db) {
    collectDefaultMetrics({ register: this.registry, prefix: 'pagewatch_' });
    for (const name of GAUGES_NAMED_AS_COUNTERS) this.registry.removeSingleMetric(name);
    if (db) stateGauges(this.registry, db, this.lastSuccess);
    const pool = (name: string, help: string, pick: (s: PoolStats) => number) =>
      new Gauge({
        name, help, registers: [this.registry],
        collect() {
          const s = poolStats();
          if (s) this.set(pick(s));
        },
      });
    pool('pagewatch_db_connections', 'Open database connections (pooled and pipelined)', (s) => s.connections);
    pool('pagewatch_db_connections_idle', 'Idle pooled database connections', (s) => s.idle);
    pool('pagewatch_db_waiting', 'Callers waiting for a pooled connection', (s) => s.waiting);
    pool('pagewatch_db_statements_in_flight', 'Statements sent on pipelined connections and not yet answered', (s) => s.inFlight);
  }

  /** What one batch of readings came to, for IngestService (agents' route and the built-in agent alike). */
  ingested(result: { stored: number; duplicates: number; rejected?: unknown[] }) {
    if (result.stored) this.readings.inc({ outcome: 'stored' }, result.stored);
    if (result.duplicates) this.readings.inc({ outcome: 'duplicate' }, result.duplicates);
    if (result.rejected?.length) this.readings.inc({ outcome: 'rejected' }, result.rejected.length);
  }

  /** A finished job run, for JobRunner. */
  jobFinished(job: string, ok: boolean, seconds: number) {
    this.jobRuns.inc({ job, outcome: ok ? 'ok' : 'failed' });
    if (ok) this.lastSuccess.set(job, Date.now() / 1000);
    this.jobDuration.observe({ job }, seconds);
  }
}

const READINGS_ROUTE = 'POST /api/agent/readings';

/** Counts every request by its route pattern (not its URL, which would make a series per id). */
export function setupMetrics(app: FastifyInstance, metrics: Metrics) {
  app.addHook('onResponse', async (req, reply) => {
    // A batch refused whole (malformed, too large) never reaches the ingest verb that counts the rest.
    if (reply.statusCode >= 400 && reply.statusCode < 500 && `${req.method} ${req.routeOptions.url}` === READINGS_ROUTE) {
      const readings = (req.body as { readings?: unknown } | null)?.readings;
      metrics.readings.inc({ outcome: 'rejected' }, Array.isArray(readings) ? readings.length : 1);
    }
  });
  app.addHook('onResponse', async (req, reply) => {
    const labels = { method: req.method, route: req.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) };
    metrics.requests.inc(labels);
    metrics.latency.observe(labels, reply.elapsedTime / 1000);
  });
}

/** The metrics listener, on a port of its own so that the public API never shows them. */
export async function startMetricsServer(metrics: Metrics, host: string, port: number): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    metrics.registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}
