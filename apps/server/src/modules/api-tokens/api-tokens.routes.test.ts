import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { bearer, capturedLog, createUser, signIn, testApp, userAsInput } from '../../test/test-app.ts';
import { addLocation } from '../../test/scope-fixture.ts';

// The session cache is on (as in production): changes of the user and revocations must reach a
// token's calls at once all the same.
const log = capturedLog();
const t = testApp({ sessionCacheMs: 60_000, logStream: log.stream });
const loc = { A: 0, B: 0 };
const agents = { A: 0, B: 0 };
let userId = 0;
let session = '';

beforeAll(async () => {
  loc.A = await addLocation(t.ctx.db, 'TOK_A');
  loc.B = await addLocation(t.ctx.db, 'TOK_B');
  for (const k of ['A', 'B'] as const) {
    const res = await t.app.inject({ method: 'POST', url: '/api/agents', headers: bearer(t.admin), payload: { name: `tok-agent-${k}`, location: { id: loc[k] } } });
    agents[k] = res.json().id;
  }
  userId = await createUser(t.app, t.admin, { login: 'tokuser', password: 'Tok-pass1', role: 'ADMIN', locationIds: [loc.A] });
  session = await signIn(t.app, 'tokuser', 'Tok-pass1');
});

const make = async (payload: Record<string, unknown> = {}, as = session) => {
  const res = await t.app.inject({ method: 'POST', url: '/api/users/me/tokens', headers: bearer(as), payload: { name: 'CI export', expiresInDays: 30, ...payload } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: number; token: string; prefix: string; readOnly: boolean; expiresAt: string };
};
const call = (token: string, url: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE' = 'GET', payload?: unknown) =>
  t.app.inject({ method, url, headers: bearer(token), payload: payload as never });

describe('making, listing and revoking', () => {
  it('shows a token once and stores only its SHA-256', async () => {
    const made = await make();
    expect(made.token).toMatch(/^pwt_[A-Za-z0-9_-]{43}$/);
    expect(made.prefix).toBe(made.token.slice(0, 12));
    expect(new Date(made.expiresAt).getTime() - Date.now()).toBeGreaterThan(29.9 * 86400_000);
    const list = await call(session, '/api/users/me/tokens');
    expect(list.statusCode).toBe(200);
    expect(list.json()).toContainEqual(expect.objectContaining({ id: made.id, name: 'CI export', prefix: made.prefix, readOnly: false, lastUsedAt: null }));
    expect(list.body).not.toContain(made.token);
    const rows = (await t.ctx.db.execute(sql`SELECT * FROM api_tokens WHERE id = ${made.id}`)).rows;
    expect(JSON.stringify(rows)).not.toContain(made.token);
    expect(rows[0].token_hash).toBe(createHash('sha256').update(made.token).digest('hex'));
  });

  it('refuses a call without a session (401) and bad input with the field, in both languages', async () => {
    expect((await t.app.inject({ url: '/api/users/me/tokens' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/users/me/tokens', payload: { name: 'x', expiresInDays: 1 } })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'DELETE', url: '/api/users/me/tokens/1' })).statusCode).toBe(401);
    const long = await t.app.inject({ method: 'POST', url: '/api/users/me/tokens', headers: bearer(session), payload: { name: 'x'.repeat(101), expiresInDays: 30 } });
    expect(long.statusCode).toBe(400);
    expect(long.json().details).toEqual([expect.objectContaining({ field: 'name' })]);
    const days = await t.app.inject({ method: 'POST', url: '/api/users/me/tokens', headers: { ...bearer(session), 'accept-language': 'ru' }, payload: { name: 'x', expiresInDays: 367 } });
    expect(days.statusCode).toBe(400);
    expect(days.json().details).toEqual([{ field: 'expiresInDays', message: 'от 1 до 366 дней' }]);
    const blank = await t.app.inject({ method: 'POST', url: '/api/users/me/tokens', headers: bearer(session), payload: { name: '  ', expiresInDays: 3 } });
    expect(blank.json().details).toEqual([expect.objectContaining({ field: 'name' })]);
  });

  it("lists only the user's own tokens, and revokes none of another's (404)", async () => {
    const rootToken = await make({ name: 'root token' }, t.admin);
    expect((await call(session, '/api/users/me/tokens')).json().map((x: { id: number }) => x.id)).not.toContain(rootToken.id);
    expect((await call(session, `/api/users/me/tokens/${rootToken.id}`, 'DELETE')).statusCode).toBe(404);
    expect((await call(rootToken.token, '/api/users/me')).statusCode).toBe(200);
  });

  it('a revoked token is refused at once, though its caller was cached', async () => {
    const made = await make();
    expect((await call(made.token, '/api/users/me')).statusCode).toBe(200);
    expect((await call(session, `/api/users/me/tokens/${made.id}`, 'DELETE')).statusCode).toBe(204);
    const res = await call(made.token, '/api/users/me');
    expect(res.statusCode).toBe(401);
    expect((await call(session, '/api/users/me/tokens')).json().map((x: { id: number }) => x.id)).not.toContain(made.id);
    expect((await call(session, `/api/users/me/tokens/${made.id}`, 'DELETE')).statusCode).toBe(404);
  });

  it('an expired token is 401 TOKEN_EXPIRED', async () => {
    const made = await make({ expiresInDays: 1 });
    await t.ctx.db.execute(sql`UPDATE api_tokens SET expires_at = now() - interval '1 second' WHERE id = ${made.id}`);
    const res = await call(made.token, '/api/users/me');
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('TOKEN_EXPIRED');
  });
});

describe('a token acts as its user, never more', () => {
  it("follows the user's locations and role at once", async () => {
    const { token } = await make();
    expect((await call(token, `/api/agents/${agents.A}`)).statusCode).toBe(200);
    expect([403, 404]).toContain((await call(token, `/api/agents/${agents.B}`)).statusCode);
    // Moved to B: A is out of reach, B in reach, on the next call.
    expect((await call(t.admin, `/api/users/${userId}`, 'PUT', await userAsInput(t.app, t.admin, userId, { locations: [{ id: loc.B }] }))).statusCode).toBe(200);
    expect([403, 404]).toContain((await call(token, `/api/agents/${agents.A}`)).statusCode);
    expect((await call(token, `/api/agents/${agents.B}`)).statusCode).toBe(200);
    // Made an operator: no more agent editing.
    const roles = (await call(t.admin, '/api/managed-roles-v/')).json().pageRows as { id: number; code: string }[];
    const operator = roles.find((r) => r.code === 'OPERATOR')!.id;
    const asAdmin = await call(token, `/api/agents/${agents.B}`, 'PUT', { name: 'renamed', location: { id: loc.B } });
    expect(asAdmin.statusCode, asAdmin.body).toBe(200);
    expect((await call(t.admin, `/api/users/${userId}`, 'PUT', await userAsInput(t.app, t.admin, userId, { grants: [{ id: operator }] }))).statusCode).toBe(200);
    expect((await call(token, `/api/agents/${agents.B}`, 'PUT', { name: 'renamed again', location: { id: loc.B } })).statusCode).toBe(403);
    // Deactivated: refused altogether; deleted: the token is gone with the user.
    expect((await call(t.admin, `/api/users/${userId}`, 'PUT', await userAsInput(t.app, t.admin, userId, { activeFlag: false }))).statusCode).toBe(200);
    expect((await call(token, '/api/users/me')).statusCode).toBe(401);
    expect((await call(t.admin, `/api/users/${userId}`, 'DELETE')).statusCode).toBe(204);
    expect((await call(token, '/api/users/me')).statusCode).toBe(401);
    expect((await t.ctx.db.execute(sql`SELECT count(*)::int AS n FROM api_tokens WHERE user_id = ${userId}`)).rows[0].n).toBe(0);
  });

  it('is refused on sign-out, user management and the tokens themselves, even for the default admin', async () => {
    const { token } = await make({}, t.admin);
    for (const [method, url] of [['POST', '/api/auth/logout'], ['GET', '/api/users'], ['GET', '/api/users/1'], ['GET', '/api/managed-roles-v/'], ['GET', '/api/users/me/tokens'], ['POST', '/api/users/me/tokens'], ['DELETE', '/api/users/me/tokens/1']] as const) {
      const res = await call(token, url, method, method === 'POST' ? { name: 'child', expiresInDays: 1 } : undefined);
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(403);
      expect(res.json().message).toBe('This cannot be done with an API token; sign in to the console');
    }
    const ru = await t.app.inject({ method: 'POST', url: '/api/users/me/tokens', headers: { ...bearer(token), 'accept-language': 'ru' }, payload: { name: 'child', expiresInDays: 1 } });
    expect(ru.json().message).toBe('Это нельзя сделать с API-токеном; войдите в консоль');
    // The session it was made with is not ended by it either.
    expect((await call(t.admin, '/api/users/me')).statusCode).toBe(200);
  });

  it("is never an agent's token, nor an agent's token an API token", async () => {
    const { token } = await make({}, t.admin);
    expect((await call(token, '/api/agent/config')).statusCode).toBe(401);
    const agent = await call(t.admin, '/api/agents', 'POST', { name: 'tok-agent-x', location: { id: loc.A } });
    const agentToken = agent.json().token as string;
    expect((await call(`pwt_${agentToken}`, '/api/users/me')).statusCode).toBe(401);
    expect((await call(agentToken, '/api/users/me')).statusCode).toBe(401);
  });

  it('a read-only token reads but changes nothing (403 on every other method)', async () => {
    const { token } = await make({ readOnly: true }, t.admin);
    expect((await call(token, `/api/agents/${agents.A}`)).statusCode).toBe(200);
    const put = await call(token, `/api/agents/${agents.A}`, 'PUT', { name: 'nope', location: { id: loc.A } });
    expect(put.statusCode).toBe(403);
    expect(put.json().message).toBe('This API token is read-only');
    expect((await call(token, '/api/agents', 'POST', { name: 'nope', location: { id: loc.A } })).statusCode).toBe(403);
    expect((await call(token, `/api/agents/${agents.A}`, 'DELETE')).statusCode).toBe(403);
    expect((await call(t.admin, `/api/agents/${agents.A}`)).json().name).not.toBe('nope');
  });
});

describe('every use', () => {
  it('is throttled per token: 429 with Retry-After past the minute, then free again', async () => {
    const a = await make({}, t.admin);
    const b = await make({}, t.admin);
    const rate = t.ctx.apiTokens.rate;
    const clock = t.ctx.apiTokens.clock;
    const start = Date.now();
    rate.perMinute = 3;
    clock.now = () => start;
    try {
      for (let i = 0; i < 3; i++) expect((await call(a.token, '/api/users/me')).statusCode).toBe(200);
      const refused = await call(a.token, '/api/users/me');
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe('60');
      // Another token of the same user has its own count; a session is not counted at all.
      expect((await call(b.token, '/api/users/me')).statusCode).toBe(200);
      expect((await call(t.admin, '/api/users/me')).statusCode).toBe(200);
      clock.now = () => start + 60_000;
      expect((await call(a.token, '/api/users/me')).statusCode).toBe(200);
    } finally {
      rate.perMinute = 120;
      clock.now = () => Date.now();
    }
  });

  it('is logged with the token and user (never the token itself), and dates last use at most once a minute', async () => {
    const made = await make({}, t.admin);
    log.lines.length = 0;
    expect((await call(made.token, '/api/home')).statusCode).toBe(200);
    const [line] = log.entries('api token call');
    expect(line).toMatchObject({ apiToken: made.id, userId: 1, method: 'GET', route: '/api/home' });
    expect(log.lines.join('\n')).not.toContain(made.token);
    const lastUsed = async () => (await t.ctx.db.execute(sql`SELECT last_used_at FROM api_tokens WHERE id = ${made.id}`)).rows[0].last_used_at;
    const first = await lastUsed();
    expect(first).not.toBeNull();
    await call(made.token, '/api/home');
    expect(await lastUsed()).toEqual(first);
    // A minute on, the next call dates it again.
    const later = Date.now() + 61_000;
    t.ctx.apiTokens.clock.now = () => later;
    try {
      await call(made.token, '/api/home');
    } finally {
      t.ctx.apiTokens.clock.now = () => Date.now();
    }
    expect(new Date((await lastUsed()) as string).getTime()).toBe(later);
  });
});

describe('clean-up', () => {
  it('the session-pruning job deletes tokens that expired or were revoked more than a week ago, and no other', async () => {
    const [oldRevoked, oldExpired, revoked, live] = [await make({}, t.admin), await make({}, t.admin), await make({}, t.admin), await make({}, t.admin)];
    await t.ctx.db.execute(sql`UPDATE api_tokens SET revoked_at = now() - interval '8 days' WHERE id = ${oldRevoked.id}`);
    await t.ctx.db.execute(sql`UPDATE api_tokens SET expires_at = now() - interval '8 days' WHERE id = ${oldExpired.id}`);
    await t.ctx.db.execute(sql`UPDATE api_tokens SET revoked_at = now() - interval '6 days' WHERE id = ${revoked.id}`);
    const runId = await t.ctx.jobs.runNow('session-pruning');
    const run = (await t.ctx.db.execute(sql`SELECT message FROM event_logs WHERE id = ${runId}`)).rows[0];
    expect(run.message).toMatch(/and [1-9]\d* ended API tokens$/);
    const left = (await t.ctx.db.execute(sql`SELECT id FROM api_tokens WHERE id IN (${oldRevoked.id}, ${oldExpired.id}, ${revoked.id}, ${live.id}) ORDER BY id`)).rows.map((r) => r.id);
    expect(left).toEqual([revoked.id, live.id]);
  });
});

describe('OpenAPI', () => {
  it('documents bearer auth: which routes take an API token, a session only, or nothing', async () => {
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json();
    expect(doc.components.securitySchemes.apiToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.paths['/api/agents/{id}'].get.security).toEqual([{ session: [] }, { apiToken: [] }]);
    expect(doc.paths['/api/users/me/tokens'].post.security).toEqual([{ session: [] }]);
    expect(doc.paths['/api/users'].get.security).toEqual([{ session: [] }]);
    expect(doc.paths['/api/agent/config'].get.security).toEqual([{ agent: [] }]);
    expect(doc.paths['/api/auth/'].post.security).toEqual([]);
  });
});
