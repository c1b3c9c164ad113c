import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ADMIN_PASSWORD, basic, createUser, signIn, testApp } from '../../test/test-app.ts';

/**
 * docs/security.md invariant 6 (issue 14, item 6): throttling slows attackers, not users. Per
 * login and address, with a growing delay, counted atomically; forgot-password and demo
 * requests are limited too and never tell whether a login exists.
 */
const t = testApp({ publicUrl: 'https://console.example.com', signIn: false });
const PASSWORD = 'Passw0rd!';

beforeAll(async () => {
  const admin = await signIn(t.app);
  for (const login of ['victim', 'backoff', 'racer', 'office1', 'office2']) {
    await createUser(t.app, admin, { login, password: PASSWORD, role: 'OPERATOR', locationIds: [1] });
  }
});

const attempt = (login: string, password: string, remoteAddress: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/', headers: { authorization: basic(login, password) }, remoteAddress });

/** Lets the running delay of every counter of `login` pass, as if its time had come. */
const waitOut = (login: string) => t.ctx.db.execute(sql`UPDATE auth_throttle SET next_at = now() - interval '1 second' WHERE key LIKE ${`%${login}%`}`);

describe('sign-in throttling', () => {
  it('an attacker failing for a login from one address does not keep the real user out elsewhere', async () => {
    for (let i = 0; i < 8; i++) await attempt('admin', 'wrong', '203.0.113.66');
    expect((await attempt('admin', 'wrong', '203.0.113.66')).statusCode).toBe(429);
    expect((await attempt('admin', ADMIN_PASSWORD, '10.1.1.1')).statusCode).toBe(200);
  });

  it('grows the delay with each failure in a row (Retry-After 1, 2, 4 s) instead of locking out', async () => {
    const from = '198.51.100.7';
    for (let i = 0; i < 5; i++) expect((await attempt('backoff', 'wrong', from)).statusCode).toBe(401);
    const retries: number[] = [];
    for (let i = 0; i < 3; i++) {
      const blocked = await attempt('backoff', 'wrong', from);
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().code).toBe('TOO_MANY_ATTEMPTS');
      retries.push(Number(blocked.headers['retry-after']));
      await waitOut('backoff');
      expect((await attempt('backoff', 'wrong', from)).statusCode).toBe(401);
    }
    expect(retries).toEqual([1, 2, 4]);
    // Once the delay has run, the right password gets in and the count starts again.
    await waitOut('backoff');
    expect((await attempt('backoff', PASSWORD, from)).statusCode).toBe(200);
    expect((await attempt('backoff', 'wrong', from)).statusCode).toBe(401);
  });

  it('30 failures with made-up logins from one address do not keep that address\'s users out', async () => {
    const office = '192.0.2.10';
    for (let i = 0; i < 30; i++) await attempt(`madeup${i}`, 'wrong', office);
    expect((await attempt('office1', PASSWORD, office)).statusCode).toBe(200);
    expect((await attempt('office2', PASSWORD, office)).statusCode).toBe(200);
  });

  it('40 concurrent wrong passwords are checked at most 5 times', async () => {
    const results = await Promise.all(Array.from({ length: 40 }, () => attempt('racer', 'wrong', '198.51.100.99')));
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 401).length).toBeLessThanOrEqual(5);
    expect(codes.filter((c) => c === 429).length).toBeGreaterThanOrEqual(35);
    expect(codes.every((c) => c === 401 || c === 429)).toBe(true);
    const logged = await t.ctx.db.execute(sql`SELECT count(*)::int AS n FROM event_logs WHERE message_code = 'auth.failed' AND message LIKE '%"racer"%'`);
    expect(Number((logged.rows[0] as { n: number }).n)).toBe(codes.filter((c) => c === 401).length);
  });
});

describe('forgot-password and demo requests', () => {
  const forgot = (login: string, remoteAddress: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { login }, remoteAddress });

  it('are limited per login, and a known and an unknown login get the same answers', async () => {
    // No SMTP here: every answer is SMTP_NOT_CONFIGURED until the limit, the same for both.
    const known: string[] = [];
    const unknown: string[] = [];
    for (let i = 0; i < 6; i++) {
      const k = await forgot('victim', `10.9.0.${i + 1}`);
      const u = await forgot('ghost-user', `10.9.1.${i + 1}`);
      known.push(`${k.statusCode} ${k.body}`);
      unknown.push(`${u.statusCode} ${u.body}`);
    }
    expect(known).toEqual(unknown);
    expect(known.at(-1)).toMatch(/^429 .*TOO_MANY_ATTEMPTS/);
  });

  it('are limited per address', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 15; i++) codes.push((await forgot(`someone${i}`, '10.8.0.1')).statusCode);
    expect(codes.at(-1)).toBe(429);
    const demo = { email: 'ivan@example.com', fullName: 'Ivan Petrov', phone: '+7 (495) 123-45-67', company: 'Acme' };
    const demoCodes: number[] = [];
    for (let i = 0; i < 10; i++) demoCodes.push((await t.app.inject({ method: 'POST', url: '/api/auth/demo-request', payload: demo, remoteAddress: '10.8.0.2' })).statusCode);
    expect(demoCodes[0]).toBe(200);
    expect(demoCodes.at(-1)).toBe(429);
    const ru = await t.app.inject({ method: 'POST', url: '/api/auth/demo-request', payload: demo, remoteAddress: '10.8.0.2', headers: { 'accept-language': 'ru' } });
    expect(ru.json().message).toMatch(/^Слишком много запросов; повторите через \d+ с$/);
  });
});

describe('clean-up', () => {
  it('the daily job deletes counters idle for a day and keeps the rest', async () => {
    await t.ctx.db.execute(sql`INSERT INTO auth_throttle (key, count, next_at, updated_at) VALUES ('signin:old|1.2.3.4', 3, now() - interval '2 days', now() - interval '2 days')`);
    const before = Number(((await t.ctx.db.execute(sql`SELECT count(*)::int AS n FROM auth_throttle`)).rows[0] as { n: number }).n);
    await t.ctx.jobs.runNow('auth-throttle-pruning');
    const after = Number(((await t.ctx.db.execute(sql`SELECT count(*)::int AS n FROM auth_throttle`)).rows[0] as { n: number }).n);
    expect(after).toBe(before - 1);
    const logged = await t.ctx.db.execute(sql`SELECT message FROM event_logs WHERE message_code = 'job.auth-throttle-pruning'`);
    expect((logged.rows[0] as { message: string }).message).toBe('Sign-in throttling clean-up: deleted 1 idle counters');
  });
});
