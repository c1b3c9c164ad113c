import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ADMIN_PASSWORD, basic, bearer, signIn, testApp } from '../../test/test-app.ts';
import { addLocation, addRole } from '../../test/scope-fixture.ts';
import { startSlapd, type Slapd } from '../../test/ldap-server.ts';
import { freePort } from '../../test/cups-server.ts';

/**
 * Signing in with a directory (issue 55) against a real OpenLDAP (Debian's slapd) on 127.0.0.1:
 * the service account finds the user, the user's own bind checks the password, the groups give
 * roles and locations within the provider's location; LDAPS and StartTLS; every failure a 4xx in
 * the user's language; the periodic sync disables whom the directory no longer lists.
 */
const t = testApp();
let slapd: Slapd;
let acme: number;
let acmeSub: number;
let other: number;
let roles: Record<string, number>;
let provider: number;

const PASS = 'Dir-pass-1';
const who = (uid: string, groups: string[], sn = uid) => ({ uid, password: PASS, mail: `${uid}@acme.test`, sn, groups });

const mappings = () => [
  { group: 'pw-admins', roleId: roles.ADMIN, locationId: acme },
  { group: 'pw-ops', roleId: roles.OPERATOR, locationId: acmeSub },
];
const payload = (over: Record<string, unknown> = {}, ldap: Record<string, unknown> = {}) => ({
  kind: 'LDAP', name: 'ACME directory', locationId: acme, enabled: true, allowInternal: true, secret: 'reader-Secret-1', mappings: mappings(), ldap: slapd.settings(ldap), ...over,
});
const put = (id: number, body: unknown, token = t.admin) => t.app.inject({ method: 'PUT', url: `/api/identity-providers/${id}`, headers: bearer(token), payload: body as object });
const post = (body: unknown, token = t.admin, lang = 'en') => t.app.inject({ method: 'POST', url: '/api/identity-providers', headers: { ...bearer(token), 'accept-language': lang }, payload: body as object });
const ldapSignIn = (login: string, password: string, opts: { id?: number; lang?: string } = {}) =>
  t.app.inject({ method: 'POST', url: `/api/auth/providers/${opts.id ?? provider}`, headers: { authorization: basic(login, password), 'accept-language': opts.lang ?? 'en' } });
const me = (token: string) => t.app.inject({ url: '/api/users/me', headers: bearer(token) });
const userRow = async (login: string) =>
  (await t.ctx.db.execute<{ id: number; active_flag: boolean; identity_provider_id: number | null }>(sql`SELECT id, active_flag, identity_provider_id FROM users WHERE login = ${login}`)).rows[0];

beforeAll(async () => {
  slapd = await startSlapd([who('anna', ['pw-admins'], 'Karpova'), who('oleg', ['pw-ops']), who('ivan', ['staff']), who('admin', ['pw-admins']), who('maria', ['pw-ops']), who('petr', ['pw-ops']), who('sasha', ['pw-ops'])]);
  acme = await addLocation(t.ctx.db, 'ACME');
  acmeSub = await addLocation(t.ctx.db, 'ACME_SUB', 'ACME');
  other = await addLocation(t.ctx.db, 'OTHER');
  const rows = (await t.app.inject({ url: '/api/managed-roles-v/', headers: bearer(t.admin) })).json().pageRows as { id: number; code: string }[];
  roles = Object.fromEntries(rows.map((r) => [r.code, r.id]));
  const res = await post(payload());
  expect(res.statusCode, res.body).toBe(200);
  provider = res.json().id;
});
afterAll(() => slapd?.close());

describe('an LDAP provider, kept by the administrator', () => {
  it('shows the bind password only as set, and stores it sealed', async () => {
    const res = await t.app.inject({ url: `/api/identity-providers/${provider}`, headers: bearer(t.admin) });
    expect(res.json()).toMatchObject({ kind: 'LDAP', secretSet: true, locationId: acme, ldap: { url: slapd.url, startTls: false } });
    expect(res.body).not.toContain('reader-Secret-1');
    const stored = (await t.ctx.db.execute<{ secret: string }>(sql`SELECT secret FROM identity_providers WHERE id = ${provider}`)).rows[0]!.secret;
    expect(stored).toMatch(/^enc:v1:/);
  });

  it('is offered on the login page, to anyone', async () => {
    const res = await t.app.inject({ url: '/api/auth/providers' });
    expect(res.json()).toContainEqual({ id: provider, kind: 'LDAP', name: 'ACME directory' });
  });

  it('refuses a mapping outside the provider\'s location, naming it, in the caller\'s language', async () => {
    const res = await post(payload({ mappings: [{ group: 'x', roleId: roles.OPERATOR, locationId: other }] }), t.admin, 'ru');
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([{ field: 'mappings.0.locationId', message: 'Это расположение не совпадает с расположением поставщика и не входит в него' }]);
  });

  it('refuses an internal address unless allowed, in any spelling, in the caller\'s language (SSRF)', async () => {
    for (const url of ['ldap://127.0.0.1:389', 'ldap://169.254.169.254', 'ldap://[::ffff:127.0.0.1]:389', 'ldap://[::ffff:7f00:1]', 'ldap://localhost', 'ldaps://0.0.0.0']) {
      const res = await post(payload({ allowInternal: false }, { url }));
      expect(res.statusCode, url).toBe(400);
      expect(res.json().details, url).toEqual([{ field: 'ldap.url', message: expect.stringMatching(/is a loopback or link-local address: allow internal addresses for this provider/) }]);
    }
    const ru = await post(payload({ allowInternal: false }), t.admin, 'ru');
    expect(ru.json().details).toEqual([{ field: 'ldap.url', message: 'Узел 127.0.0.1 — адрес обратной петли или link-local: чтобы использовать его, разрешите этому поставщику внутренние адреса' }]);
    // A private-range directory is the in-house case: not internal here, as for the channels.
    expect((await post(payload({ allowInternal: false }, { url: 'ldap://10.0.0.5:389' }))).statusCode).toBe(200);
  });

  it('checks the address again at sign-in: one that became internal is not contacted (SSRF, DNS may change)', async () => {
    const id = (await post(payload({ name: 'Turned internal' }))).json().id;
    expect((await ldapSignIn('sasha', PASS, { id })).statusCode).toBe(200);
    await t.ctx.db.execute(sql`UPDATE identity_providers SET allow_internal = false WHERE id = ${id}`);
    const res = await ldapSignIn('sasha', PASS, { id, lang: 'ru' });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(/не отвечает/);
    const logged = await t.ctx.db.execute<{ params: { reason: string } }>(sql`SELECT message_params AS params FROM event_logs WHERE message_code = 'sso.unavailable' ORDER BY id DESC LIMIT 1`);
    expect(logged.rows[0]!.params.reason).toMatch(/loopback or link-local/);
  });

  it('refuses a bad address and a filter without {login} (400 naming the fields)', async () => {
    const res = await post(payload({}, { url: 'http://example.test', userFilter: '(uid=x)' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().details.map((d: { field: string }) => d.field).sort()).toEqual(['ldap.url', 'ldap.userFilter']);
  });

  it('asks for the bind password again when the address changes', async () => {
    const { secret: _secret, ...kept } = payload({}, { url: 'ldap://127.0.0.2:389' });
    const res = await put(provider, kept);
    expect(res.statusCode).toBe(422);
    expect(res.json().details).toEqual([{ field: 'secret', message: 'A new address or location needs the secret again' }]);
  });

  it('keeps its location from being deleted under it (409 naming it, not a 500)', async () => {
    const lone = await addLocation(t.ctx.db, 'LONE');
    expect((await post(payload({ name: 'Lone', locationId: lone, mappings: [] }))).statusCode).toBe(200);
    const res = await t.app.inject({ method: 'DELETE', url: `/api/dictionary-items/${lone}`, headers: bearer(t.admin) });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toContain('1 identity provider(s)');
  });

  it('keeps a location admin to their locations and to roles they may hand out', async () => {
    const keeper = await addRole(t.ctx.db, 'IDP_KEEPER', ['MNU_IDENTITY_PROVIDERS.READ', 'MNU_IDENTITY_PROVIDERS.EDIT']);
    await t.app.inject({ method: 'POST', url: '/api/users', headers: bearer(t.admin), payload: { login: 'keeper', email: 'keeper@acme.test', passwordHash: 'Passw0rd!', lastName: 'K', activeFlag: true, locations: [{ id: acmeSub }], grants: [{ id: keeper }] } });
    const token = await signIn(t.app, 'keeper', 'Passw0rd!');
    // Their own location: fine, with a role they hold.
    const ok = await post(payload({ locationId: acmeSub, mappings: [{ group: 'k', roleId: keeper, locationId: acmeSub }] }), token);
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await post(payload({ locationId: acme, mappings: [] }), token)).statusCode).toBe(403);
    const admin = await post(payload({ locationId: acmeSub, mappings: [{ group: 'k', roleId: roles.ADMIN, locationId: acmeSub }] }), token);
    expect(admin.statusCode).toBe(400);
    expect(admin.json().details).toEqual([{ field: 'mappings.0.roleId', message: 'You may not hand out this role' }]);
    // The administrator's provider at ACME is not theirs to see.
    expect((await t.app.inject({ url: `/api/identity-providers/${provider}`, headers: bearer(token) })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/api/identity-providers', headers: bearer(token) })).json().map((p: { id: number }) => p.id)).not.toContain(provider);
  });
});

describe('testing the connection from the form', () => {
  const test = (body: unknown, opts: { id?: number; lang?: string; token?: string } = {}) => t.app.inject({
    method: 'POST', url: opts.id ? `/api/identity-providers/${opts.id}/test` : '/api/identity-providers/test',
    headers: { ...bearer(opts.token ?? t.admin), 'accept-language': opts.lang ?? 'en' }, payload: body as object,
  });

  it('binds as the service account and says how many users and groups the searches find', async () => {
    const res = await test(payload());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ ok: true, users: 7, groups: 3, more: false, keys: null });
    expect(res.json().message).toBe('Connected: the service account signed in; the searches found 7 users and 3 groups');
    const ru = await test(payload(), { lang: 'ru' });
    expect(ru.json().message).toBe('Соединение установлено: служебная учётная запись вошла; поиск нашёл пользователей: 7, групп: 3');
  });

  it('uses the stored bind password for a saved provider when none is typed, never for a new address', async () => {
    const { secret: _secret, ...kept } = payload();
    expect((await test(kept, { id: provider })).json()).toMatchObject({ ok: true, users: 7 });
    const moved = await test({ ...kept, ldap: slapd.settings({ url: 'ldap://127.0.0.2:389' }) }, { id: provider });
    expect(moved.statusCode).toBe(400);
    expect(moved.json().details).toEqual([{ field: 'secret', message: 'A new address or location needs the secret again' }]);
    expect((await test(kept)).statusCode).toBe(400);
  });

  it('says what the directory refused, in the caller\'s language', async () => {
    const bad = await test(payload({ secret: 'not-the-password' }), { lang: 'ru' });
    expect(bad.json()).toMatchObject({ ok: false, users: null, message: 'Каталог отклонил служебную учётную запись: проверьте DN для входа и пароль' });
    const base = await test(payload({}, { userBase: 'ou=nobody,dc=nowhere' }));
    expect(base.json()).toMatchObject({ ok: false, message: 'The directory has no such entry: check the users\' and the groups\' base DN' });
    const down = await test(payload({}, { url: `ldap://127.0.0.1:${await freePort()}` }));
    expect(down.json()).toMatchObject({ ok: false, message: 'The address does not answer: check the host, the port and the firewall' });
  });

  it('refuses an internal address unless allowed, as at save, and a provider outside the caller\'s locations', async () => {
    const res = await test(payload({ allowInternal: false }));
    expect(res.statusCode).toBe(400);
    expect(res.json().details[0].field).toBe('ldap.url');
    // The location admin of ACME_SUB (above): ACME is not theirs, nor is the administrator's provider there.
    const keeper = await signIn(t.app, 'keeper', 'Passw0rd!');
    expect((await test(payload({ locationId: acme, mappings: [] }), { token: keeper })).statusCode).toBe(403);
    expect((await test(payload({ locationId: acmeSub, mappings: [] }), { id: provider, token: keeper })).statusCode).toBe(404);
  });
});

describe('signing in with the directory', () => {
  it('creates the user at the first sign-in, with the role and location of their group', async () => {
    const res = await ldapSignIn('anna', PASS);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.user).toMatchObject({ login: 'anna', email: 'anna@acme.test', lastName: 'Karpova' });
    const mine = (await me(body.token)).json();
    expect(mine.locations.map((l: { id: number }) => l.id)).toEqual([acme]);
    expect(mine.grants.map((r: { code: string }) => r.code)).toEqual(['ADMIN']);
    const again = await ldapSignIn('anna', PASS);
    expect(again.json().user.id).toBe(body.user.id);
    expect((await userRow('anna'))!.identity_provider_id).toBe(provider);
  });

  it('refuses a wrong password, an empty one and an unknown login alike (401, in the user\'s language)', async () => {
    for (const [login, password] of [['oleg', 'wrong-pass'], ['oleg', ''], ['nobody', PASS]]) {
      const res = await ldapSignIn(login!, password!, { lang: 'ru' });
      expect(res.statusCode, `${login}:${password}`).toBe(401);
      expect(res.json().code).toBe('BAD_CREDENTIALS');
      expect(res.json().message).toMatch(/[а-я]/);
    }
  });

  it('refuses a user whose groups map to nothing (403, in Russian)', async () => {
    const res = await ldapSignIn('ivan', PASS, { lang: 'ru' });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Ваши группы в каталоге не дают доступа к Pagewatch; обратитесь к администратору');
    expect(await userRow('ivan')).toBeUndefined();
  });

  it('never takes over a local account: the directory\'s "admin" is refused, the default administrator signs in locally', async () => {
    const res = await ldapSignIn('admin', PASS);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('A Pagewatch account with your login already exists; ask your administrator');
    await signIn(t.app, 'admin', ADMIN_PASSWORD);
  });

  it('does not let a directory user sign in with a local password', async () => {
    await ldapSignIn('anna', PASS);
    for (const password of [PASS, '!sso']) {
      expect((await t.app.inject({ method: 'POST', url: '/api/auth/', headers: { authorization: basic('anna', password) } })).statusCode).toBe(401);
    }
  });

  it('speaks LDAPS and StartTLS, checking the certificate against the CA given', async () => {
    for (const ldap of [{ url: slapd.ldapsUrl, caCert: slapd.caCert }, { startTls: true, caCert: slapd.caCert }]) {
      expect((await put(provider, payload({}, ldap))).statusCode).toBe(200);
      const res = await ldapSignIn('anna', PASS);
      expect(res.statusCode, JSON.stringify(ldap)).toBe(200);
    }
    expect((await put(provider, payload())).statusCode).toBe(200);
    // Without the CA the self-signed certificate is not trusted: the directory is unavailable, not the password wrong.
    const untrusted = await post(payload({ name: 'StartTLS, no CA' }, { startTls: true }));
    const res = await ldapSignIn('ivan', PASS, { id: untrusted.json().id });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('The identity provider does not answer; try again later or sign in with a local account');
  });

  it('says the directory is down as a 422 in the user\'s language, never a 500', async () => {
    const down = await post(payload({ name: 'Down' }, { url: `ldap://127.0.0.1:${await freePort()}` }));
    const res = await ldapSignIn('ivan', PASS, { id: down.json().id, lang: 'ru' });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('Поставщик учётных записей не отвечает; повторите позже или войдите под локальной учётной записью');
    const wrongBind = await post(payload({ name: 'Wrong bind', secret: 'not-the-password' }));
    expect((await ldapSignIn('ivan', PASS, { id: wrongBind.json().id })).statusCode).toBe(422);
  });

  it('answers 404 for a provider that does not exist', async () => {
    expect((await ldapSignIn('oleg', PASS, { id: 999999 })).statusCode).toBe(404);
  });
});

describe('when the directory no longer lists a user', () => {
  it('disables them at their next sign-in once their groups give nothing, and ends their sessions', async () => {
    const { token } = (await ldapSignIn('petr', PASS)).json();
    await slapd.setGroups('petr', []);
    expect((await ldapSignIn('petr', PASS)).statusCode).toBe(403);
    expect((await userRow('petr'))!.active_flag).toBe(false);
    expect((await me(token)).statusCode).toBe(401);
    // Back in a group, they stay disabled until an administrator enables them.
    await slapd.setGroups('petr', ['pw-ops']);
    expect((await ldapSignIn('petr', PASS)).statusCode).toBe(401);
  });

  it('disables them on the periodic sync, and brings the others\' rights up to date', async () => {
    const maria = (await ldapSignIn('maria', PASS)).json().token;
    const oleg = (await ldapSignIn('oleg', PASS)).json().token;
    await slapd.removeUser('maria');
    await slapd.setGroups('oleg', ['pw-admins']);
    // The scheduled job, run now: its run is in the event log with what it did.
    const runId = await t.ctx.jobs.runNow('directory-sync');
    const run = (await t.ctx.db.execute<{ message: string }>(sql`SELECT message FROM event_logs WHERE id = ${runId}`)).rows[0]!;
    expect(run.message).toMatch(/^Directory sync: \d+ directories, \d+ users checked, [1-9]\d* disabled/);
    expect((await userRow('maria'))!.active_flag).toBe(false);
    expect((await me(maria)).statusCode).toBe(401);
    const now = (await me(oleg)).json();
    expect(now.grants.map((r: { code: string }) => r.code)).toEqual(['ADMIN']);
    expect(now.locations.map((l: { id: number }) => l.id)).toEqual([acme]);
  });

  it('changes nobody when the directory is down', async () => {
    await slapd.stop();
    try {
      const result = await t.ctx.sso.syncAll();
      expect(result.failed).toBeGreaterThanOrEqual(1);
      expect((await userRow('anna'))!.active_flag).toBe(true);
    } finally {
      await slapd.start();
    }
  });
});
