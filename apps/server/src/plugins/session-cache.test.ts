import { describe, expect, it } from 'vitest';
import { bearer, createUser, signIn, testApp } from '../test/test-app.ts';

/** The cache of resolved sessions must never keep a change from taking effect on this instance. */
const t = testApp({ sessionCacheMs: 60_000 });

const me = (token: string) => t.app.inject({ url: '/api/users/me', headers: bearer(token) });

describe('cached sessions', () => {
  it('end at once on logout', async () => {
    const token = await signIn(t.app);
    expect((await me(token)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(token) })).statusCode).toBe(204);
    expect((await me(token)).statusCode).toBe(401);
  });

  it('follow a change of the user at once: roles, then deactivation', async () => {
    const id = await createUser(t.app, t.admin, { login: 'cached-op', password: 'Operat0r!', role: 'OPERATOR', locationIds: [1] });
    const op = await signIn(t.app, 'cached-op', 'Operat0r!');
    expect((await t.app.inject({ url: '/api/users', headers: bearer(op) })).statusCode).toBe(403);
    const user = (await t.app.inject({ url: `/api/users/${id}`, headers: bearer(t.admin) })).json();
    const roles = (await t.app.inject({ url: '/api/managed-roles-v/', headers: bearer(t.admin) })).json().pageRows as { id: number; code: string }[];
    const asAdmin = { ...user, grants: [{ id: roles.find((r) => r.code === 'ADMIN')!.id }], locations: user.locations.map((l: { id: number }) => ({ id: l.id })) };
    expect((await t.app.inject({ method: 'PUT', url: `/api/users/${id}`, headers: bearer(t.admin), payload: asAdmin })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/users', headers: bearer(op) })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'PUT', url: `/api/users/${id}`, headers: bearer(t.admin), payload: { ...asAdmin, activeFlag: false } })).statusCode).toBe(200);
    expect((await me(op)).statusCode).toBe(401);
  });

  // The locations' service announces the change itself; no list of routes in app.ts does (issue 40).
  it('follow a change of the location tree at once: a new location is in scope, a removed one is not', async () => {
    const dictionaryId = (await t.app.inject({ url: '/api/dictionaries/by-code/LOCATION', headers: bearer(t.admin) })).json().id as number;
    expect((await t.app.inject({ url: '/api/locations/1/agents', headers: bearer(t.admin) })).statusCode).toBe(200);
    const made = await t.app.inject({ method: 'POST', url: '/api/dictionary-items', headers: bearer(t.admin), payload: { dictionaryId, code: 'CACHED-NEW', name: 'New', parentId: 1, sortOrder: 0 } });
    expect(made.statusCode).toBe(200);
    const id = made.json().id as number;
    expect((await t.app.inject({ url: `/api/locations/${id}/agents`, headers: bearer(t.admin) })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/dictionary-items/${id}`, headers: bearer(t.admin) })).statusCode).toBe(204);
    expect((await t.app.inject({ url: `/api/locations/${id}/agents`, headers: bearer(t.admin) })).statusCode).not.toBe(200);
  });
});
