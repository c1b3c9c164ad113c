import { QUEUE_STATUSES } from '@pagewatch/contracts/queues';
import { Gauge, type Registry } from 'prom-client';
import type { Db } from '../db/client.ts';
import { CHANNEL_KINDS } from '@pagewatch/contracts/notification-channels';
import { agentAges, jobsFinishedWell, licenseDaysLeft, outboxState, queueStates, type OutboxState } from './metrics-state.repository.ts';

/** The outbox metrics' channel label: e-mail and each channel kind. */
export const OUTBOX_CHANNELS = ['email', ...CHANNEL_KINDS.map((k) => k.toLowerCase())];

/**
 * Gauges read from the database at each scrape: what the whole installation is in, the same from
 * every instance (Prometheus takes any one).
 */
export function stateGauges(registry: Registry, db: Db, lastSuccess: Map<string, number>) {
  const gauge = <L extends string>(name: string, help: string, labelNames: L[], collect: (g: Gauge<L>) => Promise<void>) =>
    new Gauge<L>({
      name, help, labelNames, registers: [registry],
      async collect() {
        this.reset();
        // A database that is away makes the scrape lack these series, not fail.
        await collect(this).catch(() => undefined);
      },
    });

  const outboxNow = inFlight(() => outboxState(db));
  // Every channel has its series (0 when it has nothing), so that a dashboard's lines never vanish.
  const outboxGauge = (name: string, help: string, pick: (s: OutboxState) => number) =>
    gauge(name, help, ['channel'], async (g) => {
      const now = await outboxNow();
      for (const channel of OUTBOX_CHANNELS) g.set({ channel }, 0);
      for (const s of now) g.set({ channel: s.channel }, pick(s));
    });
  outboxGauge('pagewatch_notification_outbox_queued', 'Notification messages waiting to be sent (not sent, not given up), by channel (email, webhook, slack, teams, telegram)', (s) => s.queued);
  outboxGauge('pagewatch_notification_outbox_failed', 'Notification messages given up after their last attempt and still kept, by channel', (s) => s.failed);
  outboxGauge('pagewatch_notification_outbox_oldest_age_seconds', 'Age of the oldest notification message waiting to be sent, by channel (0: none waits)', (s) => s.oldestAge);
  gauge('pagewatch_agent_last_seen_age_seconds', 'Seconds since each agent last called the server (agents that never called are absent)', ['agent'], async (g) => {
    for (const r of await agentAges(db)) g.set({ agent: String(r.id) }, Number(r.age));
  });
  const queuesNow = inFlight(() => queueStates(db));
  gauge('pagewatch_print_queues', 'Print queues by the status of their last read (NEW: not read yet)', ['status'], async (g) => {
    for (const status of QUEUE_STATUSES) g.set({ status }, 0);
    for (const r of await queuesNow()) g.inc({ status: r.status });
  });
  gauge('pagewatch_print_queue_last_read_age_seconds', 'Seconds since each print queue was last read (queues never read are absent)', ['queue'], async (g) => {
    for (const r of await queuesNow()) if (r.age !== null) g.set({ queue: String(r.id) }, Number(r.age));
  });
  gauge('pagewatch_license_days_left', 'Days until a license ends, by location (the instance license as location "instance")', ['location'], async (g) => {
    for (const r of await licenseDaysLeft(db)) g.set({ location: String(r.location) }, Number(r.days));
  });
  gauge('pagewatch_job_last_success_timestamp_seconds', 'When each scheduled job last finished without an error (Unix time)', ['job'], async (g) => {
    // The schedule knows the last run of every instance; this one remembers its own earlier successes.
    const at = new Map(lastSuccess);
    for (const r of await jobsFinishedWell(db)) at.set(String(r.name), Math.max(at.get(String(r.name)) ?? 0, Number(r.at)));
    for (const [job, seconds] of at) g.set({ job }, seconds);
  });
}

/**
 * A scrape collects every gauge at once (prom-client's Promise.all): gauges read from one
 * statement share the call in flight instead of running it each, and the next scrape runs it anew.
 */
function inFlight<T>(run: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => (pending ??= run().finally(() => (pending = undefined)));
}
