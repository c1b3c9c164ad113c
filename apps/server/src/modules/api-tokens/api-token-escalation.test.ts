import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, signIn, testApp, ADMIN_PASSWORD } from '../../test/test-app.ts';
import { mailbox, type Mailbox } from '../../test/mailbox.ts';

/**
 * Issue 52, finding 2: a read-write API token must not become a session. Whatever can redirect
 * mail, links or secrets (SMTP and the other settings, notification channels, notifications and
 * their recipients, the suppliers' addresses, a new agent token) is for a session alone: pointed
 * at the attacker's SMTP server, "forgot password" would mail them the token's user's password.
 */
const t = testApp({ publicUrl: 'http://console.example.com' });
let box: Mailbox;
let token: string;

beforeAll(async () => {
  box = await mailbox();
  const res = await t.app.inject({ method: 'POST', url: '/api/users/me/tokens', headers: bearer(t.admin), payload: { name: 'ci', expiresInDays: 1 } });
  expect(res.statusCode, res.body).toBe(200);
  token = res.json().token;
});
afterAll(() => box.close());

const smtpToBox = () => [
  { code: 'SMTP_HOST', stringValue: '127.0.0.1' }, { code: 'SMTP_PORT', numericValue: box.port }, { code: 'SMTP_SSL', flagValue: false },
  { code: 'SMTP_START-TLS', stringValue: 'DISABLED' }, { code: 'SMTP_FROM', stringValue: 'attacker@example.com' },
];

describe("an API token cannot redirect mail, links or secrets", () => {
  it("cannot point SMTP elsewhere, so the token's user's password reset never reaches its holder", async () => {
    const res = await t.app.inject({ method: 'PUT', url: '/api/settings', headers: bearer(token), payload: smtpToBox() });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().message).toBe('This cannot be done with an API token; sign in to the console');
    const ru = await t.app.inject({ method: 'PUT', url: '/api/settings', headers: { ...bearer(token), 'accept-language': 'ru' }, payload: smtpToBox() });
    expect(ru.json().message).toBe('Это нельзя сделать с API-токеном; войдите в консоль');
    // The rest of the attack finds the instance's SMTP where the default admin left it.
    await t.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { login: 'admin' } });
    await new Promise((r) => setTimeout(r, 300));
    expect(box.received).toEqual([]);
    expect(await signIn(t.app, 'admin', ADMIN_PASSWORD)).toBeTruthy();
  });

  it('is refused on every route that sends mail or secrets somewhere a request names', async () => {
    const routes: [string, string][] = [
      ['GET', '/api/settings/'],
      ['PUT', '/api/settings'],
      ['POST', '/api/settings/test-email'],
      ['GET', '/api/settings/notification-channels'],
      ['POST', '/api/settings/notification-channels'],
      ['PUT', '/api/settings/notification-channels/1'],
      ['DELETE', '/api/settings/notification-channels/1'],
      ['POST', '/api/settings/notification-channels/1/test'],
      ['POST', '/api/notifications'],
      ['PUT', '/api/notifications/1'],
      ['POST', '/api/notifications/1/test-email/'],
      ['PUT', '/api/supply-orders/settings/1'],
      ['POST', '/api/agents/1/regenerate-token'],
    ];
    for (const [method, url] of routes) {
      const res = await t.app.inject({ method: method as 'GET', url, headers: bearer(token), payload: {} });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(403);
      expect(res.json().message, `${method} ${url}`).toContain('API token');
    }
    // What only reads or works inside the caller's locations stays open to it.
    expect((await t.app.inject({ url: '/api/notifications?page=10,1', headers: bearer(token) })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/supply-orders/settings', headers: bearer(token) })).statusCode).toBe(200);
  });
});
