import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { bearer, testApp } from '../../test/test-app.ts';
import { addLocation } from '../../test/scope-fixture.ts';
import { freePort } from '../../test/cups-server.ts';
import { followSignIn, startOidcServer, type OidcServer } from '../../test/oidc-server.ts';

/**
 * Signing in with OpenID Connect (issue 55) against a real provider (the npm oidc-provider) on
 * 127.0.0.1, through the real redirects: authorization code with PKCE, state and nonce, the id
 * token checked; the console gets a one-time ticket for its session. Every failure comes back to
 * the login page with its reason, never an error page.
 */
const [port, opPort] = [await freePort(), await freePort()];
const base = `http://127.0.0.1:${port}`;
const t = testApp({ publicUrl: base });
let op: OidcServer;
let acme: number;
let roles: Record<string, number>;
let provider: number;
const SECRET = 'client-Secret-of-pagewatch-1';

const oidc = (over: Record<string, unknown> = {}) => ({ issuer: `http://127.0.0.1:${opPort}`, clientId: 'pagewatch', scopes: 'openid email profile groups', ...over });
const create = async (over: Record<string, unknown> = {}, settings: Record<string, unknown> = {}) => {
  const res = await t.app.inject({ method: 'POST', url: '/api/identity-providers', headers: bearer(t.admin), payload: {
    kind: 'OIDC', name: 'ACME SSO', locationId: acme, enabled: true, allowInternal: true, secret: SECRET, oidc: oidc(settings),
    mappings: [{ group: 'pw-admins', roleId: roles.ADMIN, locationId: acme }, { group: 'pw-ops', roleId: roles.OPERATOR, locationId: acme }], ...over,
  } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: number; redirectUri: string };
};
const start = (id: number) => `${base}/api/auth/oidc/${id}/start`;
const redeem = (ticket: string, lang = 'en') => t.app.inject({ method: 'POST', url: '/api/auth/sso-ticket', headers: { 'accept-language': lang }, payload: { ticket } });

let others: { wrongSecret: number; down: number; otherIssuer: number };
beforeAll(async () => {
  await t.app.listen({ port, host: '127.0.0.1' });
  acme = await addLocation(t.ctx.db, 'ACME');
  const rows = (await t.app.inject({ url: '/api/managed-roles-v/', headers: bearer(t.admin) })).json().pageRows as { id: number; code: string }[];
  roles = Object.fromEntries(rows.map((r) => [r.code, r.id]));
  const main = await create();
  provider = main.id;
  expect(main.redirectUri).toBe(`${base}/api/auth/oidc/${provider}/callback`);
  others = {
    wrongSecret: (await create({ name: 'Wrong secret', secret: 'not-the-secret-at-all' })).id,
    down: (await create({ name: 'Down' }, { issuer: `http://127.0.0.1:${await freePort()}` })).id,
    otherIssuer: (await create({ name: 'Other issuer' }, { issuer: `http://localhost:${opPort}` })).id,
  };
  const redirectUris = [provider, others.wrongSecret].map((id) => `${base}/api/auth/oidc/${id}/callback`);
  op = await startOidcServer(opPort, { id: 'pagewatch', secret: SECRET, redirectUris }, [
    { sub: 'anna', email: 'anna@acme.test', name: 'Anna Karpova', familyName: 'Karpova', groups: ['pw-admins'] },
    { sub: 'ivan', email: 'ivan@acme.test', name: 'Ivan', familyName: 'Petrov', groups: ['staff'] },
  ]);
});
afterAll(() => op?.close());

describe('OpenID Connect sign-in', () => {
  it('goes through the provider and back, creating the user with their group\'s role; the ticket gives a session once', async () => {
    const landed = await followSignIn(start(provider), 'anna', base);
    expect(landed.pathname).toBe('/login-form');
    const ticket = landed.searchParams.get('sso-ticket')!;
    expect(ticket).toBeTruthy();
    const res = await redeem(ticket);
    expect(res.statusCode, res.body).toBe(200);
    const me = (await t.app.inject({ url: '/api/users/me', headers: bearer(res.json().token) })).json();
    expect(me).toMatchObject({ login: 'anna', email: 'anna@acme.test', lastName: 'Karpova' });
    expect(me.grants.map((r: { code: string }) => r.code)).toEqual(['ADMIN']);
    expect(me.locations.map((l: { id: number }) => l.id)).toEqual([acme]);
    const again = await redeem(ticket, 'ru');
    expect(again.statusCode).toBe(422);
    expect(again.json().message).toBe('Вход занял слишком много времени или уже был выполнен; повторите попытку');
  });

  it('sends PKCE, state and nonce, and keeps them in a sealed cookie for the callback', async () => {
    const res = await fetch(start(provider), { redirect: 'manual' });
    expect(res.status).toBe(302);
    const to = new URL(res.headers.get('location')!);
    expect(to.origin).toBe(op.issuer);
    expect(Object.fromEntries(to.searchParams)).toMatchObject({ response_type: 'code', client_id: 'pagewatch', code_challenge_method: 'S256', redirect_uri: `${base}/api/auth/oidc/${provider}/callback` });
    for (const p of ['state', 'nonce', 'code_challenge']) expect(to.searchParams.get(p)!.length).toBeGreaterThan(30);
    const cookie = res.headers.getSetCookie()[0]!;
    expect(cookie).toMatch(/^pagewatch_sso=enc:v1:.*HttpOnly; SameSite=Lax/);
    expect(cookie).not.toContain(to.searchParams.get('state')!);
  });

  it('refuses a callback whose state is not the cookie\'s, or without the cookie', async () => {
    const res = await fetch(start(provider), { redirect: 'manual' });
    const cookie = res.headers.getSetCookie()[0]!.split(';')[0]!;
    for (const headers of [{ cookie }, {} as Record<string, string>]) {
      const back = await fetch(`${base}/api/auth/oidc/${provider}/callback?code=x&state=forged-state-value`, { redirect: 'manual', headers });
      expect(back.status).toBe(302);
      expect(back.headers.get('location')).toBe(`${base}/login-form?sso-error=expired`);
    }
  });

  it('refuses a user whose groups map to nothing', async () => {
    const landed = await followSignIn(start(provider), 'ivan', base);
    expect(landed.searchParams.get('sso-error')).toBe('noAccess');
  });

  it('says the provider is unreachable, or not the issuer configured, as a redirect to the login page', async () => {
    for (const id of [others.down, others.otherIssuer]) {
      const res = await fetch(start(id), { redirect: 'manual' });
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe(`${base}/login-form?sso-error=unavailable`);
    }
  });

  it('says a code the provider will not redeem (a wrong client secret) is refused', async () => {
    const landed = await followSignIn(start(others.wrongSecret), 'anna', base);
    expect(landed.searchParams.get('sso-error')).toBe('invalid');
  });

  it('answers a provider that does not exist with the login page, not an error', async () => {
    const res = await fetch(start(999999), { redirect: 'manual' });
    expect(res.headers.get('location')).toBe(`${base}/login-form?sso-error=invalid`);
  });
});

describe('the issuer\'s address (SSRF)', () => {
  const post = (body: Record<string, unknown>, lang: string) => t.app.inject({ method: 'POST', url: '/api/identity-providers', headers: { ...bearer(t.admin), 'accept-language': lang }, payload: {
    kind: 'OIDC', name: 'Internal', locationId: acme, enabled: true, secret: SECRET, mappings: [], ...body,
  } });

  it('is refused at save when internal, unless allowed, in the caller\'s language', async () => {
    for (const issuer of [`http://127.0.0.1:${opPort}`, 'http://169.254.169.254/latest', 'http://[::ffff:127.0.0.1]:8080', 'http://localhost']) {
      const res = await post({ allowInternal: false, oidc: oidc({ issuer }) }, 'en');
      expect(res.statusCode, issuer).toBe(400);
      expect(res.json().details[0], issuer).toMatchObject({ field: 'oidc.issuer', message: expect.stringMatching(/loopback or link-local/) });
    }
    const ru = await post({ allowInternal: false, oidc: oidc() }, 'ru');
    expect(ru.json().details).toEqual([{ field: 'oidc.issuer', message: 'Узел 127.0.0.1 — адрес обратной петли или link-local: чтобы использовать его, разрешите этому поставщику внутренние адреса' }]);
  });

  it('is checked again at sign-in: a provider whose address became internal is not asked', async () => {
    const { id } = await create({ name: 'Turned internal' });
    await t.ctx.db.execute(sql`UPDATE identity_providers SET allow_internal = false WHERE id = ${id}`);
    const res = await fetch(start(id), { redirect: 'manual' });
    expect(res.headers.get('location')).toBe(`${base}/login-form?sso-error=unavailable`);
  });
});

describe('testing the connection from the form', () => {
  const test = (over: Record<string, unknown>, lang = 'en') => t.app.inject({ method: 'POST', url: '/api/identity-providers/test', headers: { ...bearer(t.admin), 'accept-language': lang }, payload: {
    kind: 'OIDC', name: 'Tried', locationId: acme, enabled: true, allowInternal: true, secret: SECRET, mappings: [], oidc: oidc(), ...over,
  } });

  it('reads the discovery document and the key set, and says so in the caller\'s language', async () => {
    const res = await test({});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ ok: true, keys: expect.any(Number), users: null });
    expect(res.json().keys).toBeGreaterThan(0);
    expect(res.json().message).toBe(`Connected: the discovery document of ${op.issuer} and its ${res.json().keys} signing keys were read`);
    expect((await test({}, 'ru')).json().message).toMatch(/^Соединение установлено: прочитаны документ обнаружения/);
  });

  it('says why not: no answer, or another issuer', async () => {
    const down = await test({ oidc: oidc({ issuer: `http://127.0.0.1:${await freePort()}` }) }, 'ru');
    expect(down.json()).toMatchObject({ ok: false, message: 'Адрес не отвечает: проверьте узел, порт и межсетевой экран' });
    const other = await test({ oidc: oidc({ issuer: `http://localhost:${opPort}` }) });
    expect(other.json()).toMatchObject({ ok: false, message: `The discovery document names another issuer: ${op.issuer}` });
  });
});

describe('the periodic sync of an OpenID provider (it lists no users)', () => {
  const active = async (login: string) => (await t.ctx.db.execute<{ active_flag: boolean }>(sql`SELECT active_flag FROM users WHERE login = ${login}`)).rows[0]!.active_flag;

  it('disables a user with no sign-in and no open session for 90 days, and nobody who signed in since', async () => {
    const { id } = await create({ name: 'Idle check', mappings: [{ group: 'pw-ops', roleId: roles.OPERATOR, locationId: acme }] });
    const [idle, recent] = [`idle-${id}`, `recent-${id}`];
    for (const login of [idle, recent]) {
      await t.ctx.db.execute(sql`INSERT INTO users (login, email, password_hash, last_name, identity_provider_id, external_id, created_at, updated_at) VALUES (${login}, ${`${login}@acme.test`}, '!sso', 'X', ${id}, ${login}, now() - interval '200 days', now() - interval '200 days')`);
    }
    // Their last sign-ins: 91 days ago (expired since), and 89 days ago.
    await t.ctx.db.execute(sql`INSERT INTO sessions (token_hash, user_id, created_at, expires_at) SELECT md5(login) || md5(login || 'x'), id, now() - interval '91 days', now() - interval '90 days' FROM users WHERE login = ${idle}`);
    await t.ctx.db.execute(sql`INSERT INTO sessions (token_hash, user_id, created_at, expires_at) SELECT md5(login) || md5(login || 'x'), id, now() - interval '89 days', now() - interval '88 days' FROM users WHERE login = ${recent}`);
    const runId = await t.ctx.jobs.runNow('directory-sync');
    const run = (await t.ctx.db.execute<{ message: string }>(sql`SELECT message FROM event_logs WHERE id = ${runId}`)).rows[0]!;
    expect(run.message).toMatch(/[1-9]\d* disabled/);
    expect(await active(idle)).toBe(false);
    expect(await active(recent)).toBe(true);
    const logged = await t.ctx.db.execute<{ message: string }>(sql`SELECT message FROM event_logs WHERE message_code = 'sso.idle' ORDER BY id DESC LIMIT 1`);
    expect(logged.rows[0]!.message).toBe(`User ${idle} was disabled: no sign-in through Idle check for 90 days`);
    // Enabled again by an administrator: not disabled again before they could sign in.
    await t.ctx.db.execute(sql`UPDATE users SET active_flag = true, updated_at = now() WHERE login = ${idle}`);
    await t.ctx.sso.syncAll();
    expect(await active(idle)).toBe(true);
  });
});

