import { sql } from 'drizzle-orm';
import type { BuiltApp } from '../app.ts';
import type { Db } from '../db/client.ts';
import { agentReading, batch, createAgent, post } from '../modules/ingest/ingest.fixtures.ts';
import { addLocation } from './scope-fixture.ts';
import { sqlRows } from './sql-rows.ts';
import { ADMIN_PASSWORD, bearer, createUser, signIn } from './test-app.ts';

/**
 * A small data set such as an operator keeps, made through the API: a location with an agent and
 * its range, three printers with three days of readings and their supplies, two users, changed
 * settings and a notification. The backup round trip and the upgrade fixture use it.
 */
export async function seedOperatorData(app: BuiltApp['app'], db: Db): Promise<void> {
  const admin = await signIn(app);
  const site = await addLocation(db, 'BK_SITE');
  const agent = await createAgent(app, admin, { name: 'Site agent', locationId: site, range: { from: '127.0.40.1', to: '127.0.40.254' } });
  const now = Date.now();
  for (const [i, serial] of ['BK1', 'BK2', 'BK3'].entries()) {
    const readings = [2, 1, 0].map((d) =>
      agentReading(`127.0.40.${i + 1}`, { serial, total: 1000 * (i + 1) + (2 - d) * 50, black: 90 - d * 10, ...(i === 1 ? { cyan: 40 } : {}) }, { readAt: new Date(now - d * 86_400_000), rangeId: agent.rangeId }),
    );
    const res = await post(app, agent.token, batch(readings));
    if (res.statusCode !== 200) throw new Error(`readings: ${res.statusCode} ${res.body}`);
  }
  const siteAdmin = await createUser(app, admin, { login: 'bk_admin', role: 'ADMIN', locationIds: [site] });
  await createUser(app, admin, { login: 'bk_operator', role: 'OPERATOR', locationIds: [site] });
  const settings = await app.inject({
    method: 'PUT', url: '/api/settings', headers: bearer(admin),
    payload: { currentPassword: ADMIN_PASSWORD, changes: [{ code: 'SMTP_HOST', stringValue: 'mail.example.com' }, { code: 'SMTP_FROM', stringValue: 'pagewatch@example.com' }, { code: 'LOG_STORAGE_DAYS', numericValue: 45 }] },
  });
  if (settings.statusCode !== 200) throw new Error(`settings: ${settings.statusCode} ${settings.body}`);
  const notification = await app.inject({
    method: 'POST', url: '/api/notifications', headers: bearer(admin),
    payload: {
      name: 'Errors at the site', active: true, description: 'Any printer in error', subject: 'Status of {device.serialNumber}',
      body: '<p>{device.modelCode} is {device.status}</p>', notificationType: { code: 'STATUS_CHANGE' },
      locations: [{ id: site }], subscribers: [{ id: siteAdmin }], schedule: null, statuses: ['ERROR'],
    },
  });
  if (notification.statusCode !== 200) throw new Error(`notification: ${notification.statusCode} ${notification.body}`);
}

/** The tables that hold what an operator would miss: devices, readings, supplies, users, roles, locations, settings, notifications. */
export const OPERATOR_TABLES = [
  'devices', 'consumables', 'ingested_readings', 'dm_device_days', 'device_ip_history', 'agents', 'network_ranges',
  'users', 'user_locations', 'user_roles', 'roles', 'role_grants', 'locations', 'settings',
  'notifications', 'notification_locations', 'notification_subscribers',
] as const;

/** Each table's row count and a digest of its rows, to compare two databases of one kind row for row. */
export async function fingerprint(db: Db, tables: readonly string[] = OPERATOR_TABLES): Promise<Record<string, { rows: number; digest: string }>> {
  const out: Record<string, { rows: number; digest: string }> = {};
  for (const table of tables) {
    const [r] = await sqlRows<{ rows: number; digest: string }>(
      db,
      sql`SELECT count(*)::int AS rows, md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS digest FROM ${sql.identifier(table)} t`,
    );
    out[table] = { rows: Number(r!.rows), digest: r!.digest };
  }
  return out;
}
