/**
 * Notification benchmark: a burst of device events through the real ingest, matched against
 * active notifications, each resulting e-mail handed to a local SMTP server (smtp-server on
 * 127.0.0.1). Target: every e-mail handed over within 60 s of the burst, and the ingest slowed
 * by under 20% against the same burst with the notifications switched off.
 *
 *   npm run bench:notify     (BENCH_PRINTERS=10000 BENCH_NOTIFICATIONS=1000 BENCH_LOCATIONS=100;
 *                             BENCH_DATABASE_URL or DATABASE_URL, default the test PostgreSQL)
 *
 * Each location has BENCH_NOTIFICATIONS / BENCH_LOCATIONS notifications with one subscriber of
 * the location, in turn: on any status change (these match), on three other statuses, and of
 * the other types. The burst turns every printer's status from WARNING to OK: one event per
 * printer, and an e-mail per matching notification (two per printer with 10 per location).
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { AgentReading } from '@pagewatch/contracts/agent-api';
import { bearer, createTestApp, createUser, signIn } from '../apps/server/src/test/test-app.ts';
import { mailbox, smtpSettingsFor } from '../apps/server/src/test/mailbox.ts';
import { addLocation } from '../apps/server/src/test/scope-fixture.ts';
import { agentReading, batch, createAgent, post } from '../apps/server/src/modules/ingest/ingest.fixtures.ts';
import { outboxCounts } from '../apps/server/src/modules/notifications/outbox.repository.ts';
import { testAppsOnBenchPostgres } from './lib/bench-server.ts';

const PRINTERS = Number(process.env.BENCH_PRINTERS ?? 10_000);
const NOTIFICATIONS = Number(process.env.BENCH_NOTIFICATIONS ?? 1000);
const LOCATIONS = Number(process.env.BENCH_LOCATIONS ?? 100);
const BATCH = 500;
const TARGET_S = 60;

testAppsOnBenchPostgres();

function round(n: number, rangeId: number | null, warning: boolean): AgentReading[] {
  const runId = randomUUID();
  const readAt = new Date(Date.now() - (3 - n) * 15 * 60_000);
  return Array.from({ length: PRINTERS }, (_, i) =>
    agentReading(`127.1.${(i >> 8) & 255}.${i & 255 || 1}`, {
      serial: `NOTIFY${String(i).padStart(6, '0')}`,
      total: 10_000 + i + n * 100,
      black: 80,
      ...(warning ? { errors: ['lowPaper'], deviceStatus: 'warning' as const } : {}),
    }, { runId, rangeId, readAt }),
  );
}

const t = await createTestApp();
const box = await mailbox();
try {
  const db = t.ctx.db;
  const admin = await signIn(t.app);
  await smtpSettingsFor(db, box.port);
  const { token, rangeId } = await createAgent(t.app, admin, { name: 'Bench', range: { from: '127.1.0.1', to: '127.1.255.254' } });
  const ingest = async (readings: AgentReading[]) => {
    const start = performance.now();
    for (let i = 0; i < readings.length; i += BATCH) {
      const res = await post(t.app, token, batch(readings.slice(i, i + BATCH)));
      if (res.statusCode !== 200) throw new Error(`batch refused: ${res.statusCode} ${res.body.slice(0, 300)}`);
    }
    return performance.now() - start;
  };

  console.log(`Notification benchmark: ${PRINTERS} printers in ${LOCATIONS} locations, ${NOTIFICATIONS} notifications; PostgreSQL; load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
  await ingest(round(1, rangeId, true));
  const locationIds: number[] = [];
  for (let l = 0; l < LOCATIONS; l++) locationIds.push(await addLocation(db, `NOTIFY${l}`));
  // The printers spread over the locations (below the agent's, so its readings still reach them).
  await db.execute(sql`UPDATE devices SET location_id = (${sql.raw(`ARRAY[${locationIds.join(',')}]`)})[1 + id % ${LOCATIONS}]`);
  await db.execute(sql`UPDATE consumables c SET location_id = d.location_id FROM devices d WHERE d.id = c.device_id`);
  await db.execute(sql`UPDATE device_events SET processed = true`);

  const perLocation = Math.max(1, Math.round(NOTIFICATIONS / LOCATIONS));
  const shapes = [
    { notificationType: { code: 'STATUS_CHANGE' }, statuses: [] },
    { notificationType: { code: 'STATUS_CHANGE' }, statuses: ['ERROR'] },
    { notificationType: { code: 'STATUS_CHANGE' }, statuses: ['NOT_AVAILABLE'] },
    { notificationType: { code: 'STATUS_CHANGE' }, statuses: ['WARNING'] },
    { notificationType: { code: 'IP_CHANGE' } },
    { notificationType: { code: 'PART_REPLACEMENT' } },
    { notificationType: { code: 'MIN_CONSUMABLE_LEVEL' }, threshold: 0 },
  ];
  const made = performance.now();
  for (const [l, locationId] of locationIds.entries()) {
    const user = await createUser(t.app, admin, { login: `notify${l}`, role: 'OPERATOR', locationIds: [locationId] });
    for (let k = 0; k < perLocation; k++) {
      const res = await t.app.inject({
        method: 'POST', url: '/api/notifications', headers: bearer(admin),
        payload: {
          name: `N${l}-${k}`, active: true, subject: 'Printer {device.serialNumber}: {device.status}',
          body: '<p>{device.modelCode} {device.serialNumber} at {device.location} ({device.ip}) is {device.status} since {device.eventDate}: {device.interfaceLink}</p>',
          locations: [{ id: locationId }], subscribers: [{ id: user }], schedule: null, ...shapes[k % shapes.length],
        },
      });
      if (res.statusCode !== 200) throw new Error(res.body);
    }
  }
  console.log(`set-up: ${LOCATIONS * perLocation} notifications made through the API in ${((performance.now() - made) / 1000).toFixed(1)} s`);

  // Without notifications: the burst's ingest alone (then back to WARNING, its events drained).
  await db.execute(sql`UPDATE notifications SET active = false`);
  const baseline = await ingest(round(2, rangeId, false));
  await ingest(round(3, rangeId, true));
  await db.execute(sql`UPDATE device_events SET processed = true`);
  await db.execute(sql`UPDATE notifications SET active = true`);

  // With them: the worker dispatches and sends while the burst comes in.
  t.ctx.notifier.worker.start(250);
  const start = performance.now();
  const withNotifications = await ingest(round(4, rangeId, false));
  t.ctx.notifier.worker.kick();
  let counts = await outboxCounts(db);
  // Each printer's event matches its location's notifications on any status change.
  const expected = PRINTERS * Array.from({ length: perLocation }, (_, k) => k % shapes.length).filter((i) => i === 0).length;
  while (performance.now() - start < 300_000) {
    counts = await outboxCounts(db);
    const events = Number(((await db.execute(sql`SELECT count(*) AS n FROM device_events WHERE NOT processed`)).rows[0] as { n: unknown }).n);
    if (events === 0 && counts.pending === 0 && box.received.length >= counts.sent) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const allDone = (performance.now() - start) / 1000;
  await t.ctx.notifier.worker.stop();

  const slower = (withNotifications / baseline - 1) * 100;
  console.log(`ingest of the burst: ${(baseline / 1000).toFixed(2)} s without notifications, ${(withNotifications / 1000).toFixed(2)} s with them (${slower >= 0 ? '+' : ''}${slower.toFixed(1)}%; target under +20%)`);
  console.log(`e-mails: ${box.received.length} received by the SMTP server (expected ${expected}), ${counts.failed} given up, all handed over ${allDone.toFixed(1)} s after the burst began (target ${TARGET_S} s)`);
  const met = box.received.length === expected && allDone <= TARGET_S && slower < 20;
  console.log(met ? 'target: met' : 'target: NOT met');
} finally {
  await box.close();
  await t.close();
}
