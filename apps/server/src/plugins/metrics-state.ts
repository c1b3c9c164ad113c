import { sql } from 'drizzle-orm';
import { Gauge, type Registry } from 'prom-client';
import type { Db } from '../db/client.ts';

type Row = Record<string, unknown>;

/**
 * Gauges read from the database at each scrape: what the whole installation is in, the same from
 * every instance (Prometheus takes any one). Each is one short statement over small tables
 * (agents, licenses, job schedules) or an index (the outbox's pending messages).
 */
export function stateGauges(registry: Registry, db: Db, lastSuccess: Map<string, number>) {
  const rows = async (q: ReturnType<typeof sql>): Promise<Row[]> => (await db.execute(q)).rows as Row[];
  const gauge = <L extends string>(name: string, help: string, labelNames: L[], collect: (g: Gauge<L>) => Promise<void>) =>
    new Gauge<L>({
      name, help, labelNames, registers: [registry],
      async collect() {
        this.reset();
        // A database that is away makes the scrape lack these series, not fail.
        await collect(this).catch(() => undefined);
      },
    });

  gauge('pagewatch_notification_outbox_queued', 'Notification e-mails waiting to be sent (not sent, not given up)', [], async (g) => {
    const [r] = await rows(sql`SELECT count(*)::int AS n FROM notification_messages WHERE sent_at IS NULL AND failed_at IS NULL`);
    g.set(Number(r.n));
  });
  gauge('pagewatch_notification_outbox_failed', 'Notification e-mails given up after their last attempt and still kept', [], async (g) => {
    const [r] = await rows(sql`SELECT count(*)::int AS n FROM notification_messages WHERE failed_at IS NOT NULL`);
    g.set(Number(r.n));
  });
  gauge('pagewatch_notification_outbox_oldest_age_seconds', 'Age of the oldest notification e-mail waiting to be sent (0: none waits)', [], async (g) => {
    const [r] = await rows(sql`SELECT coalesce(extract(epoch FROM now() - min(created_at)), 0)::float8 AS age FROM notification_messages WHERE sent_at IS NULL AND failed_at IS NULL`);
    g.set(Number(r.age));
  });
  gauge('pagewatch_agent_last_seen_age_seconds', 'Seconds since each agent last called the server (agents that never called are absent)', ['agent'], async (g) => {
    for (const r of await rows(sql`SELECT id, extract(epoch FROM now() - last_contact_at)::float8 AS age FROM agents WHERE last_contact_at IS NOT NULL`)) {
      g.set({ agent: String(r.id) }, Number(r.age));
    }
  });
  gauge('pagewatch_license_days_left', 'Days until a license ends, by location (the instance license as location "instance")', ['location'], async (g) => {
    const licensed = await rows(sql`
      SELECT location_id::text AS location, (date_to - current_date) AS days FROM licenses
      UNION ALL SELECT 'instance', (date_to - current_date) FROM instance_license WHERE date_to IS NOT NULL`);
    for (const r of licensed) g.set({ location: String(r.location) }, Number(r.days));
  });
  gauge('pagewatch_job_last_success_timestamp_seconds', 'When each scheduled job last finished without an error (Unix time)', ['job'], async (g) => {
    // The schedule knows the last run of every instance; this one remembers its own earlier successes.
    const finished = await rows(sql`
      SELECT s.name, extract(epoch FROM s.last_finished_at)::float8 AS at FROM job_schedules s
      JOIN event_logs e ON e.id = s.last_log_id WHERE s.last_finished_at IS NOT NULL AND e.log_level <> 'E'`);
    const at = new Map(lastSuccess);
    for (const r of finished) at.set(String(r.name), Math.max(at.get(String(r.name)) ?? 0, Number(r.at)));
    for (const [job, seconds] of at) g.set({ job }, seconds);
  });
}
