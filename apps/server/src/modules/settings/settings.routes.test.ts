import { beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ADMIN_PASSWORD, bearer, createUser, signIn, testApp } from '../../test/test-app.ts';
import { mailbox, mailParts, smtpSettingsFor } from '../../test/mailbox.ts';
import { addLocation } from '../../test/scope-fixture.ts';

const t = testApp();

const get = async () => (await t.app.inject({ url: '/api/settings/', headers: bearer(t.admin) })).json() as { code: string; stringValue: string | null; numericValue: number | null; flagValue: boolean | null; isSet: boolean }[];
/** A save as the settings screen sends it: the changes, with the administrator's own password (issue 52). */
const put = (changes: object[], lang = 'en', currentPassword: string | null = ADMIN_PASSWORD) =>
  t.app.inject({ method: 'PUT', url: '/api/settings', headers: { ...bearer(t.admin), 'accept-language': lang }, payload: currentPassword === null ? changes : { changes, currentPassword } });

describe('settings', () => {
  it('lists the settings of every group, without SYSTEM ones', async () => {
    await t.ctx.db.execute(sql`INSERT INTO settings (code, name, value_type, string_value, system_component) VALUES ('INSTALL_ID', 'Install id', 'S', 'abc', 'SYSTEM')`);
    const codes = (await get()).map((s) => s.code);
    expect(codes).toEqual(expect.arrayContaining(['SMTP_HOST', 'SMTP_PORT', 'SMTP_PASSWORD', 'SMTP_START-TLS', 'PROCESSES_PERIODICITY', 'LOG_STORAGE_DAYS', 'CLEARING_ENABLED']));
    expect(codes).not.toContain('INSTALL_ID');
  });

  it('saves valid values and logs who changed what', async () => {
    const res = await put([
      { code: 'SMTP_HOST', stringValue: 'mail.example.com' },
      { code: 'SMTP_PORT', numericValue: 465 },
      { code: 'SMTP_SSL', flagValue: true },
      { code: 'SMTP_FROM', stringValue: 'pagewatch@example.com' },
      { code: 'PROCESSES_PERIODICITY', numericValue: 30 },
      { code: 'LOG_STORAGE_DAYS', numericValue: 10 },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const byCode = new Map((await get()).map((s) => [s.code, s]));
    expect(byCode.get('SMTP_HOST')!.stringValue).toBe('mail.example.com');
    expect(byCode.get('SMTP_PORT')!.numericValue).toBe(465);
    expect(byCode.get('SMTP_SSL')!.flagValue).toBe(true);
    expect(byCode.get('PROCESSES_PERIODICITY')!.numericValue).toBe(30);
    const log = await t.ctx.db.execute(sql`SELECT message FROM event_logs WHERE message_code = 'settings.changed'`);
    expect((log.rows[0] as { message: string }).message).toMatch(/admin changed settings: .*SMTP_HOST.*PROCESSES_PERIODICITY/);
    // The agents' periodicity is what they are told.
    expect(byCode.get('PROCESSES_PERIODICITY')!.numericValue).toBe(30);
  });

  it("asks for the caller's own password again before it changes where or how mail leaves (issue 52)", async () => {
    const moves = [[{ code: 'SMTP_HOST', stringValue: 'collector.example.net' }], [{ code: 'SMTP_FROM', stringValue: 'other@example.net' }], [{ code: 'SMTP_USERNAME', stringValue: 'someone' }], [{ code: 'SMTP_START-TLS', stringValue: 'DISABLED' }], [{ code: 'SMTP_SSL', flagValue: false }, { code: 'SMTP_PORT', numericValue: 25 }]];
    const before = await get();
    for (const move of moves) {
      for (const [password, key] of [[null, 'Changing where or how e-mail is sent needs your own password: enter it'], ['', 'Changing where or how e-mail is sent needs your own password: enter it'], ['not-mine-1', 'This is not your password']] as const) {
        const res = await put(move, 'en', password);
        expect(res.statusCode, `${JSON.stringify(move)} ${password}: ${res.body}`).toBe(400);
        expect(res.json().details).toEqual([{ field: 'currentPassword', message: key }]);
      }
    }
    const ru = await put(moves[0]!, 'ru', 'not-mine-1');
    expect(ru.json().details).toEqual([{ field: 'currentPassword', message: 'Это не ваш пароль' }]);
    expect((await put(moves[0]!, 'ru', null)).json().details[0].message).toBe('Чтобы изменить, куда и как отправляется почта, введите свой пароль');
    expect(await get()).toEqual(before);
    // Settings that do not move mail need no password; the same SMTP values sent again are no move.
    const same = before.filter((s) => s.code.startsWith('SMTP_') && s.code !== 'SMTP_PASSWORD').map(({ code, stringValue, numericValue, flagValue }) => ({ code, stringValue, numericValue, flagValue }));
    expect((await put([...same, { code: 'LOG_STORAGE_DAYS', numericValue: 11 }], 'en', null)).statusCode).toBe(200);
    const moved = await put(moves[1]!);
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await get()).find((s) => s.code === 'SMTP_FROM')!.stringValue).toBe('other@example.net');
  });

  it('never returns the SMTP password, and keeps it when not sent again', async () => {
    expect((await put([{ code: 'SMTP_PASSWORD', stringValue: 'mail-secret-1' }])).statusCode).toBe(200);
    const body = JSON.stringify(await get());
    expect(body).not.toContain('mail-secret-1');
    expect((await get()).find((s) => s.code === 'SMTP_PASSWORD')!.isSet).toBe(true);
    expect((await put([{ code: 'SMTP_PASSWORD', stringValue: null }, { code: 'SMTP_FROM', stringValue: 'mailer@example.com' }])).statusCode).toBe(200);
    const stored = await t.ctx.db.execute(sql`SELECT string_value FROM settings WHERE code = 'SMTP_PASSWORD'`);
    // Kept as it was stored: encrypted (issue 43).
    const kept = (stored.rows[0] as { string_value: string }).string_value;
    expect(kept).toMatch(/^enc:v1:/);
    expect(t.ctx.secrets.open(kept)).toBe('mail-secret-1');
  });

  it('refuses bad values with the field named, in English and Russian, and saves none of them', async () => {
    const bad = [
      { code: 'SMTP_HOST', stringValue: 'not a host!' },
      { code: 'SMTP_PORT', numericValue: 70000 },
      { code: 'SMTP_FROM', stringValue: 'nope' },
      { code: 'SMTP_START-TLS', stringValue: 'SOMETIMES' },
      { code: 'PROCESSES_PERIODICITY', numericValue: 7 },
      { code: 'LOG_STORAGE_DAYS', numericValue: 4000 },
      { code: 'CLEARING_ENABLED', stringValue: 'yes' },
      { code: 'NO_SUCH_SETTING', stringValue: 'x' },
    ];
    const res = await put(bad);
    expect(res.statusCode).toBe(400);
    expect(res.json().details.map((d: { field: string }) => d.field)).toEqual(bad.map((b) => b.code));
    const ru = await put([{ code: 'SMTP_PORT', numericValue: 0 }], 'ru');
    expect(ru.json().details[0].message).toBe('Порт — целое число от 1 до 65535');
    expect((await put([{ code: 'SMTP_HOST', stringValue: '' }])).json().details[0]).toEqual({ field: 'SMTP_HOST', message: 'Required field' });
    expect((await get()).find((s) => s.code === 'SMTP_PORT')!.numericValue).toBe(465);
  });

  it('is closed to an OPERATOR', async () => {
    await createUser(t.app, t.admin, { login: 'operator', password: 'Operat0r!', role: 'OPERATOR', locationIds: [1] });
    const op = await signIn(t.app, 'operator', 'Operat0r!');
    expect((await t.app.inject({ url: '/api/settings/', headers: bearer(op) })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'PUT', url: '/api/settings', headers: bearer(op), payload: [] })).statusCode).toBe(403);
  });
});

describe('test e-mail', () => {
  // Test mail is throttled (5 a minute per sender, notifications.scope.test.ts); each case here starts with a fresh count.
  beforeEach(() => t.ctx.db.execute(sql`DELETE FROM auth_throttle WHERE key LIKE 'test-mail%'`));
  const send = (to: string, token = t.admin, lang = 'en') =>
    t.app.inject({ method: 'POST', url: '/api/settings/test-email', headers: { ...bearer(token), 'accept-language': lang }, payload: { to } });
  const logged = async (code: string) =>
    (await t.ctx.db.execute(sql`SELECT log_level AS level, message FROM event_logs WHERE message_code = ${code} ORDER BY id DESC LIMIT 1`)).rows[0] as { level: string; message: string } | undefined;

  it('says e-mail is not configured before the SMTP host is set', async () => {
    await t.ctx.db.execute(sql`UPDATE settings SET string_value = NULL WHERE code IN ('SMTP_HOST', 'SMTP_FROM')`);
    const res = await send('someone@example.com');
    expect(res.statusCode).toBe(422);
    expect(res.json().code).toBe('SMTP_NOT_CONFIGURED');
  });

  it('sends one message through the saved settings and logs it', async () => {
    const box = await mailbox();
    try {
      await smtpSettingsFor(t.ctx.db, box.port);
      const res = await send('someone@example.com', t.admin, 'ru');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().message).toBe('Проверочное письмо отправлено на someone@example.com');
      expect(box.received).toHaveLength(1);
      expect(box.received[0]).toMatch(/^To: someone@example.com/m);
      expect(box.received[0]).toMatch(/^From: pagewatch@example.com/m);
      // In the caller's language, subject and text.
      const [text] = mailParts(box.received[0]);
      expect(text.text).toBe('Это проверочное письмо Pagewatch: его отправил admin, чтобы проверить настройки SMTP.');
      expect(box.received[0]).toMatch(/^Subject: =\?UTF-8\?/m);
      expect(box.received[0]).not.toContain('test e-mail');
      expect(await logged('settings.testEmailSent')).toMatchObject({ level: 'I', message: 'admin sent a test e-mail to someone@example.com' });
    } finally {
      await box.close();
    }
  });

  it('uses SSL when asked, and refuses a self-signed certificate unless trust-all is on', async () => {
    const box = await mailbox({ secure: true });
    try {
      await smtpSettingsFor(t.ctx.db, box.port);
      await t.ctx.db.execute(sql`UPDATE settings SET flag_value = true WHERE code = 'SMTP_SSL'`);
      await t.ctx.db.execute(sql`UPDATE settings SET flag_value = false WHERE code = 'SMTP_TRUST-ALL'`);
      const refused = await send('someone@example.com');
      expect(refused.statusCode).toBe(502);
      expect(refused.json().code).toBe('MAIL_FAILED');
      expect(box.received).toHaveLength(0);
      await t.ctx.db.execute(sql`UPDATE settings SET flag_value = true WHERE code = 'SMTP_TRUST-ALL'`);
      expect((await send('someone@example.com')).statusCode).toBe(200);
      expect(box.received).toHaveLength(1);
    } finally {
      await t.ctx.db.execute(sql`UPDATE settings SET flag_value = false WHERE code IN ('SMTP_SSL', 'SMTP_TRUST-ALL')`);
      await box.close();
    }
  });

  it('says clearly when the SMTP server cannot be reached, and logs the failure', async () => {
    await smtpSettingsFor(t.ctx.db, 1); // nothing listens on port 1: the connection is refused
    const res = await send('someone@example.com');
    expect(res.statusCode).toBe(502);
    expect(res.json().message).toMatch(/^The e-mail could not be sent: .*ECONNREFUSED/);
    expect(await logged('settings.testEmailFailed')).toMatchObject({ level: 'E' });
    expect((await logged('settings.testEmailFailed'))!.message).toMatch(/^The test e-mail of admin to someone@example.com failed: .*ECONNREFUSED/);
  });

  it('sends the stored SMTP password to no other server: a new host or port needs it again (422), and mail still goes to the old one', async () => {
    const [box, elsewhere] = [await mailbox(), await mailbox()];
    try {
      await smtpSettingsFor(t.ctx.db, box.port);
      expect((await put([{ code: 'SMTP_PASSWORD', stringValue: 'mail-secret-2' }])).statusCode).toBe(200);
      for (const move of [[{ code: 'SMTP_PORT', numericValue: elsewhere.port }], [{ code: 'SMTP_HOST', stringValue: 'localhost' }, { code: 'SMTP_PASSWORD', stringValue: null }]]) {
        const res = await put(move);
        expect(res.statusCode, res.body).toBe(422);
        expect(res.json()).toMatchObject({ code: 'SECRET_REQUIRED', details: [{ field: 'SMTP_PASSWORD', message: expect.stringMatching(/SMTP server .*changed: enter the password again/) }] });
      }
      expect((await put([{ code: 'SMTP_PORT', numericValue: elsewhere.port }], 'ru')).json().details[0].message).toMatch(/^Сервер SMTP \(хост или порт\) изменён: введите пароль заново/);
      // The same server sent again is no move.
      expect((await put([{ code: 'SMTP_HOST', stringValue: '127.0.0.1' }, { code: 'SMTP_PORT', numericValue: box.port }])).statusCode).toBe(200);
      expect((await send('someone@example.com')).statusCode).toBe(200);
      expect([box.received.length, elsewhere.received.length]).toEqual([1, 0]);
      // With the password given again, or cleared, it moves.
      expect((await put([{ code: 'SMTP_PORT', numericValue: elsewhere.port }, { code: 'SMTP_PASSWORD', stringValue: '' }])).statusCode).toBe(200);
      expect((await send('someone@example.com')).statusCode).toBe(200);
      expect([box.received.length, elsewhere.received.length]).toEqual([1, 1]);
    } finally {
      await Promise.all([box.close(), elsewhere.close()]);
    }
  });

  it('refuses a bad address with the field named', async () => {
    const res = await send('not-an-address');
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([{ field: 'to', message: 'Invalid e-mail address' }]);
  });

  it("is the default administrator's alone: an ADMIN of another location may not use the instance's SMTP", async () => {
    const other = await addLocation(t.ctx.db, 'BRANCH');
    await createUser(t.app, t.admin, { login: 'branchAdmin', password: 'Branch1!x', role: 'ADMIN', locationIds: [other] });
    const branch = await signIn(t.app, 'branchAdmin', 'Branch1!x');
    expect((await send('someone@example.com', branch)).statusCode).toBe(403);
  });
});
