import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { basic, bearer, createUser, signIn, testApp, userAsInput } from '../../test/test-app.ts';
import { addLocation, addRole } from '../../test/scope-fixture.ts';

/**
 * Users, roles and location scoping (issue 3) against a real database. The tree:
 *   DEFAULT ── A ── A1
 *          └── B
 * `adminA` is an ADMIN limited to A (and so A1).
 */
const t = testApp({ signIn: false });
let root: string;
const loc = { DEFAULT: 1, A: 0, A1: 0, B: 0 };
const roleId: Record<string, number> = {};
const ids: Record<string, number> = {};
let adminA: string;
let operator: string;

const PASSWORD = 'Passw0rd!';

type Payload = Record<string, unknown>;
const valid = (over: Payload = {}): Payload => ({
  login: `u${Math.random().toString(36).slice(2, 10)}`,
  email: 'someone@example.com',
  passwordHash: PASSWORD,
  lastName: 'Someone',
  activeFlag: true,
  locations: [{ id: loc.A }],
  grants: [{ id: roleId.OPERATOR }],
  ...over,
});

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload?: Payload, lang = 'en') =>
  t.app.inject({ method, url, payload, headers: { ...bearer(token), 'accept-language': lang } });

const asInput = (token: string, id: number, over: Payload = {}): Promise<Payload> => userAsInput(t.app, token, id, over);

beforeAll(async () => {
  const db = t.ctx.db;
  loc.A = await addLocation(db, 'A');
  loc.A1 = await addLocation(db, 'A1', 'A');
  loc.B = await addLocation(db, 'B');
  root = await signIn(t.app);
  for (const r of (await call('GET', '/api/managed-roles-v/', root)).json().pageRows) roleId[r.code] = r.id;
  ids.adminA = await createUser(t.app, root, { login: 'adminA', password: PASSWORD, role: 'ADMIN', locationIds: [loc.A] });
  ids.uA = await createUser(t.app, root, { login: 'userA', role: 'OPERATOR', locationIds: [loc.A] });
  ids.uA1 = await createUser(t.app, root, { login: 'userA1', role: 'OPERATOR', locationIds: [loc.A1] });
  ids.uB = await createUser(t.app, root, { login: 'userB', role: 'OPERATOR', locationIds: [loc.B] });
  ids.uAB = await createUser(t.app, root, { login: 'userAB', role: 'OPERATOR', locationIds: [loc.A, loc.B] });
  ids.operator = await createUser(t.app, root, { login: 'operator', password: PASSWORD, role: 'OPERATOR', locationIds: [loc.DEFAULT] });
  adminA = await signIn(t.app, 'adminA', PASSWORD);
  operator = await signIn(t.app, 'operator', PASSWORD);
});

describe('grants', () => {
  it('an OPERATOR gets 403 on every users route', async () => {
    for (const [method, url] of [
      ['GET', '/api/users'],
      ['GET', '/api/managed-users-v/'],
      ['GET', `/api/users/${ids.uA}`],
      ['GET', '/api/managed-roles-v/'],
      ['POST', '/api/users'],
      ['PUT', `/api/users/${ids.uA}`],
      ['DELETE', `/api/users/${ids.uA}`],
    ] as const) {
      const res = await call(method, url, operator, method === 'POST' || method === 'PUT' ? valid() : undefined);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
  });

  it('an OPERATOR gets 403 on the settings', async () => {
    // The settings routes belong to the settings issue; until they exist there is nothing to refuse.
    const settings = t.app.routeAccess.filter((r) => r.url.startsWith('/api/settings'));
    if (!settings.length) {
      expect((await call('GET', '/api/settings/', operator)).statusCode).toBe(404);
      return;
    }
    for (const r of settings) expect((await call(r.method as 'GET', r.url, operator)).statusCode, `${r.method} ${r.url}`).toBe(403);
  });

  it('the current user is always readable', async () => {
    const me = (await call('GET', '/api/users/me', operator)).json();
    expect(me.login).toBe('operator');
    expect(me.resolvedGrants.length).toBeGreaterThan(0);
  });
});

describe('an ADMIN limited to location A', () => {
  it('lists only users of A and the locations below it, on every list and page', async () => {
    for (const url of ['/api/users', '/api/managed-users-v/']) {
      const seen = new Set<number>();
      for (let page = 1; page <= 10; page++) {
        const res = await call('GET', `${url}?page=2,${page}&sort=login,ASC`, adminA);
        expect(res.statusCode).toBe(200);
        const body = res.json();
        expect(body.totalRows).toBe(4);
        for (const r of body.pageRows) seen.add(r.id);
        if (!body.pageRows.length) break;
      }
      expect([...seen].sort(), url).toEqual([ids.adminA, ids.uA, ids.uA1, ids.uAB].sort());
    }
    const filtered = await call('GET', `/api/users?filter-json=${encodeURIComponent(JSON.stringify(['login', '=', 'userB']))}`, adminA);
    expect(filtered.json().pageRows).toEqual([]);
    const locations = (await call('GET', '/api/user-locations/', adminA)).json().pageRows.map((l: { id: number }) => l.id);
    expect(locations.sort()).toEqual([loc.A, loc.A1].sort());
  });

  it('gets 403 for a user of another location, and 404 for none at all', async () => {
    expect((await call('GET', `/api/users/${ids.uB}`, adminA)).statusCode).toBe(403);
    expect((await call('GET', `/api/users/${ids.operator}`, adminA)).json().code).toBe('OUT_OF_SCOPE');
    expect((await call('PUT', `/api/users/${ids.uB}`, adminA, valid({ locations: [{ id: loc.A }] }))).statusCode).toBe(403);
    expect((await call('DELETE', `/api/users/${ids.uB}`, adminA)).statusCode).toBe(403);
    expect((await call('GET', '/api/users/999999', adminA)).statusCode).toBe(404);
  });

  it('sees only the locations of a shared user that are in scope, and may not change them (issue 14)', async () => {
    const u = (await call('GET', `/api/users/${ids.uAB}`, adminA)).json();
    expect(u.locations.map((l: { id: number }) => l.id)).toEqual([loc.A]);
    // A user who also belongs to B is read-only to an admin of A.
    const res = await call('PUT', `/api/users/${ids.uAB}`, adminA, await asInput(adminA, ids.uAB, { locations: [{ id: loc.A1 }], lastName: 'Shared' }));
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().code).toBe('OUT_OF_SCOPE');
    const full = (await call('GET', `/api/users/${ids.uAB}`, root)).json();
    expect(full.locations.map((l: { id: number }) => l.id).sort()).toEqual([loc.A, loc.B].sort());
  });

  it('cannot assign a location outside its scope (403)', async () => {
    const res = await call('POST', '/api/users', adminA, valid({ locations: [{ id: loc.A }, { id: loc.B }] }));
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(/outside your locations/);
    const ru = await call('PUT', `/api/users/${ids.uA}`, adminA, await asInput(adminA, ids.uA, { locations: [{ id: loc.DEFAULT }] }), 'ru');
    expect(ru.statusCode).toBe(403);
    expect(ru.json().message).toMatch(/вне ваших расположений/);
  });

  it('keeps only key locations: a child of a chosen location adds nothing', async () => {
    const res = await call('POST', '/api/users', root, valid({ locations: [{ id: loc.A1 }, { id: loc.A }, { id: loc.B }] }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().locations.map((l: { id: number }) => l.id).sort()).toEqual([loc.A, loc.B].sort());
  });
});

describe('roles', () => {
  let userAdmin: string;
  beforeAll(async () => {
    // A role that manages users but holds nothing else: it may hand out only roles within that.
    roleId.USER_ADMIN = await addRole(t.ctx.db, 'USER_ADMIN', ['MNU_USERS.READ', 'MNU_USERS.EDIT']);
    roleId.VIEWER = await addRole(t.ctx.db, 'VIEWER', ['MNU_USERS.READ']);
    await call('POST', '/api/users', root, valid({ login: 'useradmin', passwordHash: PASSWORD, locations: [{ id: loc.DEFAULT }], grants: [{ id: roleId.USER_ADMIN }] }));
    userAdmin = await signIn(t.app, 'useradmin', PASSWORD);
  });

  it('offers only roles whose every grant the caller holds', async () => {
    const codes = (await call('GET', '/api/managed-roles-v/', userAdmin)).json().pageRows.map((r: { code: string }) => r.code);
    expect(codes.sort()).toEqual(['USER_ADMIN', 'VIEWER']);
    const all = (await call('GET', '/api/managed-roles-v/', root)).json().pageRows.map((r: { code: string }) => r.code);
    expect(all).toEqual(expect.arrayContaining(['ADMIN', 'DEVELOPER', 'OPERATOR', 'USER_ADMIN', 'VIEWER']));
  });

  it('refuses to assign a role the caller does not hold (403)', async () => {
    const res = await call('POST', '/api/users', userAdmin, valid({ locations: [{ id: loc.B }], grants: [{ id: roleId.ADMIN }] }));
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(/role with rights you do not have/);
    const ok = await call('POST', '/api/users', userAdmin, valid({ locations: [{ id: loc.B }], grants: [{ id: roleId.VIEWER }] }));
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('refuses to change or delete a user with more rights than the caller (403)', async () => {
    expect((await call('PUT', `/api/users/${ids.uB}`, userAdmin, await asInput(userAdmin, ids.uB, { lastName: 'X' }))).statusCode).toBe(403);
    expect((await call('DELETE', `/api/users/${ids.uB}`, userAdmin)).statusCode).toBe(403);
  });

  it('refuses an unknown role (400, grants)', async () => {
    const res = await call('POST', '/api/users', root, valid({ grants: [{ id: 987654 }] }));
    expect(res.statusCode).toBe(400);
    expect(res.json().details[0].field).toBe('grants');
  });

  it('nobody changes their own roles', async () => {
    const res = await call('PUT', `/api/users/${ids.adminA}`, adminA, await asInput(adminA, ids.adminA, { grants: [{ id: roleId.ADMIN }, { id: roleId.OPERATOR }] }));
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(/your own roles/);
    // The rest of one's own form saves.
    const same = await call('PUT', `/api/users/${ids.adminA}`, adminA, await asInput(adminA, ids.adminA, { firstName: 'Anna' }));
    expect(same.statusCode, same.body).toBe(200);
  });
});

describe('deleting', () => {
  it('refuses to delete oneself, the system user and the last active ADMIN', async () => {
    const self = await call('DELETE', `/api/users/${ids.adminA}`, adminA);
    expect(self.statusCode).toBe(403);
    expect(self.json().message).toMatch(/cannot delete yourself/);
    expect((await call('DELETE', '/api/users/1', adminA)).statusCode).toBe(403); // admin lives at DEFAULT, out of A's scope

    // A DEVELOPER (every grant, no ADMIN role) at DEFAULT with one other ADMIN left.
    await createUser(t.app, root, { login: 'dev', password: PASSWORD, role: 'DEVELOPER', locationIds: [loc.DEFAULT] });
    const dev = await signIn(t.app, 'dev', PASSWORD);
    const system = await call('DELETE', '/api/users/1', dev);
    expect(system.statusCode).toBe(409);
    expect(system.json().message).toMatch(/system user/);
    // Deactivate the seeded admin:
    // adminA is then the only active ADMIN.
    expect((await call('PUT', '/api/users/1', dev, await asInput(dev, 1, { activeFlag: false, email: 'admin@example.com' }))).statusCode).toBe(200);
    const last = await call('DELETE', `/api/users/${ids.adminA}`, dev);
    expect(last.statusCode).toBe(409);
    expect(last.json().message).toBe('The last active administrator cannot be deleted, deactivated or lose the ADMIN role');
    const lastRu = await call('DELETE', `/api/users/${ids.adminA}`, dev, undefined, 'ru');
    expect(lastRu.json().message).toMatch(/Последнего активного администратора/);
    const demote = await call('PUT', `/api/users/${ids.adminA}`, dev, await asInput(dev, ids.adminA, { grants: [{ id: roleId.OPERATOR }] }));
    expect(demote.statusCode).toBe(409);
    const deactivate = await call('PUT', `/api/users/${ids.adminA}`, dev, await asInput(dev, ids.adminA, { activeFlag: false }));
    expect(deactivate.statusCode).toBe(409);
    expect((await call('GET', `/api/users/${ids.adminA}`, dev)).json().activeFlag).toBe(true);
    // Reactivate so the rest of the file has its administrator back; the deactivation ended
    // its sessions (issue 14), so it signs in again.
    expect((await call('PUT', '/api/users/1', dev, await asInput(dev, 1, { activeFlag: true, email: 'admin@example.com' }))).statusCode).toBe(200);
    expect((await call('GET', '/api/users/me', root)).statusCode).toBe(401);
    root = await signIn(t.app);
  });

  it('deletes a user in scope and logs it', async () => {
    const id = await createUser(t.app, root, { login: 'shortlived', role: 'OPERATOR', locationIds: [loc.A1] });
    expect((await call('DELETE', `/api/users/${id}`, adminA)).statusCode).toBe(204);
    expect((await call('GET', `/api/users/${id}`, adminA)).statusCode).toBe(404);
    const res = await t.ctx.db.execute(sql`SELECT message_code, location_id FROM event_logs WHERE object_class = 'UserDao' AND object_id = ${id} ORDER BY id`);
    expect(res.rows.map((r) => (r as { message_code: string }).message_code)).toEqual(['user.created', 'user.deleted']);
    expect((res.rows[1] as { location_id: number }).location_id).toBe(loc.A1);
  });
});

describe('changing a user', () => {
  it('changes the password only when one is sent, and logs the change', async () => {
    const id = await createUser(t.app, root, { login: 'pwuser', password: PASSWORD, role: 'OPERATOR', locationIds: [loc.A] });
    expect((await call('PUT', `/api/users/${id}`, adminA, await asInput(adminA, id, { email: 'new@example.com' }))).statusCode).toBe(200);
    await signIn(t.app, 'pwuser', PASSWORD);
    expect((await call('PUT', `/api/users/${id}`, adminA, await asInput(adminA, id, { passwordHash: 'N3w-passw' }))).statusCode).toBe(200);
    const old = await t.app.inject({ method: 'POST', url: '/api/auth/', headers: { authorization: basic('pwuser', PASSWORD) } });
    expect(old.statusCode).toBe(401);
    await signIn(t.app, 'pwuser', 'N3w-passw');
    const short = await call('PUT', `/api/users/${id}`, adminA, await asInput(adminA, id, { passwordHash: 'short' }));
    expect(short.statusCode).toBe(400);
    expect(short.json().details[0].field).toBe('passwordHash');
    const log = await t.ctx.db.execute(sql`SELECT count(*)::int AS n FROM event_logs WHERE message_code = 'user.updated' AND object_id = ${id}`);
    expect((log.rows[0] as { n: number }).n).toBe(2);
  });

  it('refuses a login already taken, whatever its case (409, login)', async () => {
    const res = await call('POST', '/api/users', root, valid({ login: 'USERA' }));
    expect(res.statusCode).toBe(409);
    expect(res.json().details[0].field).toBe('login');
  });

  it('never returns the password hash', async () => {
    const body = (await call('GET', `/api/users/${ids.uA}`, root)).body;
    expect(body).not.toMatch(/argon2|password/i);
  });
});

describe('validation: 400 naming the field, in English and Russian', () => {
  const cases: [string, Payload, string, RegExp, RegExp][] = [
    ['short login', { login: 'ab' }, 'login', /3 to 128 characters/, /от 3 до 128 символов/i],
    ['login with bad characters', { login: 'bad login!' }, 'login', /letters, digits, @, _ and -/, /буквы, цифры, @, _ и -/],
    ['7-character password', { passwordHash: 'Abcd12!' }, 'passwordHash', /8 to 20 characters/, /от 8 до 20 символов/],
    ['21-character password', { passwordHash: 'A'.repeat(21) }, 'passwordHash', /8 to 20 characters/, /от 8 до 20 символов/],
    ['non-Latin password', { passwordHash: 'пароль12345' }, 'passwordHash', /Latin letters/, /латинские буквы/],
    ['mismatched confirmation', { passwordConfirmation: 'Passw0rd?' }, 'passwordConfirmation', /do not match/, /не совпадают/],
    ['no role', { grants: [] }, 'grants', /at least one role/, /хотя бы одну роль/],
    ['no location', { locations: [] }, 'locations', /at least one location/, /хотя бы одно расположение/],
    ['no last name', { lastName: '' }, 'lastName', /Required field/, /Обязательное поле/],
    ['bad e-mail', { email: 'not-an-email' }, 'email', /Invalid e-mail/, /Неверный адрес/],
    ['long first name', { firstName: 'x'.repeat(129) }, 'firstName', /too long/i, /Слишком длинное/],
    ['long e-mail', { email: `${'x'.repeat(250)}@example.com` }, 'email', /too long/i, /Слишком длинное/],
  ];
  for (const [name, over, field, en, ru] of cases) {
    it(name, async () => {
      for (const [lang, text] of [['en', en], ['ru', ru]] as const) {
        const res = await call('POST', '/api/users', root, valid(over), lang);
        expect(res.statusCode, res.body).toBe(400);
        const body = res.json();
        expect(body.code).toBe('VALIDATION');
        const detail = body.details.find((d: { field: string }) => d.field === field);
        expect(detail, `${lang}: ${res.body}`).toBeTruthy();
        expect(detail.message).toMatch(text);
        expect(body.message).toContain(field);
      }
    });
  }

  it('a new user needs a password', async () => {
    const res = await call('POST', '/api/users', root, valid({ passwordHash: undefined }), 'ru');
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([{ field: 'passwordHash', message: 'Для нового пользователя нужен пароль' }]);
  });

  it('a matching confirmation, when a client sends one, is accepted', async () => {
    const res = await call('POST', '/api/users', root, valid({ passwordConfirmation: PASSWORD }));
    expect(res.statusCode, res.body).toBe(200);
  });
});
