import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../../config.ts';
import { ADMIN_PASSWORD, basic, createUser, signIn, testApp } from '../../test/test-app.ts';

/**
 * docs/security.md invariant 6 (issue 39): throttling behind a reverse proxy counts the address
 * the proxy saw, not one the client wrote into X-Forwarded-For; and failures on one login from
 * many addresses are slowed per account, while a browser the owner signed in from before (its
 * device cookie) is not.
 *
 * The server trusts a proxy on its machine (TRUST_PROXY=true); the proxy is inject's socket
 * address (127.0.0.1) and appends the address of whoever connected to it, as nginx's
 * $proxy_add_x_forwarded_for does.
 */
const t = testApp({ trustProxy: loadConfig({ TRUST_PROXY: 'true' }).trustProxy, signIn: false });
const PASSWORD = 'Passw0rd!';
/** Throttling's time stands still here (a delay never runs out while a loop runs) until moved. */
let now = Date.now();

beforeAll(async () => {
  t.ctx.auth.clock.now = () => now;
  const admin = await signIn(t.app);
  for (const login of ['office1', 'owner', 'racer2']) {
    await createUser(t.app, admin, { login, password: PASSWORD, role: 'OPERATOR', locationIds: [1] });
  }
});

type Attempt = { login: string; password: string; client: string; forged?: string; cookie?: string; lang?: string };
const viaProxy = (a: Attempt) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/',
    remoteAddress: '127.0.0.1',
    headers: {
      authorization: basic(a.login, a.password),
      'x-forwarded-for': a.forged ? `${a.forged}, ${a.client}` : a.client,
      ...(a.cookie ? { cookie: a.cookie } : {}),
      ...(a.lang ? { 'accept-language': a.lang } : {}),
    },
  });

/** The device cookie a successful sign-in sets, as the browser sends it back. */
const deviceCookie = (res: Awaited<ReturnType<typeof viaProxy>>) => {
  const set = [res.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('pagewatch_device='));
  expect(set).toBeDefined();
  return set!.split(';')[0];
};

/** Lets the running delay of every counter pass (the longest is 15 minutes), not the count. */
const waitOut = () => {
  now += 16 * 60_000;
};

describe('behind a trusted proxy', () => {
  it('200 guesses with forged X-Forwarded-For values are slowed, and do not spend the named address\'s budget', async () => {
    const attacker = '203.0.113.50';
    const office = '10.0.0.6';
    const codes: number[] = [];
    for (let i = 0; i < 200; i++) {
      // Half name a new address each time, half the office's; each guesses a login of its own.
      const forged = i % 2 ? office : `198.18.${i >> 8}.${i & 255}`;
      codes.push((await viaProxy({ login: `guess${i}`, password: 'wrong', client: attacker, forged })).statusCode);
    }
    // The attacker's own address is counted: 100 free failures (throttle.ts), then 429s.
    expect(codes).toEqual([...Array(100).fill(401), ...Array(100).fill(429)]);
    expect((await viaProxy({ login: 'office1', password: PASSWORD, client: office })).statusCode).toBe(200);
  });

  it('naming the administrator\'s address in X-Forwarded-For does not lock the administrator out', async () => {
    const admins = '10.0.0.5';
    for (let i = 0; i < 8; i++) await viaProxy({ login: 'admin', password: 'wrong', client: '203.0.113.51', forged: admins });
    expect((await viaProxy({ login: 'admin', password: ADMIN_PASSWORD, client: admins })).statusCode).toBe(200);
  });
});

describe('per account', () => {
  let ownersCookie: string;

  it('a successful sign-in marks the browser with a device cookie', async () => {
    const before = await viaProxy({ login: 'owner', password: PASSWORD, client: '10.0.0.9' });
    expect(before.statusCode).toBe(200);
    ownersCookie = deviceCookie(before);
    expect(before.headers['set-cookie']).toMatch(/HttpOnly; SameSite=Strict/);
  });

  it('125 guesses on one login over 25 addresses are slowed, the same for a login that does not exist', async () => {
    const run = async (login: string, net: string) => {
      const codes: number[] = [];
      for (let a = 0; a < 25; a++) for (let i = 0; i < 5; i++) codes.push((await viaProxy({ login, password: 'wrong', client: `${net}.${a}` })).statusCode);
      return codes;
    };
    const owner = await run('owner', '198.51.100');
    const ghost = await run('ghost-owner', '198.51.101');
    // 10 free failures on the account (throttle.ts), then 429s, although each address tried 5 times only.
    expect(owner).toEqual([...Array(10).fill(401), ...Array(115).fill(429)]);
    expect(ghost).toEqual(owner);
  });

  it('refuses the owner in a new browser with 429 and Retry-After in the user\'s language until the back-off has run', async () => {
    const fresh = await viaProxy({ login: 'owner', password: PASSWORD, client: '10.0.0.10' });
    expect(fresh.statusCode).toBe(429);
    expect(fresh.json().code).toBe('TOO_MANY_ATTEMPTS');
    expect(Number(fresh.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const ru = await viaProxy({ login: 'owner', password: PASSWORD, client: '10.0.0.10', lang: 'ru' });
    expect(ru.json().message).toMatch(/^Слишком много неудачных попыток входа под этим именем; повторите через \d+ с/);
    // A made-up or another user's device cookie exempts nothing.
    const forged = await viaProxy({ login: 'owner', password: PASSWORD, client: '10.0.0.11', cookie: 'pagewatch_device=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' });
    expect(forged.statusCode).toBe(429);
    const others = deviceCookie(await viaProxy({ login: 'office1', password: PASSWORD, client: '10.0.0.12' }));
    expect((await viaProxy({ login: 'owner', password: PASSWORD, client: '10.0.0.12', cookie: others })).statusCode).toBe(429);
  });

  it('the owner\'s known browser signs in during the attack', async () => {
    expect((await viaProxy({ login: 'owner', password: PASSWORD, client: '10.0.0.9', cookie: ownersCookie })).statusCode).toBe(200);
    // Even from another address (a laptop that moved).
    expect((await viaProxy({ login: 'owner', password: PASSWORD, client: '10.0.0.13', cookie: ownersCookie })).statusCode).toBe(200);
    // Once the delay has run, the right password gets in from a new browser too: a back-off, not a lockout.
    waitOut();
    expect((await viaProxy({ login: 'owner', password: PASSWORD, client: '10.0.0.14' })).statusCode).toBe(200);
  });

  it('a known browser\'s own failures are slowed on their own (a stolen cookie is no free pass)', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 7; i++) codes.push((await viaProxy({ login: 'owner', password: 'wrong', client: `10.0.1.${i}`, cookie: ownersCookie })).statusCode);
    expect(codes).toEqual([401, 401, 401, 401, 401, 429, 429]);
    waitOut();
  });

  it('a browser shared by users is known for each, and a user keeps their 20 latest browsers', async () => {
    const owners = await viaProxy({ login: 'owner', password: PASSWORD, client: '10.0.2.1', cookie: ownersCookie });
    const shared = deviceCookie(await viaProxy({ login: 'office1', password: PASSWORD, client: '10.0.2.1', cookie: deviceCookie(owners) }));
    expect(shared.split('.')).toHaveLength(2);
    for (let i = 0; i < 22; i++) await viaProxy({ login: 'racer2', password: PASSWORD, client: `10.0.3.${i}` });
    const kept = await t.ctx.db.execute(sql`SELECT count(*)::int AS n FROM known_devices d JOIN users u ON u.id = d.user_id WHERE u.login = 'racer2'`);
    expect(Number((kept.rows[0] as { n: number }).n)).toBe(20);
  });

  it('40 concurrent guesses on one login from 40 addresses are checked at most 10 times', async () => {
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => viaProxy({ login: 'racer2', password: 'wrong', client: `192.0.2.${i + 1}` })));
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 401).length).toBeLessThanOrEqual(10);
    expect(codes.every((c) => c === 401 || c === 429)).toBe(true);
  });
});
