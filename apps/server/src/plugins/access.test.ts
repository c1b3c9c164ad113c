import { beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { hasGrant, type ResolvedGrant } from '@pagewatch/contracts/grants';
import { bearer, createUser, signIn, testApp } from '../test/test-app.ts';
import { setupAccess } from './access.ts';

const t = testApp({ signIn: false });
let operatorToken: string;
let operatorGrants: ResolvedGrant[];

beforeAll(async () => {
  const admin = await signIn(t.app);
  await createUser(t.app, admin, { login: 'operator', password: 'Operat0r!', role: 'OPERATOR', locationIds: [1] });
  operatorToken = await signIn(t.app, 'operator', 'Operat0r!');
  operatorGrants = (await t.app.inject({ url: '/api/users/me', headers: bearer(operatorToken) })).json().resolvedGrants;
});

const concrete = (url: string) => url.replace(/:id\b/g, '1').replace(/:token\b/g, 'x'.repeat(20)).replace(/:(\w+)/g, 'x');

describe('every route declares and enforces its access', () => {
  it('has routes to check', () => {
    expect(t.app.routeAccess.length).toBeGreaterThan(10);
  });

  it('refuses a missing or bad token with 401 on every non-public route', async () => {
    for (const r of t.app.routeAccess.filter((r) => r.access !== 'public')) {
      const none = await t.app.inject({ method: r.method as 'GET', url: concrete(r.url) });
      expect(none.statusCode, `${r.method} ${r.url} without token`).toBe(401);
      const bad = await t.app.inject({ method: r.method as 'GET', url: concrete(r.url), headers: bearer('not-a-token') });
      expect(bad.statusCode, `${r.method} ${r.url} with a bad token`).toBe(401);
      expect(bad.json().code).toBe('UNAUTHENTICATED');
    }
  });

  it('refuses a caller without the grant with 403', async () => {
    const guarded = t.app.routeAccess.filter((r) => r.access.includes('.') && !hasGrant(operatorGrants, r.access as never));
    expect(guarded.length).toBeGreaterThan(3);
    for (const r of guarded) {
      const res = await t.app.inject({ method: r.method as 'GET', url: concrete(r.url), headers: bearer(operatorToken) });
      expect(res.statusCode, `${r.method} ${r.url} as OPERATOR`).toBe(403);
    }
  });

  it('refuses an agent token on user routes', async () => {
    const res = await t.app.inject({ url: '/api/users/me', headers: bearer('agent-token-that-is-not-a-session') });
    expect(res.statusCode).toBe(401);
  });

  it('makes an undeclared API route a start-up error', async () => {
    const app = Fastify();
    setupAccess(app, async () => null, async () => null, { resolve: async () => null, used: async () => {} });
    expect(() => app.get('/api/open', async () => 'oops')).toThrow(/declares no access/);
  });
});
