import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp } from '../../test/test-app.ts';
import { mailbox, smtpSettingsFor } from '../../test/mailbox.ts';

/**
 * Forgot-password against the attacks of issue 14: a reset link never comes from a request
 * header, and the answer never tells whether a login exists (also when mail fails).
 */
type App = Awaited<ReturnType<typeof createTestApp>>;

const forgot = (t: App, login: string, headers: Record<string, string> = {}, remoteAddress = '10.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { login }, headers, remoteAddress });

const smtpOn = (t: App, port: number) => smtpSettingsFor(t.ctx.db, port);

describe('without PAGEWATCH_PUBLIC_URL', () => {
  let t: App;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('refuses to send a link, the same way for a known and an unknown login, and logs why', async () => {
    const box = await mailbox();
    try {
      await smtpOn(t, box.port);
      const known = await forgot(t, 'admin', { host: 'evil.example' });
      const unknown = await forgot(t, 'ghost', { host: 'evil.example' });
      expect(known.statusCode).toBe(422);
      expect(known.json()).toEqual({ code: 'PUBLIC_URL_NOT_CONFIGURED', message: 'Password restore links cannot be sent: the console address (PAGEWATCH_PUBLIC_URL) is not configured' });
      expect(unknown.statusCode).toBe(known.statusCode);
      expect(unknown.json()).toEqual(known.json());
      const ru = await forgot(t, 'admin', { 'accept-language': 'ru' });
      expect(ru.json().message).toBe('Ссылки для восстановления пароля нельзя отправить: адрес консоли (PAGEWATCH_PUBLIC_URL) не задан');
      await new Promise((r) => setTimeout(r, 200));
      expect(box.received).toHaveLength(0);
      const logged = await t.ctx.db.execute(sql`SELECT log_level FROM event_logs WHERE message_code = 'auth.publicUrlMissing'`);
      expect(logged.rows.length).toBeGreaterThan(0);
    } finally {
      await box.close();
    }
  });
});

describe('with PAGEWATCH_PUBLIC_URL', () => {
  let t: App;
  beforeAll(async () => {
    t = await createTestApp({ publicUrl: 'https://console.example.com/' });
  });
  afterAll(() => t.close());

  it('builds the link from the configured address, never from the Host header', async () => {
    const box = await mailbox();
    try {
      await smtpOn(t, box.port);
      const res = await forgot(t, 'admin', { host: 'evil.example', 'x-forwarded-host': 'evil.example' });
      expect(res.statusCode).toBe(200);
      await expect.poll(() => box.received.length).toBe(1);
      expect(box.received[0]).toMatch(/https:\/\/console\.example\.com\/restore-password\/[A-Za-z0-9_-]{20,}/);
      expect(box.received[0]).not.toContain('evil.example');
    } finally {
      await box.close();
    }
  });

  it('answers the same for a known and an unknown login when the mail cannot be sent, and logs the failure', async () => {
    await smtpOn(t, 1); // nothing listens there: the SMTP connection is refused
    const known = await forgot(t, 'admin', {}, '10.0.0.2');
    const unknown = await forgot(t, 'ghost', {}, '10.0.0.3');
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(unknown.body).toBe(known.body);
    await expect
      .poll(async () => (await t.ctx.db.execute(sql`SELECT 1 FROM event_logs WHERE message_code = 'auth.restoreMailFailed'`)).rows.length)
      .toBe(1);
  });
});
