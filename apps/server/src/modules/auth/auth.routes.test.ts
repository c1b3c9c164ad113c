import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ADMIN_PASSWORD, basic, bearer, signIn, testApp } from '../../test/test-app.ts';
import { mailbox, smtpSettingsFor } from '../../test/mailbox.ts';

const t = testApp({ publicUrl: 'http://console.example.com', signIn: false });

describe('sign-in', () => {
  it('gives a token that /api/users/me accepts, with resolved grants', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/', headers: { authorization: basic('admin', ADMIN_PASSWORD) } });
    expect(res.statusCode).toBe(200);
    const { token, user, expiresAt } = res.json();
    expect(user.login).toBe('admin');
    expect(user.locations.map((l: { code: string }) => l.code)).toEqual(['DEFAULT']);
    expect(new Date(expiresAt).getTime() - Date.now()).toBeGreaterThan(11.9 * 3600_000);
    expect(new Date(expiresAt).getTime() - Date.now()).toBeLessThan(12.1 * 3600_000);
    const me = await t.app.inject({ url: '/api/users/me', headers: bearer(token) });
    expect(me.statusCode).toBe(200);
    expect(me.json().resolvedGrants).toContainEqual({ component: 'MNU_USERS', operation: 'EDIT' });
    expect(me.body).not.toContain('passwordHash');
  });

  it('keeps a remembered session for 30 days', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/?remember=true', headers: { authorization: basic('admin', ADMIN_PASSWORD) } });
    const days = (new Date(res.json().expiresAt).getTime() - Date.now()) / 86400_000;
    expect(days).toBeGreaterThan(29.9);
  });

  it('refuses a wrong password in the caller language', async () => {
    const en = await t.app.inject({ method: 'POST', url: '/api/auth/', headers: { authorization: basic('admin', 'wrong-one') } });
    expect(en.statusCode).toBe(401);
    expect(en.json()).toEqual({ code: 'BAD_CREDENTIALS', message: 'Invalid user name or password' });
    const ru = await t.app.inject({ method: 'POST', url: '/api/auth/', headers: { authorization: basic('admin', 'wrong-two'), 'accept-language': 'ru-RU,ru;q=0.9' } });
    expect(ru.json().message).toBe('Неверное имя пользователя или пароль');
    const none = await t.app.inject({ method: 'POST', url: '/api/auth/' });
    expect(none.statusCode).toBe(401);
  });

  it('throttles repeated failures for a login with 429 and Retry-After', async () => {
    const attempt = () => t.app.inject({ method: 'POST', url: '/api/auth/', headers: { authorization: basic('nobody', 'x') } });
    for (let i = 0; i < 5; i++) expect((await attempt()).statusCode).toBe(401);
    const blocked = await attempt();
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.json().code).toBe('TOO_MANY_ATTEMPTS');
  });

  it('revokes the token on logout', async () => {
    const token = await signIn(t.app);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(token) })).statusCode).toBe(204);
    const me = await t.app.inject({ url: '/api/users/me', headers: bearer(token) });
    expect(me.statusCode).toBe(401);
  });

  it('refuses an expired token', async () => {
    const token = await signIn(t.app);
    await t.ctx.db.execute(sql`UPDATE sessions SET expires_at = now() - interval '1 second'`);
    const me = await t.app.inject({ url: '/api/users/me', headers: bearer(token) });
    expect(me.statusCode).toBe(401);
    expect(me.json().code).toBe('TOKEN_EXPIRED');
  });
});

describe('forgot and restore password', () => {
  it('says clearly when e-mail is not configured', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { login: 'admin' } });
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe('SMTP_NOT_CONFIGURED');
  });

  it('mails a link that sets a new password once', async () => {
    const box = await mailbox();
    const { received } = box;
    try {
      await smtpSettingsFor(t.ctx.db, box.port);

      const res = await t.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { login: 'admin' } });
      expect(res.statusCode).toBe(200);
      // The mail goes out after the answer, so the answer does not tell whether the login exists.
      await expect.poll(() => received.length).toBe(1);
      expect(received[0]).toContain('http://console.example.com/restore-password/');
      const token = /restore-password\/([A-Za-z0-9_-]+)/.exec(received[0])![1];

      expect((await t.app.inject({ url: `/api/auth/restore-password/${token}` })).json()).toEqual({ valid: true });
      const mismatch = await t.app.inject({ method: 'POST', url: `/api/auth/restore-password/${token}`, payload: { password: 'NewPass123', passwordConfirmation: 'Other123' } });
      expect(mismatch.statusCode).toBe(400);
      expect(mismatch.json().details).toContainEqual({ field: 'passwordConfirmation', message: 'The passwords do not match' });

      const ok = await t.app.inject({ method: 'POST', url: `/api/auth/restore-password/${token}`, payload: { password: 'NewPass123', passwordConfirmation: 'NewPass123' } });
      expect(ok.statusCode).toBe(200);
      const again = await t.app.inject({ method: 'POST', url: `/api/auth/restore-password/${token}`, payload: { password: 'NewPass456', passwordConfirmation: 'NewPass456' } });
      expect(again.statusCode).toBe(400);
      expect(again.json().code).toBe('RESTORE_TOKEN_INVALID');
      await signIn(t.app, 'admin', 'NewPass123');

      // An unknown login gets the same answer and no mail.
      const unknown = await t.app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { login: 'ghost' } });
      expect(unknown.json()).toEqual(res.json());
      await new Promise((r) => setTimeout(r, 200));
      expect(received).toHaveLength(1);
    } finally {
      await box.close();
    }
  });
});

describe('demo request', () => {
  it('is stored and logged', async () => {
    const payload = { email: 'ivan@example.com', fullName: 'Ivan Petrov', phone: '+7 (495) 123-45-67', company: 'Acme', comment: '30 printers' };
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/demo-request', payload });
    expect(res.statusCode).toBe(200);
    const stored = await t.ctx.db.execute(sql`SELECT email, company FROM demo_requests`);
    expect(stored.rows).toEqual([{ email: 'ivan@example.com', company: 'Acme' }]);
    const logged = await t.ctx.db.execute(sql`SELECT message FROM event_logs WHERE message_code = 'auth.demoRequested'`);
    expect((logged.rows[0] as { message: string }).message).toContain('Ivan Petrov');
  });

  it("e-mails the operators (DEFAULT's system-notification recipients)", async () => {
    const box = await mailbox();
    try {
      await smtpSettingsFor(t.ctx.db, box.port);
      const payload = { email: 'olga@example.com', fullName: 'Olga Smirnova', phone: '+7 912 000-00-00', company: 'Romashka', comment: '' };
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/demo-request', payload, remoteAddress: '10.9.0.1' });
      expect(res.statusCode, res.body).toBe(200);
      await expect.poll(() => box.received.length).toBe(1);
      expect(box.received[0]).toContain('admin@pagewatch.local');
      expect(box.received[0]).toContain('olga@example.com');
      expect(box.received[0]).toContain('Subject: Pagewatch: demo account requested by Romashka');
    } finally {
      await box.close();
    }
  });

  it('names the bad fields', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/demo-request', headers: { 'accept-language': 'ru' }, payload: { email: 'no', fullName: '', phone: 'abc', company: 'X' } });
    expect(res.statusCode).toBe(400);
    const fields = res.json().details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['email', 'fullName', 'phone']));
    expect(res.json().details.find((d: { field: string }) => d.field === 'email').message).toBe('Неверный адрес электронной почты');
  });
});
