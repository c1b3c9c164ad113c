import { sql } from 'drizzle-orm';
import type { Grant, RoleCode } from '@pagewatch/contracts/grants';
import { bearer, signIn, type createTestApp } from './test-app.ts';

/**
 * The world of the authorisation matrix and the helpers its fixtures (authorization-routes.ts)
 * make objects with, inside or outside a caller's locations.
 */

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
export type Call = { url: string; payload?: unknown; token?: string };
export type Caller = { role: RoleCode; login: string; password: string; token: string };
export type World = {
  app: Awaited<ReturnType<typeof createTestApp>>['app'];
  ctx: Awaited<ReturnType<typeof createTestApp>>['ctx'];
  /** The seeded admin at DEFAULT: sees everything, builds the fixtures. */
  root: string;
  loc: { DEFAULT: number; IN: number; IN_CHILD: number; OUT: number };
  roleIds: Record<string, number>;
  /** Cloud mode: IN and OUT are two customers, and a login is the user's e-mail. */
  cloud: boolean;
  /** A fresh OPERATOR user at the location, made by root; returns its id. */
  userAt: (locationId: number) => Promise<number>;
  /** A call as root that must succeed; returns the JSON body. */
  asRoot: (method: Method, url: string, payload?: unknown) => Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
};

/** `needs`: the grant a route of access 'user' checks inside its service (e.g. PAGE_LOCATION.EDIT). */
type Checked = { needs?: Grant };
export type Fixture =
  | ({ kind: 'item'; request: (w: World, locationId: number) => Promise<Call>; ok?: number } & Checked)
  | ({ kind: 'list'; seed: (w: World) => Promise<{ inside: number[]; outside: number[] }>; request: (w: World) => Call; rows?: (body: any) => number[] } & Checked) // eslint-disable-line @typescript-eslint/no-explicit-any
  | ({ kind: 'global'; request: (w: World) => Call | Promise<Call>; ok?: number } & Checked)
  | { kind: 'instance'; request: (w: World) => Call | Promise<Call>; ok?: number }
  | ({ kind: 'self'; request: (w: World, caller: Caller) => Promise<Call>; ok?: number } & Checked)
  | { kind: 'public' }
  | { kind: 'agent' }
  | { kind: 'skip'; reason: string };

let n = 0;
export const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${++n}`;

export const userPayload = (w: World, locationId: number, login = unique('mx')) => ({
  login,
  // In cloud mode a stored login is already the e-mail.
  email: login.includes('@') ? login : `${login}@example.com`,
  passwordHash: 'Passw0rd!',
  lastName: 'Matrix',
  activeFlag: true,
  locations: [{ id: locationId }],
  grants: [{ id: w.roleIds.OPERATOR }],
});

/** A user of the role at the location, made by root, signed in (or, `viaApiToken`, with an API token of theirs). */
export async function callerAt(w: World, role: RoleCode, locationId: number, login: string, viaApiToken = false): Promise<Caller> {
  const password = 'Matrix-pass1';
  await w.asRoot('POST', '/api/users', { ...userPayload(w, locationId, login), passwordHash: password, grants: [{ id: w.roleIds[role] }] });
  // In cloud mode the login is the e-mail, and the sign-in is by it.
  const signInAs = w.cloud ? `${login}@example.com` : login;
  const session = await signIn(w.app, signInAs, password);
  return { role, login: signInAs, password, token: viaApiToken ? (await mintApiToken(w, session)).token : session };
}

/** A log record at a location (null: unlocated, seen at DEFAULT only). */
export const logAt = (w: World, locationId: number | null) =>
  w.ctx.eventLog.write({ group: 'SYSTEM', level: 'I', message: 'matrix-log', locationId });

/** A location made by root under `parentId` (LOCATION is dictionary 1). */
export const locationAt = async (w: World, parentId: number): Promise<number> =>
  (await w.asRoot('POST', '/api/dictionary-items', { dictionaryId: 1, code: unique('ML'), name: 'Matrix location', parentId })).id;

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(16)]);
export const locationWithPlanAt = async (w: World, parentId: number): Promise<number> => {
  const id = await locationAt(w, parentId);
  const boundary = 'matrixboundary';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p.png"\r\nContent-Type: image/png\r\n\r\n`),
    PNG,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await w.app.inject({ method: 'POST', url: `/api/locations/${id}/plan`, payload, headers: { ...bearer(w.root), 'content-type': `multipart/form-data; boundary=${boundary}` } });
  if (res.statusCode !== 200) throw new Error(`plan upload failed: ${res.statusCode} ${res.body}`);
  return id;
};

/** A string attribute of the LOCATION dictionary, made once. */
let locationAttribute: Promise<number> | null = null;
export const locationAttributeId = (w: World) =>
  (locationAttribute ??= w.asRoot('POST', '/api/dictionaries/1/attributes', { code: 'MX_NOTE', name: 'Note', valueType: 'S' }).then((a) => a.id as number));

/** A fresh agent at the location, made by root. */
export const agentAt = async (w: World, locationId: number): Promise<number> =>
  (await w.asRoot('POST', '/api/agents', { name: unique('agent'), location: { id: locationId } })).id;

export const rangePayload = (locationId: number) => ({
  name: unique('range'),
  type: 'RANGE',
  from: '127.0.0.10',
  to: '127.0.0.20',
  port: 161,
  snmpVersion: '2c',
  community: 'public',
  location: { id: locationId },
});
export const rangeAt = async (w: World, locationId: number): Promise<number> => (await w.asRoot('POST', '/api/network-ranges', rangePayload(locationId))).id;

/** A print queue read by a fresh agent at the location (a queue's location is its agent's). */
export const queuePayload = async (w: World, locationId: number) => ({ type: 'IPP', agent: { id: await agentAt(w, locationId) }, host: '127.0.0.1', port: 631, url: '/printers/matrix', password: 'matrix' });
export const queueAt = async (w: World, locationId: number): Promise<number> => (await w.asRoot('POST', '/api/queues', await queuePayload(w, locationId))).id;
/** A job of a fresh queue at the location; returns the job's id. */
export const queueJobAt = async (w: World, locationId: number): Promise<number> => {
  const queueId = await queueAt(w, locationId);
  const res = await w.ctx.db.execute(sql`INSERT INTO queue_jobs (queue_id, external_job_id, completed_at, username, printed_page_count) VALUES (${queueId}, 1, now(), 'matrix', 1) RETURNING id`);
  return Number((res.rows[0] as { id: number }).id);
};

/** A device at the location with a supply, a day, a supply day, an address, a user day and a walk (straight to the database). */
export const deviceAt = async (w: World, locationId: number): Promise<number> => {
  const ip = `127.0.${Math.floor(Math.random() * 200)}.${1 + Math.floor(Math.random() * 250)}`;
  const serial = unique('MXD');
  const res = await w.ctx.db.execute(sql`INSERT INTO devices (location_id, ip, serial_number, model_code) VALUES (${locationId}, ${ip}, ${serial}, 'Matrix 1') RETURNING id`);
  const id = Number((res.rows[0] as { id: number }).id);
  await w.ctx.db.execute(sql`INSERT INTO consumables (device_id, supply_index, part_code, part_name, colorant, level, refreshed_at) VALUES (${id}, 1, 'toner', 'Black', 'black', 50, now())`);
  await w.ctx.db.execute(sql`INSERT INTO dm_device_days (fact_date, device_id, location_id, total_count, total_start, readings) VALUES (current_date, ${id}, ${locationId}, 10, 5, 1)`);
  await w.ctx.db.execute(sql`INSERT INTO dm_device_part_days (fact_date, device_id, supply_index, part_code, level) VALUES (current_date, ${id}, 1, 'toner', 50)`);
  await w.ctx.db.execute(sql`INSERT INTO device_ip_history (device_id, ip, changed_at) VALUES (${id}, ${ip}, now())`);
  await w.ctx.db.execute(sql`INSERT INTO dm_device_user_days (fact_date, device_id, location_id, username, printed_page_count) VALUES (current_date, ${id}, ${locationId}, 'matrix', 1)`);
  await w.ctx.db.execute(sql`INSERT INTO device_walks (device_id, walked_at, row_count, rows) VALUES (${id}, now(), 1, ${JSON.stringify([['1.3.6.1.2.1.1.1.0', 'octets', 'x']])}::jsonb)`);
  serialIds.set(serial, id);
  return id;
};

/** An open DEVICE_ERROR alert of a new device at the location (as ingest opens one). */
export const alertAt = async (w: World, locationId: number): Promise<number> => {
  const device = await deviceAt(w, locationId);
  const res = await w.ctx.db.execute(sql`INSERT INTO alerts (kind, device_id, started_at, start_mailed) VALUES ('DEVICE_ERROR', ${device}, now(), true) RETURNING id`);
  return Number((res.rows[0] as { id: number }).id);
};

export const notificationPayload = (locationId: number, userId: number) => ({
  name: unique('Matrix '), active: true, subject: 'S', body: '<p>B</p>', notificationType: { code: 'STATUS_CHANGE' },
  locations: [{ id: locationId }], subscribers: [{ id: userId }], schedule: null,
});
export const notificationAt = async (w: World, locationId: number): Promise<number> =>
  (await w.asRoot('POST', '/api/notifications', notificationPayload(locationId, await w.userAt(locationId)))).id;
/** Report rows name their device by serial: the ids of the matrix's devices they list. */
export const reportDevices = (rows: { serialNumber: string }[]) => rows.map((r) => serialIds.get(r.serialNumber)).filter((id): id is number => id !== undefined);
const serialIds = new Map<string, number>();
export const replacedAt = async (w: World, locationId: number): Promise<number> => {
  const id = await deviceAt(w, locationId);
  await w.ctx.db.execute(sql`INSERT INTO device_events (event_at, type, device_id, location_id, supply_index, part_code, processed) VALUES (now(), 'SUPPLY_REPLACED', ${id}, ${locationId}, 1, 'toner', true)`);
  return id;
};
export const deviceIds = (b: { pageRows: { deviceId: number }[] }) => b.pageRows.map((r) => r.deviceId);
export const devicesSeed = async (w: World) => ({ inside: [await deviceAt(w, w.loc.IN_CHILD), await deviceAt(w, w.loc.IN)], outside: [await deviceAt(w, w.loc.OUT)] });
/** A list whose rows are the locations (or one per location): the world's own locations inside and outside. */
export const locationsSeed = async (w: World) => ({ inside: [w.loc.IN, w.loc.IN_CHILD], outside: [w.loc.OUT, w.loc.DEFAULT] });

export const licensePayload = (locationId: number) => ({ location: { id: locationId }, dateFrom: '2026-01-01', dateTo: '2099-12-31', deviceCount: 10 });
/** A license (in force) at a fresh location under `parentId`, made by root; returns the license's id. */
export const licenseAt = async (w: World, parentId: number): Promise<number> =>
  (await w.asRoot('POST', '/api/licenses', licensePayload(await locationAt(w, parentId)))).id;

/** An API token of the user whose session is `session`. */
export async function mintApiToken(w: World, session: string): Promise<{ id: number; token: string }> {
  const res = await w.app.inject({ method: 'POST', url: '/api/users/me/tokens', headers: bearer(session), payload: { name: 'matrix', expiresInDays: 1 } });
  if (res.statusCode !== 200) throw new Error(`API token failed: ${res.statusCode} ${res.body}`);
  return res.json();
}
