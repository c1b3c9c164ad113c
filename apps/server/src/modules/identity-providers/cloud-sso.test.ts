import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { basic, bearer, signIn, testApp } from '../../test/test-app.ts';
import { addLocation } from '../../test/scope-fixture.ts';
import { startSlapd, type Slapd } from '../../test/ldap-server.ts';

/**
 * Cloud mode (issue 55): each customer's location may have its own directory, and a user of one
 * customer's provider never reaches another customer. The probe: no mapping to another customer
 * can be saved, by the customer's admin or by the default administrator; and one forced into the
 * database is ignored at sign-in.
 */
const t = testApp({ cloud: true });
let slapd: Slapd;
/** The two customers' locations, and the roles by code. */
let acme: number, globex: number, roles: Record<string, number>;
let acmeAdmin: string;
const PASS = 'Dir-pass-1';

const payload = (locationId: number, mappings: { group: string; roleId: number; locationId: number }[]) => ({
  kind: 'LDAP', name: `Directory ${locationId}`, locationId, enabled: true, allowInternal: true, secret: 'reader-Secret-1', mappings, ldap: slapd.settings(),
});
const post = (body: unknown, token: string) => t.app.inject({ method: 'POST', url: '/api/identity-providers', headers: bearer(token), payload: body as object });
const ldapSignIn = (id: number, login: string, at = 'ACME') => t.app.inject({ method: 'POST', url: `/api/auth/providers/${id}?at=${at}`, headers: { authorization: basic(login, PASS) } });
const choices = async (query = '') => (await t.app.inject({ url: `/api/auth/providers${query}` })).json() as { id: number; name: string }[];

beforeAll(async () => {
  slapd = await startSlapd([
    { uid: 'anna', password: PASS, mail: 'Anna@acme.test', sn: 'Karpova', groups: ['acme-admins', 'globex-admins'] },
    { uid: 'boris', password: PASS, mail: 'boris@globex.test', sn: 'B', groups: ['globex-admins'] },
    { uid: 'clash', password: PASS, mail: 'owner@globex.test', sn: 'C', groups: ['acme-admins'] },
    { uid: 'dina', password: PASS, mail: 'dina@acme.test', sn: 'D', groups: ['acme-admins'] },
  ]);
  acme = await addLocation(t.ctx.db, 'ACME');
  globex = await addLocation(t.ctx.db, 'GLOBEX');
  const rows = (await t.app.inject({ url: '/api/managed-roles-v/', headers: bearer(t.admin) })).json().pageRows as { id: number; code: string }[];
  roles = Object.fromEntries(rows.map((r) => [r.code, r.id]));
  const user = (email: string, location: number) => ({ login: email, email, passwordHash: 'Passw0rd!', lastName: 'Local', activeFlag: true, locations: [{ id: location }], grants: [{ id: roles.ADMIN }] });
  for (const [email, location] of [['boss@acme.test', acme], ['owner@globex.test', globex]] as const) {
    expect((await t.app.inject({ method: 'POST', url: '/api/users', headers: bearer(t.admin), payload: user(email, location) })).statusCode).toBe(200);
  }
  acmeAdmin = await signIn(t.app, 'boss@acme.test', 'Passw0rd!');
});
afterAll(() => slapd?.close());

describe('a customer\'s identity provider', () => {
  it('is the customer\'s admin\'s to set, at their location only', async () => {
    expect((await post(payload(acme, [{ group: 'acme-admins', roleId: roles.ADMIN, locationId: acme }]), acmeAdmin)).statusCode).toBe(200);
    expect((await post(payload(globex, []), acmeAdmin)).statusCode).toBe(403);
  });

  it('cannot map a group to another customer\'s location, whoever sets it', async () => {
    for (const token of [acmeAdmin, t.admin]) {
      const res = await post(payload(acme, [{ group: 'globex-admins', roleId: roles.ADMIN, locationId: globex }]), token);
      expect(res.statusCode).toBe(400);
      expect(res.json().details[0].field).toBe('mappings.0.locationId');
    }
  });

  it('never gives another customer\'s location at sign-in, even from a mapping forced into the database', async () => {
    const id = (await post(payload(acme, [{ group: 'acme-admins', roleId: roles.ADMIN, locationId: acme }]), acmeAdmin)).json().id;
    await t.ctx.db.execute(sql`INSERT INTO identity_provider_mappings (provider_id, group_name, role_id, location_id) VALUES (${id}, 'globex-admins', ${roles.ADMIN}, ${globex})`);
    const res = await ldapSignIn(id, 'anna');
    expect(res.statusCode, res.body).toBe(200);
    // The login is the e-mail in cloud mode, as for every user there.
    expect(res.json().user.login).toBe('anna@acme.test');
    const me = (await t.app.inject({ url: '/api/users/me', headers: bearer(res.json().token) })).json();
    expect(me.locations.map((l: { id: number }) => l.id)).toEqual([acme]);
    expect((await t.app.inject({ url: `/api/dictionary-items/${globex}`, headers: bearer(res.json().token) })).statusCode).not.toBe(200);
    // Whose only group is the other customer's gets nothing at all.
    expect((await ldapSignIn(id, 'boris')).statusCode).toBe(403);
  });

  it('does not take over another customer\'s local account with the same e-mail', async () => {
    const id = (await post(payload(acme, [{ group: 'acme-admins', roleId: roles.ADMIN, locationId: acme }]), acmeAdmin)).json().id;
    expect((await ldapSignIn(id, 'clash')).statusCode).toBe(409);
    expect((await t.ctx.db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM users WHERE lower(login) = 'owner@globex.test'`)).rows[0]!.n).toBe(1);
    await signIn(t.app, 'owner@globex.test', 'Passw0rd!');
  });
});

describe('the login page in cloud mode', () => {
  it('lists no provider without a location\'s sign-in address, and that location\'s only with it', async () => {
    const mine = (await post({ ...payload(acme, [{ group: 'acme-admins', roleId: roles.ADMIN, locationId: acme }]), name: 'ACME Active Directory' }, acmeAdmin)).json().id;
    const theirs = (await post({ ...payload(globex, [{ group: 'globex-admins', roleId: roles.ADMIN, locationId: globex }]), name: 'Globex Okta' }, t.admin)).json().id;
    expect(await choices()).toEqual([]);
    const acmes = await choices('?at=acme');
    expect(acmes.map((p) => p.id)).toContain(mine);
    expect(acmes.map((p) => p.name)).not.toContain('Globex Okta');
    expect((await choices('?at=GLOBEX')).map((p) => p.name)).toEqual(['Globex Okta']);
    expect(await choices('?at=NOSUCH')).toEqual([]);
    expect(theirs).toBeGreaterThan(mine);
  });

  it('signs in with a provider from its own location\'s address only: another\'s, or none, is as missing', async () => {
    const id = (await post(payload(acme, [{ group: 'acme-admins', roleId: roles.ADMIN, locationId: acme }]), acmeAdmin)).json().id;
    expect((await ldapSignIn(id, 'dina', 'GLOBEX')).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: `/api/auth/providers/${id}`, headers: { authorization: basic('dina', PASS) } })).statusCode).toBe(404);
    expect((await ldapSignIn(id, 'dina', 'acme')).statusCode).toBe(200);
  });
});

