import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { loadConfig, type Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { buildApp, type BuiltApp } from '../app.ts';
import { webSocketUrl } from './websocket.ts';
import { createPostgresDatabase, templateCopy } from './template-database.ts';

export const ADMIN_PASSWORD = 'test-Admin-pass1';
/** The password of the users createUser makes when a test gives none. */
export const USER_PASSWORD = 'Passw0rd!';

/** An empty database of its own on the PostgreSQL of DATABASE_URL, and how to drop it. */
export const scratchPostgresDatabase = () => createPostgresDatabase(process.env.DATABASE_URL!);

/**
 * A server on a database of its own: in-memory PGlite, or (project server-postgres) a database
 * created on the PostgreSQL of DATABASE_URL and dropped afterwards. Either is a copy of the
 * migrated template (template-database.ts): the server's start applies no migration on it and
 * seeds it as a new installation.
 */
export type TestAppOptions = { sessionCacheMs?: number; publicUrl?: string; webDist?: string; logStream?: { write(line: string): void }; licenseIssuerKey?: string; cloud?: boolean; downloadsDir?: string; trustProxy?: Config['trustProxy']; exports?: { running: number; waiting: number }; secretKey?: Buffer; logLevel?: string; telegramApiUrl?: string; deviceWebOrigin?: Config['deviceWebOrigin']; language?: Config['language'] };
export type TestApp = BuiltApp & { database: Database; close: () => Promise<void> };

export async function createTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const { database, drop } = await templateCopy();
  return createTestAppOn(database, drop, opts);
}

/** The same server on a database the test opened itself, and how to drop that when it closes. */
export async function createTestAppOn(database: Database, drop: () => Promise<void>, opts: TestAppOptions = {}): Promise<TestApp> {
  // Sessions are resolved afresh on every call unless a test asks for the cache: many tests
  // change users and locations straight in the database.
  const config = { ...loadConfig({}), adminPassword: ADMIN_PASSWORD, webDist: opts.webDist ?? '/nonexistent', sessionCacheMs: opts.sessionCacheMs ?? 0, publicUrl: opts.publicUrl ?? null, licenseIssuerKey: opts.licenseIssuerKey ?? '/nonexistent/license-issuer.pem', cloud: opts.cloud ?? false, downloadsDir: opts.downloadsDir ?? null, trustProxy: opts.trustProxy ?? false, secretKey: opts.secretKey ?? randomBytes(32), ...(opts.logLevel ? { logLevel: opts.logLevel } : {}), ...(opts.telegramApiUrl ? { telegramApiUrl: opts.telegramApiUrl } : {}), ...(opts.exports ? { exports: opts.exports } : {}), ...(opts.deviceWebOrigin ? { deviceWebOrigin: opts.deviceWebOrigin } : {}), ...(opts.language ? { language: opts.language } : {}) };
  const built = await buildApp(config, database, { logger: false, logStream: opts.logStream });
  return {
    ...built,
    database,
    close: async () => {
      await built.app.close();
      // A test may have closed the database already (readiness).
      await database.close().catch(() => undefined);
      await drop();
    },
  };
}

export const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;

export async function signIn(app: BuiltApp['app'], login = 'admin', password = ADMIN_PASSWORD): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/auth/', headers: { authorization: basic(login, password) } });
  if (res.statusCode !== 200) throw new Error(`sign-in as ${login} failed: ${res.statusCode} ${res.body}`);
  return res.json().token;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Creates a user through the API and returns its id. */
export async function createUser(
  app: BuiltApp['app'],
  token: string,
  opts: { login: string; password?: string; role: 'ADMIN' | 'DEVELOPER' | 'OPERATOR'; locationIds: number[] },
): Promise<number> {
  const roles = (await app.inject({ url: '/api/managed-roles-v/', headers: bearer(token) })).json().pageRows as { id: number; code: string }[];
  const res = await app.inject({
    method: 'POST',
    url: '/api/users',
    headers: bearer(token),
    payload: {
      login: opts.login,
      email: `${opts.login}@example.com`,
      passwordHash: opts.password ?? USER_PASSWORD,
      lastName: opts.login,
      activeFlag: true,
      locations: opts.locationIds.map((id) => ({ id })),
      grants: [{ id: roles.find((r) => r.code === opts.role)!.id }],
    },
  });
  if (res.statusCode !== 200) throw new Error(`create user failed: ${res.statusCode} ${res.body}`);
  return res.json().id;
}

/** A user as the user form sends it back (as `token` sees it), with changes. */
export async function userAsInput(app: BuiltApp['app'], token: string, id: number, over: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const u = (await app.inject({ url: `/api/users/${id}`, headers: bearer(token) })).json();
  return {
    login: u.login,
    email: u.email,
    activeFlag: u.activeFlag,
    systemNotificationRecipient: u.systemNotificationRecipient,
    lastName: u.lastName,
    firstName: u.firstName,
    middleName: u.middleName,
    locations: u.locations.map((l: { id: number }) => ({ id: l.id })),
    grants: u.grants.map((g: { id: number }) => ({ id: g.id })),
    ...over,
  };
}

/** A test file's app with the built-in administrator's token and, when asked for, the address of its WebSocket. */
export type SignedInTestApp = TestApp & { readonly admin: string; readonly wsUrl: string };

/**
 * The app most test files share: created (and signed in as the built-in administrator, unless
 * `signIn: false`) before the file's tests and before the hooks it registers after this call,
 * closed after them. Its fields read the live app, so a test writes `t.app`, `t.ctx.db` and
 * `t.admin` as if it had built it in its own beforeAll. With `webSocket`, it listens on a
 * loopback port and `t.wsUrl` is its WebSocket.
 */
export function testApp({ signIn: asAdmin = true, webSocket = false, ...appOpts }: TestAppOptions & { signIn?: boolean; webSocket?: boolean } = {}): SignedInTestApp {
  let built: TestApp | undefined;
  let admin: string | undefined;
  let wsUrl: string | undefined;
  beforeAll(async () => {
    built = await createTestApp(appOpts);
    if (asAdmin) admin = await signIn(built.app);
    if (webSocket) wsUrl = await webSocketUrl(built.app);
  });
  afterAll(() => built?.close());
  const live = () => built ?? fail('the test app exists only inside hooks and tests');
  return {
    get app() { return live().app; },
    get ctx() { return live().ctx; },
    get database() { return live().database; },
    get generatedAdminPassword() { return live().generatedAdminPassword; },
    close: () => live().close(),
    get admin() { return admin ?? fail('this test app was not signed in (signIn: false)'); },
    get wsUrl() { return wsUrl ?? fail('this test app does not listen (webSocket: true)'); },
  };
}

const fail = (message: string): never => { throw new Error(message); };

/** A user made through the API by the administrator, signed in: their token. */
export async function signedInAs(t: SignedInTestApp, user: { login: string; role: 'ADMIN' | 'DEVELOPER' | 'OPERATOR'; locationIds: number[] }): Promise<string> {
  await createUser(t.app, t.admin, user);
  return signIn(t.app, user.login, USER_PASSWORD);
}

/** The server log as a test reads it: give `stream` to the app as its logStream, read `lines` (one JSON record each). */
export function capturedLog() {
  const lines: string[] = [];
  return {
    lines,
    stream: { write: (line: string) => void lines.push(line) },
    /** The records logged with this message. */
    entries: (msg: string) => lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === msg),
  };
}
