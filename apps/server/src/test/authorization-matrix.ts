import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_ROLES, ROLE_CODES, type Grant, type RoleCode } from '@pagewatch/contracts/grants';
import { sql } from 'drizzle-orm';
import { bearer, createTestApp, signIn, type TestApp } from './test-app.ts';
import { addLocation } from './scope-fixture.ts';
import { agentReading, batch, post } from '../modules/ingest/ingest.fixtures.ts';
import { CLOUD_ROUTES } from './authorization-routes-cloud.ts';
import { secretReachCases, secretRedirectionCases } from './authorization-secrets.ts';
import { PLUGIN_PREFIXES, ROUTES, VARIANTS } from './authorization-routes.ts';
import { callerAt, deviceAt, unique, userPayload, type Call, type Caller, type Fixture, type Method, type World } from './authorization-world.ts';
import type { RouteAccess } from '../plugins/access.ts';

/**
 * The authorisation matrix: every API route in `app.routeAccess` × each default role (ADMIN,
 * DEVELOPER, OPERATOR) × an object inside and outside the caller's locations.
 *
 *   DEFAULT ── IN ── IN_CHILD      callers (one per role) live at IN, so their scope is IN and
 *          └── OUT                 IN_CHILD; in-scope objects are made at IN_CHILD, out-of-scope
 *                                  ones at OUT.
 *
 * Expected: 401 without a token (every non-public route); 403 for a role without the route's
 * grant; with the grant, success for an object inside and 403 or 404 for one outside; a list
 * never returns a row from outside (and does return the inside ones).
 *
 * In cloud mode (`cloud: true`) IN and OUT are two customers (top-level locations under
 * DEFAULT); the callers sign in with their e-mail, which is their login there, and the routes
 * that cloud mode keeps at DEFAULT (CLOUD_ROUTES) are expected to refuse them.
 *
 * With `viaApiToken` every caller calls with a personal API token of theirs instead of their
 * session (issue 42): every outcome must be the same, but on the session-only routes (sign-out,
 * user management, the tokens themselves), which refuse a token with 403 whoever holds it.
 *
 * Each route's fixture is in `test/authorization-routes.ts` (ROUTES, and VARIANTS for a route's
 * other kinds of object), with how to add one.
 */
export async function authorizationMatrix(opts: { cloud: boolean; viaApiToken?: boolean }) {
  // The app is built at collection time so that every route gets its own named test.
  const t = await createTestApp({ cloud: opts.cloud });
  afterAll(() => t.close());

  const routes = t.app.routeAccess.filter((r) => !PLUGIN_PREFIXES.some((p) => r.url.startsWith(p)));

  const world = await matrixWorld(t, opts.cloud);

  const callers = {} as Record<RoleCode, Caller>;
  for (const role of ROLE_CODES) callers[role] = await callerAt(world, role, world.loc.IN, `matrix${role.toLowerCase()}`, opts.viaApiToken);
  // The matrix calls far faster than a token may (its throttle is tested in api-tokens.routes.test.ts).
  if (opts.viaApiToken) t.ctx.apiTokens.rate.perMinute = Number.MAX_SAFE_INTEGER;

  const holds = (role: RoleCode, r: RouteAccess, f: Fixture) => {
    const grants: Grant[] = DEFAULT_ROLES[role].grants;
    if ('needs' in f && f.needs && !grants.includes(f.needs)) return false;
    return r.access === 'user' || grants.includes(r.access as Grant);
  };
  const concrete = (url: string) => url.replace(/:(\w+)/g, (_, p: string) => (p === 'id' ? '1' : 'x'.repeat(20)));
  const send = (method: string, call: Call, token: string | null) =>
    t.app.inject({ method: method as Method, url: call.url, payload: call.payload as never, headers: token ? bearer(call.token ?? token) : {} });
  const success = (method: string, ok?: number) => ok ?? (method === 'DELETE' ? 204 : 200);

  const title = opts.cloud ? 'authorisation matrix, cloud mode: two customers' : 'authorisation matrix';
  describe(opts.viaApiToken ? `${title}, via API tokens` : title, () => {
    it('has an entry in ROUTES for every route', () => {
      const missing = routes.filter((r) => !(key(r) in ROUTES));
      const help = missing.map(missingRouteHelp);
      expect(missing.length, `\n${help.join('\n')}\n`).toBe(0);
    });

    it('covers routes of every kind of access', () => {
      expect(routes.filter((r) => r.access.includes('.')).length).toBeGreaterThan(5);
      expect(routes.some((r) => r.access === 'user')).toBe(true);
      expect(routes.some((r) => r.access === 'public')).toBe(true);
    });

    // A real agent of IN: its token opens the agent API and nothing a user reaches.
    let agentTokenAt: Promise<string> | null = null;
    const agentToken = () =>
      (agentTokenAt ??= world.asRoot('POST', '/api/agents', { name: unique('agent'), location: { id: world.loc.IN } }).then((a) => a.token as string));

    // A route's own case, then its VARIANTS (the other kinds of object it serves).
    const cases = routes.flatMap((r): [RouteAccess, string, Fixture | undefined][] => [
      [r, key(r), (opts.cloud ? CLOUD_ROUTES[key(r)] : undefined) ?? ROUTES[key(r)]],
      ...Object.entries(VARIANTS[key(r)] ?? {}).map(([what, f]): [RouteAccess, string, Fixture] => [r, `${key(r)}: ${what}`, f]),
    ]);
    for (const [r, name, f] of cases) {
      if (!f || f.kind === 'skip') continue;

      describe(name, () => {
        if (f.kind === 'public') {
          it('is open without a token', async () => {
            // It may still refuse what it is sent (sign-in without credentials is a 401
            // BAD_CREDENTIALS), but never for want of a session or a grant.
            const res = await send(r.method, { url: concrete(r.url) }, null);
            expect(['UNAUTHENTICATED', 'TOKEN_EXPIRED', 'FORBIDDEN', 'OUT_OF_SCOPE'], res.body).not.toContain(res.json().code);
          });
          return;
        }

        it('refuses a call without a token (401)', async () => {
          const res = await send(r.method, { url: concrete(r.url) }, null);
          expect(res.statusCode, res.body).toBe(401);
        });

        if (f.kind !== 'agent') {
          it("refuses an agent's token (401: users only)", async () => {
            const res = await send(r.method, { url: concrete(r.url) }, await agentToken());
            expect(res.statusCode, res.body).toBe(401);
          });
        }

        if (opts.viaApiToken && r.sessionOnly) {
          it('refuses every API token (403: session only)', async () => {
            for (const role of ROLE_CODES) {
              const call = f.kind === 'self' ? await f.request(world, callers[role]) : f.kind === 'item' ? await f.request(world, world.loc.IN_CHILD) : { url: concrete(r.url) };
              const res = await send(r.method, { ...call, token: undefined }, callers[role].token);
              expect(res.statusCode, `${role}: ${res.body}`).toBe(403);
            }
          });
          return;
        }

        for (const role of ROLE_CODES) {
          const c = () => callers[role];
          if (f.kind === 'agent') {
            it(`refuses ${role}'s user token (401: agents only)`, async () => {
              expect((await send(r.method, { url: concrete(r.url) }, c().token)).statusCode).toBe(401);
            });
            continue;
          }
          const granted = holds(role, r, f);

          if (f.kind === 'item') {
            it(`${role}: ${granted ? 'inside succeeds, outside 403/404' : '403 inside and outside'}`, async () => {
              const inside = await send(r.method, await f.request(world, world.loc.IN_CHILD), c().token);
              const outside = await send(r.method, await f.request(world, world.loc.OUT), c().token);
              if (!granted) {
                expect(inside.statusCode, inside.body).toBe(403);
                expect(outside.statusCode, outside.body).toBe(403);
                return;
              }
              expect(inside.statusCode, inside.body).toBe(success(r.method, f.ok));
              expect([403, 404], `outside: ${outside.statusCode} ${outside.body}`).toContain(outside.statusCode);
            });
          } else if (f.kind === 'instance') {
            it(`${role}: 403 below DEFAULT, whatever the grants; the default admin succeeds`, async () => {
              const res = await send(r.method, await f.request(world), c().token);
              expect(res.statusCode, res.body).toBe(403);
              expect((await send(r.method, await f.request(world), world.root)).statusCode).toBe(success(r.method, f.ok));
            });
          } else if (f.kind === 'list') {
            it(`${role}: ${granted ? 'never lists a row from outside' : '403'}`, async () => {
              const seeded = await f.seed(world);
              const res = await send(r.method, f.request(world), c().token);
              if (!granted) return void expect(res.statusCode, res.body).toBe(403);
              expect(res.statusCode, res.body).toBe(200);
              const ids: number[] = (f.rows ?? ((b) => b.pageRows.map((x: { id: number }) => x.id)))(res.json());
              expect(ids.filter((id) => seeded.outside.includes(id)), 'rows from outside the scope').toEqual([]);
              expect(seeded.inside.filter((id) => !ids.includes(id)), 'rows from inside the scope missing').toEqual([]);
            });
          } else {
            it(`${role}: ${granted ? 'succeeds' : '403'}`, async () => {
              const call = f.kind === 'global' ? await f.request(world) : await f.request(world, c());
              const res = await send(r.method, call, c().token);
              expect(res.statusCode, res.body).toBe(granted ? success(r.method, f.ok) : 403);
            });
          }
        }
      });
    }

    // Invariant 7 of security.md: write-only secrets are not sent elsewhere by who does not know them.
    secretRedirectionCases(world, callers);
    secretReachCases(world, opts.viaApiToken ?? false);

    agentReadingsScopeCase(world);
  });
}

const key = (r: RouteAccess) => `${r.method} ${r.url}`;

/** What to add to ROUTES for a route that has no entry there. */
function missingRouteHelp(r: RouteAccess): string {
  const item = /:\w+/.test(r.url);
  const example = item
    ? `{ kind: 'item', request: async (w, at) => ({ url: \`${r.url.replace(/:id\b/, '${await makeYourThingAt(w, at)}')}\` }) }`
    : `{ kind: 'list', seed: async (w) => ({ inside: [/* ids made at w.loc.IN_CHILD */], outside: [/* at w.loc.OUT */] }), request: () => ({ url: '${r.url}?page=1000,1' }) }`;
  return (
    `  '${key(r)}' (access ${r.access}) has no entry in ROUTES of apps/server/src/plugins/authorization-matrix.test.ts.\n` +
    `    Add, for example:  '${key(r)}': ${example},\n` +
    `    (kinds: item, list, global, self, public, agent, skip: see "ADDING A ROUTE" at the top of that file).`
  );
}

/** Locations DEFAULT ── IN ── IN_CHILD and OUT, the default admin's session, and the role ids. */
async function matrixWorld(t: TestApp, cloud: boolean): Promise<World> {
  const loc = { DEFAULT: 1, IN: 0, IN_CHILD: 0, OUT: 0 };
  loc.IN = await addLocation(t.ctx.db, 'MX_IN');
  loc.IN_CHILD = await addLocation(t.ctx.db, 'MX_IN_CHILD', 'MX_IN');
  loc.OUT = await addLocation(t.ctx.db, 'MX_OUT');
  const root = await signIn(t.app);
  const asRoot: World['asRoot'] = async (method, url, payload) => {
    const res = await t.app.inject({ method, url, payload: payload as never, headers: bearer(root) });
    if (res.statusCode >= 300) throw new Error(`fixture call ${method} ${url} failed: ${res.statusCode} ${res.body}`);
    return res.body ? res.json() : null;
  };
  const roleIds: Record<string, number> = {};
  for (const r of (await asRoot('GET', '/api/managed-roles-v/')).pageRows) roleIds[r.code] = r.id;
  const w: World = {
    app: t.app,
    ctx: t.ctx,
    root,
    loc,
    roleIds,
    asRoot,
    cloud,
    userAt: async (locationId) => (await asRoot('POST', '/api/users', userPayload(w, locationId))).id,
  };
  return w;
}

/** Invariant 4 of security.md: an agent's readings touch only devices of its locations. */
function agentReadingsScopeCase(world: World) {
  it("an agent at IN updates a device at IN_CHILD by serial; one at OUT or DEFAULT with the same serial stays as it was", async () => {
    const agent = await world.asRoot('POST', '/api/agents', { name: unique('agent'), location: { id: world.loc.IN } });
    const devices = { inside: await deviceAt(world, world.loc.IN_CHILD), out: await deviceAt(world, world.loc.OUT), parent: await deviceAt(world, world.loc.DEFAULT) };
    const state = async (id: number) =>
      (await world.ctx.db.execute(sql`SELECT serial_number, location_id, agent_id, ip, total_count::float8 AS total FROM devices WHERE id = ${id}`)).rows[0] as { serial_number: string; location_id: number; agent_id: number | null; ip: string; total: number | null };
    const before = { out: await state(devices.out), parent: await state(devices.parent) };
    const readings = await Promise.all(Object.values(devices).map(async (id, i) => agentReading(`127.0.250.${i + 1}`, { serial: (await state(id)).serial_number, vendor: 'Matrix', total: 4242 })));
    const res = await post(world.app, agent.token, batch(readings));
    expect(res.statusCode, res.body).toBe(200);
    expect(await state(devices.inside)).toMatchObject({ agent_id: agent.id, location_id: world.loc.IN_CHILD, total: 4242 });
    expect(await state(devices.out)).toEqual(before.out);
    expect(await state(devices.parent)).toEqual(before.parent);
    for (const d of [before.out, before.parent]) {
      const copies = (await world.ctx.db.execute(sql`SELECT location_id, agent_id FROM devices WHERE serial_number = ${d.serial_number} ORDER BY id`)).rows;
      expect(copies).toEqual([{ location_id: d.location_id, agent_id: null }, { location_id: world.loc.IN, agent_id: agent.id }]);
    }
  });
}
