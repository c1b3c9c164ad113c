import { describe, expect, it } from 'vitest';
import { bearer, createTestApp, createUser, signIn, testApp, userAsInput } from '../test/test-app.ts';
import { buildApp } from '../app.ts';
import { openDatabase } from '../db/client.ts';
import { sql } from 'drizzle-orm';
import { hashToken } from './access.ts';
import { openSocket, webSocketUrl, type TestSocket } from '../test/websocket.ts';

/**
 * docs/security.md invariant 5: logout, password change, deactivation, role or location change
 * end a session's REST calls and its WebSocket at once, on every instance (issue 14, item 5).
 * Sessions are cached for a minute here, so only an eviction can end them in time.
 */
type App = Awaited<ReturnType<typeof createTestApp>>;
const t = testApp({ sessionCacheMs: 60_000, webSocket: true });
const PASSWORD = 'Operat0r!';

/** A socket subscribed to device events, checked to receive one first. */
async function listening(app: App['app'] | undefined, base: string, token: string, hub = t.ctx.hub): Promise<TestSocket> {
  void app;
  const s = await openSocket(`${base}?access_token=${token}`);
  s.ws.send(JSON.stringify({ command: 'subscribe-device-events' }));
  await expect.poll(() => s.messages.length).toBe(1);
  hub.publish('devices', { type: 'DEVICE_EVENT', deviceId: 1, locationId: 1, event: 'STATUS_CHANGE' });
  await expect.poll(() => s.messages.length).toBe(2);
  return s;
}

const within = <T,>(p: Promise<T>, ms = 2000) => Promise.race([p, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), ms))]);
const me = (token: string, app = t.app) => app.inject({ url: '/api/users/me', headers: bearer(token) });

const putUser = async (id: number, over: Record<string, unknown>) => {
  const res = await t.app.inject({ method: 'PUT', url: `/api/users/${id}`, headers: bearer(t.admin), payload: await userAsInput(t.app, t.admin, id, over) });
  expect(res.statusCode, res.body).toBe(200);
};

describe('a session ends at once', () => {
  it('on logout: REST and the WebSocket of that token', async () => {
    const token = await signIn(t.app);
    const other = await signIn(t.app);
    const s = await listening(t.app, t.wsUrl, token);
    const kept = await listening(t.app, t.wsUrl, other);
    const before = s.messages.length;
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(token) })).statusCode).toBe(204);
    expect(await within(s.closed)).toBe(1008);
    t.ctx.hub.publish('devices', { type: 'DEVICE_EVENT', deviceId: 2, locationId: 1, event: 'STATUS_CHANGE' });
    await expect.poll(() => kept.messages.length).toBe(3);
    expect(s.messages).toHaveLength(before);
    expect((await me(token)).statusCode).toBe(401);
    expect((await me(other)).statusCode).toBe(200);
    kept.ws.close();
  });

  it('when an admin sets a new password: every old session of the user, REST and WebSocket', async () => {
    const id = await createUser(t.app, t.admin, { login: 'pw-victim', password: PASSWORD, role: 'OPERATOR', locationIds: [1] });
    const token = await signIn(t.app, 'pw-victim', PASSWORD);
    expect((await me(token)).statusCode).toBe(200);
    const s = await listening(t.app, t.wsUrl, token);
    await putUser(id, { passwordHash: 'NewPassw0rd!' });
    expect(await within(s.closed)).not.toBe('timeout');
    expect((await me(token)).statusCode).toBe(401);
    await signIn(t.app, 'pw-victim', 'NewPassw0rd!');
  });

  it('on deactivation: REST and WebSocket', async () => {
    const id = await createUser(t.app, t.admin, { login: 'deact', password: PASSWORD, role: 'OPERATOR', locationIds: [1] });
    const token = await signIn(t.app, 'deact', PASSWORD);
    const s = await listening(t.app, t.wsUrl, token);
    await putUser(id, { activeFlag: false });
    expect(await within(s.closed)).not.toBe('timeout');
    expect((await me(token)).statusCode).toBe(401);
    // Reactivated, the old session stays ended.
    await putUser(id, { activeFlag: true });
    expect((await me(token)).statusCode).toBe(401);
  });

  it('on a role or location change the WebSocket closes, and REST follows the new rights', async () => {
    const id = await createUser(t.app, t.admin, { login: 'rolechg', password: PASSWORD, role: 'OPERATOR', locationIds: [1] });
    const token = await signIn(t.app, 'rolechg', PASSWORD);
    const s = await listening(t.app, t.wsUrl, token);
    const roles = (await t.app.inject({ url: '/api/managed-roles-v/', headers: bearer(t.admin) })).json().pageRows as { id: number; code: string }[];
    await putUser(id, { grants: [{ id: roles.find((r) => r.code === 'DEVELOPER')!.id }] });
    expect(await within(s.closed)).not.toBe('timeout');
    expect((await t.app.inject({ url: '/api/users', headers: bearer(token) })).statusCode).toBe(200);
  });

  it('when it simply expires: its WebSocket closes as the session ends, not only at the next REST call', async () => {
    const token = await signIn(t.app);
    await t.ctx.db.execute(sql`UPDATE sessions SET expires_at = now() + interval '1 second' WHERE token_hash = ${hashToken(token)}`);
    const s = await listening(t.app, t.wsUrl, token);
    expect(await within(s.closed, 4000)).toBe(1008);
    expect((await me(token)).statusCode).toBe(401);
  });

  it('takes access_token from the query string on the WebSocket path only', async () => {
    const token = await signIn(t.app);
    expect((await t.app.inject({ url: `/api/users/me?access_token=${token}` })).statusCode).toBe(401);
    expect((await t.app.inject({ url: `/api/users/me`, headers: bearer(token) })).statusCode).toBe(200);
  });
});

describe.skipIf(process.env.PAGEWATCH_TEST_DB !== 'postgres')('on every instance (PostgreSQL only: PGlite serves one process)', () => {
  it('logout and a password change on one instance end the session on another at once', async () => {
    const otherDb = await openDatabase({ url: t.database.url, dataDir: '' });
    const second = await buildApp(t.ctx.config, otherDb, { logger: false });
    try {
      const secondWs = await webSocketUrl(second.app);
      const token = await signIn(t.app);
      expect((await me(token, second.app)).statusCode).toBe(200); // now cached there for a minute
      const s = await listening(second.app, secondWs, token, second.ctx.hub);
      expect((await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(token) })).statusCode).toBe(204);
      expect(await within(s.closed)).not.toBe('timeout');
      await expect.poll(async () => (await me(token, second.app)).statusCode, { timeout: 2000 }).toBe(401);

      const id = await createUser(t.app, t.admin, { login: 'pw-remote', password: PASSWORD, role: 'OPERATOR', locationIds: [1] });
      const victim = await signIn(t.app, 'pw-remote', PASSWORD);
      expect((await me(victim, second.app)).statusCode).toBe(200);
      const vs = await listening(second.app, secondWs, victim, second.ctx.hub);
      await putUser(id, { passwordHash: 'NewPassw0rd!' });
      expect(await within(vs.closed)).not.toBe('timeout');
      await expect.poll(async () => (await me(victim, second.app)).statusCode, { timeout: 2000 }).toBe(401);
    } finally {
      await second.app.close();
      await otherDb.close();
    }
  });
});
