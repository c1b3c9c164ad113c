import { afterAll, beforeAll, expect } from 'vitest';
import { sql } from 'drizzle-orm';
import { bearer, createTestApp, createUser, signIn } from './test-app.ts';
import { addLocation } from './scope-fixture.ts';
import { agentReading, batch, createAgent, post, type Printer } from '../modules/ingest/ingest.fixtures.ts';

/**
 * The devices API tests' world (modules/devices: devices.routes.test.ts, devices.walks.test.ts):
 * two locations with an agent each, four printers with three days of history, two devices no
 * profile knows (with their walks), user days, and an administrator and an operator of location
 * A beside the administrator of everything. `useDevicesWorld()` builds it for the file that
 * calls it (each test file has its own modules, so its own world).
 */
type App = Awaited<ReturnType<typeof createTestApp>>;
export type DevicesWorld = {
  t: App; admin: string; adminA: string; operatorA: string; locA: number; locB: number;
  /** Device ids by serial. */
  ids: Record<string, number>;
  agentA: { token: string; rangeId: number | null };
};
export const world = { ids: {} } as DevicesWorld;

export const DAY = 86_400_000;
export const get = (url: string, token = world.admin) => world.t.app.inject({ method: 'GET', url, headers: bearer(token) });
export const send = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload: unknown, token = world.admin) =>
  world.t.app.inject({ method, url, headers: bearer(token), payload: payload as object });
export const page = async (url: string, token = world.admin) => {
  const res = await get(url, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { pageRows: Record<string, unknown>[]; totalRows: number };
};
export const q = (filter: unknown) => `filter-json=${encodeURIComponent(JSON.stringify(filter))}`;

/** A walk of a device no profile knows, as the agent sends it. */
export const WALK: [string, string, string][] = [
  ['1.3.6.1.2.1.1.1.0', 'octets', 'Mystery "Printer" 9000'],
  ['1.3.6.1.2.1.1.2.0', 'oid', '1.3.6.1.4.1.99999.1'],
  ['1.3.6.1.2.1.1.3.0', 'timeticks', '123456'],
  ['1.3.6.1.2.1.2.2.1.6.1', 'octets', '0x001122aabbcc'],
  ['1.3.6.1.2.1.43.10.2.1.4.1.1', 'counter32', '4242'],
];

export function multipart(field: string, filename: string, type: string, data: Buffer | string) {
  const boundary = 'pwboundary';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`),
    Buffer.from(data),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
export const upload = (url: string, file: ReturnType<typeof multipart>, token = world.admin) =>
  world.t.app.inject({ method: 'POST', url, payload: file.payload, headers: { ...bearer(token), ...file.headers } });

async function build(w: DevicesWorld) {
  const t = (w.t = await createTestApp());
  const admin = (w.admin = await signIn(t.app));
  const locA = (w.locA = await addLocation(t.ctx.db, 'DEV_A'));
  const locB = (w.locB = await addLocation(t.ctx.db, 'DEV_B'));
  const a = await createAgent(t.app, admin, { name: 'Agent A', locationId: locA, range: { from: '127.0.20.1', to: '127.0.20.254' } });
  w.agentA = a as DevicesWorld['agentA'];
  const ids = w.ids;
  const b = await createAgent(t.app, admin, { name: 'Agent B', locationId: locB, range: { from: '127.0.21.1', to: '127.0.21.254' } });
  const now = Date.now();
  const at = (daysAgo: number) => new Date(now - daysAgo * DAY);
  const printers: [typeof a, string, Printer][] = [
    [a, '127.0.20.1', { serial: 'SA1', total: 1000, black: 80, cyan: 40 }],
    [a, '127.0.20.2', { serial: 'SA2', model: 'Color 500', total: 5000, black: null }],
    [a, '127.0.20.3', { serial: 'SA3', total: 300, black: 5, blackState: 'UNKNOWN' }],
    [b, '127.0.21.1', { serial: 'SB1', total: 700, black: 55 }],
  ];
  // Three days of history: the total grows by 100 a day.
  for (const [agent, ip, p] of printers) {
    const readings = [2, 1, 0].map((d) => agentReading(ip, { ...p, total: p.total + (2 - d) * 100 }, { readAt: at(d), rangeId: agent.rangeId }));
    const res = await post(t.app, agent.token, batch(readings));
    expect(res.statusCode, res.body).toBe(200);
  }
  // SA1 moved address once.
  await post(t.app, a.token, batch([agentReading('127.0.20.9', { serial: 'SA1', total: 1250, black: 79, cyan: 40 }, { rangeId: a.rangeId })]));
  // A device no profile knows, with its walk.
  const unknown = { ...agentReading('127.0.20.50', { serial: 'UNK1', total: 10 }, { rangeId: a.rangeId }), walk: WALK };
  await post(t.app, a.token, batch([unknown]));
  const unknownB = { ...agentReading('127.0.21.50', { serial: 'UNKB', total: 10 }, { rangeId: b.rangeId }), walk: WALK };
  await post(t.app, b.token, batch([unknownB]));

  for (const r of (await t.ctx.db.execute(sql`SELECT id, serial_number FROM devices`)).rows as { id: number; serial_number: string }[]) ids[r.serial_number] = r.id;
  await t.ctx.db.execute(sql`INSERT INTO dm_device_user_days (fact_date, device_id, location_id, username, printed_page_count)
    VALUES (current_date, ${ids.SA1}, ${locA}, 'alice', 12), (current_date - 1, ${ids.SA1}, ${locA}, 'bob', 3), (current_date, ${ids.SB1}, ${locB}, 'carol', 9)`);

  await createUser(t.app, admin, { login: 'devadmina', password: 'Passw0rd!', role: 'ADMIN', locationIds: [locA] });
  await createUser(t.app, admin, { login: 'devopa', password: 'Passw0rd!', role: 'OPERATOR', locationIds: [locA] });
  w.adminA = await signIn(t.app, 'devadmina', 'Passw0rd!');
  w.operatorA = await signIn(t.app, 'devopa', 'Passw0rd!');
}

/** Builds the world before the file's tests and closes its app after them. */
export function useDevicesWorld() {
  beforeAll(() => build(world));
  afterAll(() => world.t.close());
}
