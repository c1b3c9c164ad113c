import { beforeAll, describe, expect, it } from 'vitest';
import { basic, bearer, signIn, testApp } from '../../test/test-app.ts';
import { addLocation } from '../../test/scope-fixture.ts';

/**
 * Cloud mode (PAGEWATCH_CLOUD): the login is the e-mail, customers sign in with it, and the
 * settings stay with the users of DEFAULT. The customers' isolation is the cloud matrix's
 * (plugins/authorization-matrix-cloud.test.ts).
 */
const t = testApp({ cloud: true });
let acme: number;
let roles: Record<string, number>;
beforeAll(async () => {
  acme = await addLocation(t.ctx.db, 'ACME');
  const rows = (await t.app.inject({ url: '/api/managed-roles-v/', headers: bearer(t.admin) })).json().pageRows as { id: number; code: string }[];
  roles = Object.fromEntries(rows.map((r) => [r.code, r.id]));
});

const user = (over: Record<string, unknown> = {}) => ({
  login: 'ignored',
  email: 'anna.k@acme.example.com',
  passwordHash: 'Passw0rd!',
  lastName: 'Karpova',
  activeFlag: true,
  locations: [{ id: acme }],
  grants: [{ id: roles.ADMIN }],
  ...over,
});
const create = (payload: unknown, lang = 'en') =>
  t.app.inject({ method: 'POST', url: '/api/users', headers: { ...bearer(t.admin), 'accept-language': lang }, payload: payload as object });

describe('cloud mode', () => {
  it('tells the console in /config.json', async () => {
    expect((await t.app.inject({ url: '/config.json' })).json()).toMatchObject({ CLOUD: true });
  });

  it('stores the e-mail as the login, and the user signs in with it', async () => {
    const res = await create(user());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().login).toBe('anna.k@acme.example.com');
    const token = await signIn(t.app, 'Anna.K@acme.example.com', 'Passw0rd!');
    expect((await t.app.inject({ url: '/api/users/me', headers: bearer(token) })).json().email).toBe('anna.k@acme.example.com');
    const changed = await t.app.inject({ method: 'PUT', url: `/api/users/${res.json().id}`, headers: bearer(t.admin), payload: { ...user({ email: 'anna@acme.example.com' }), passwordHash: undefined } });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().login).toBe('anna@acme.example.com');
  });

  it('refuses a second user with the same e-mail on the e-mail field, in the caller\'s language', async () => {
    await create(user({ email: 'twice@acme.example.com' }));
    const res = await create(user({ email: 'twice@acme.example.com' }), 'ru');
    expect(res.statusCode).toBe(409);
    expect(res.json().details).toEqual([{ field: 'email', message: 'Пользователь с этим e-mail уже есть' }]);
  });

  it('refuses an e-mail too long to be a login (400 on email)', async () => {
    const res = await create(user({ email: `${'a'.repeat(120)}@acme.example.com` }));
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([{ field: 'email', message: 'The e-mail is the login here: at most 128 characters' }]);
  });

  it('lets the default admin sign in with their e-mail as well as their login', async () => {
    await signIn(t.app, 'admin@pagewatch.local', 'test-Admin-pass1');
    const wrong = await t.app.inject({ method: 'POST', url: '/api/auth/', headers: { authorization: basic('admin@pagewatch.local', 'wrong-pass1') } });
    expect(wrong.statusCode).toBe(401);
  });

  it("keeps the settings with DEFAULT's users: a customer's admin gets 403, the default admin the list", async () => {
    await create(user({ email: 'boss@acme.example.com' }));
    const customer = await signIn(t.app, 'boss@acme.example.com', 'Passw0rd!');
    const res = await t.app.inject({ url: '/api/settings/', headers: { ...bearer(customer), 'accept-language': 'ru' } });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('В облачном режиме настройки доступны только пользователям расположения по умолчанию');
    expect((await t.app.inject({ url: '/api/settings/', headers: bearer(t.admin) })).statusCode).toBe(200);
  });
});
