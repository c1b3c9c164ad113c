import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { bearer, createUser, signIn, testApp } from '../../test/test-app.ts';
import { mailbox, smtpSettingsFor, type Mailbox } from '../../test/mailbox.ts';
import { addLocation } from '../../test/scope-fixture.ts';
import { deleteAll, sqlRows } from '../../test/sql-rows.ts';

// A dealer's cloud instance with two customers, A and B, below DEFAULT: who a notification's
// mail may reach, and how fast test mail may go out.
const t = testApp({ cloud: true, publicUrl: 'https://pagewatch.example.com/' });
let custA: number;
let custB: number;
let aAdmin: string;
let aAdmin2: string;
let aUser: number;
let bUser: number;
let dealer: number;
let box: Mailbox;

const db = () => t.ctx.db;
const call = (token: string, method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown, lang = 'en') =>
  t.app.inject({ method, url, headers: { ...bearer(token), 'accept-language': lang }, payload: body as object });
const payload = (over: Record<string, unknown> = {}) => ({
  name: 'Jams', active: true, subject: 'About {device.serialNumber}', body: '<p>{device.modelCode} is {device.status}</p>',
  notificationType: { code: 'STATUS_CHANGE' }, locations: [{ id: custA }], subscribers: [{ id: aUser }], schedule: null, ...over,
});
const create = async (token: string, over: Record<string, unknown> = {}) => {
  const res = await call(token, 'POST', '/api/notifications', payload(over));
  if (res.statusCode !== 200) throw new Error(res.body);
  return res.json() as { id: number };
};
const testSend = (token: string, id: number, lang = 'en') => call(token, 'POST', `/api/notifications/${id}/test-email/`, undefined, lang);
const addressees = () => box.received.map((m) => /^To: (.*)$/m.exec(m)?.[1]).sort();
/** A message's text with quoted-printable escapes decoded (the mailbox joins its soft line breaks). */
const decoded = (m: string) => m.replace(/=([0-9A-F]{2})/g, (_all, hex: string) => String.fromCharCode(parseInt(hex, 16)));

beforeAll(async () => {
  custA = await addLocation(db(), 'NS_A');
  custB = await addLocation(db(), 'NS_B');
  await createUser(t.app, t.admin, { login: 'ns_a_admin', role: 'ADMIN', locationIds: [custA] });
  await createUser(t.app, t.admin, { login: 'ns_a_admin2', role: 'ADMIN', locationIds: [custA] });
  aUser = await createUser(t.app, t.admin, { login: 'ns_a_user', role: 'OPERATOR', locationIds: [custA] });
  bUser = await createUser(t.app, t.admin, { login: 'ns_b_user', role: 'OPERATOR', locationIds: [custB] });
  const [top] = await sqlRows<{ id: number }>(db(), sql`SELECT id FROM locations WHERE code = 'DEFAULT'`);
  dealer = await createUser(t.app, t.admin, { login: 'ns_dealer', role: 'OPERATOR', locationIds: [Number(top.id)] });
  // Customer B's user hears of system notifications: of B's, not of A's.
  await db().execute(sql`UPDATE users SET system_notification_recipient = true WHERE id = ${bUser}`);
  // Cloud mode: users sign in with their e-mail.
  aAdmin = await signIn(t.app, 'ns_a_admin@example.com', 'Passw0rd!');
  aAdmin2 = await signIn(t.app, 'ns_a_admin2@example.com', 'Passw0rd!');
  box = await mailbox();
  await smtpSettingsFor(db(), box.port);
});
afterAll(() => box.close());
beforeEach(async () => {
  await deleteAll(db(), ['notification_messages', 'notification_digest_items', 'notification_alerts', 'notifications', 'device_events', 'auth_throttle']);
  box.received.length = 0;
});

describe('who notification mail reaches (cloud mode)', () => {
  it('sends a test only to those of its recipients who are the sender\'s own users, decided when it is sent', async () => {
    const n = await create(t.admin, { subscribers: [{ id: aUser }, { id: bUser }], includeSystemSubscribers: true });
    // Customer A's administrator: A's user only; not B's user (a subscriber, a system recipient) nor the default administrator.
    const res = await testSend(aAdmin, n.id);
    expect(res.json()).toEqual({ sent: 1 });
    expect(addressees()).toEqual(['ns_a_user@example.com']);
    // The default administrator: everyone who sees customer A, and still not B's user.
    box.received.length = 0;
    expect((await testSend(t.admin, n.id)).json()).toEqual({ sent: 2 });
    expect(addressees()).toEqual(['admin@pagewatch.local', 'ns_a_user@example.com']);

    // A's user moves to customer B: the next test has no one left of A's to go to.
    await db().execute(sql`UPDATE user_locations SET location_id = ${custB} WHERE user_id = ${aUser}`);
    try {
      const none = await testSend(aAdmin, n.id, 'ru');
      expect(none.statusCode).toBe(400);
      expect(none.json().details).toEqual([{ field: 'subscribers', message: 'Ни один из получателей уведомления не входит в ваши расположения' }]);
      expect((await testSend(aAdmin, n.id)).json().details).toEqual([{ field: 'subscribers', message: 'None of the notification\'s recipients is in your locations' }]);
      expect(box.received).toHaveLength(2);
    } finally {
      await db().execute(sql`UPDATE user_locations SET location_id = ${custA} WHERE user_id = ${aUser}`);
    }
  });

  it('keeps on a customer administrator\'s edit a subscriber of another customer unchanged and unseen, and refuses the edit for one of the dealer\'s', async () => {
    const n = await create(t.admin, { subscribers: [{ id: aUser }, { id: bUser }] });
    expect((await call(aAdmin, 'GET', `/api/notifications/${n.id}`)).json().subscribers.map((s: { id: number }) => s.id)).toEqual([aUser]);
    expect((await call(aAdmin, 'PUT', `/api/notifications/${n.id}`, payload({ body: '<p>Click here</p>' }))).statusCode).toBe(200);
    expect((await call(t.admin, 'GET', `/api/notifications/${n.id}`)).json().subscribers.map((s: { id: number }) => s.id).sort()).toEqual([aUser, bUser].sort());
    // The editor's own choice still counts: removing A's user removes A's user alone.
    const second = await createUser(t.app, t.admin, { login: 'ns_a_user2', role: 'OPERATOR', locationIds: [custA] });
    expect((await call(aAdmin, 'PUT', `/api/notifications/${n.id}`, payload({ subscribers: [{ id: second }] }))).statusCode).toBe(200);
    expect((await call(t.admin, 'GET', `/api/notifications/${n.id}`)).json().subscribers.map((s: { id: number }) => s.id).sort()).toEqual([second, bUser].sort());

    const watched = await create(t.admin, { subscribers: [{ id: aUser }, { id: dealer }] });
    expect((await call(aAdmin, 'GET', `/api/notifications/${watched.id}`)).json()).toMatchObject({ isEditable: false, subscribers: [{ id: aUser }] });
    const refused = await call(aAdmin, 'PUT', `/api/notifications/${watched.id}`, payload({ body: '<p>Click here</p>' }));
    expect(refused.statusCode).toBe(403);
    const kept = (await call(t.admin, 'GET', `/api/notifications/${watched.id}`)).json();
    expect(kept.body).toBe('<p>{device.modelCode} is {device.status}</p>');
    expect(kept.subscribers.map((s: { id: number }) => s.id).sort()).toEqual([aUser, dealer].sort());
  });

  it('sends the real messages of a notification to no one who sees none of its locations', async () => {
    const n = await create(t.admin, {
      notificationType: { code: 'COUNTERS' }, schedule: '0 0 10 ? * * *', attachment: 'serialNumber;', subject: 'Counters', body: '<p>Your counters</p>',
      subscribers: [{ id: aUser }, { id: bUser }], includeSystemSubscribers: true,
    });
    await db().execute(sql`UPDATE notifications SET next_run_at = now() - interval '1 second' WHERE id = ${n.id}`);
    await t.ctx.notifier.dispatcher.dispatch();
    await t.ctx.notifier.sender.sendDue();
    expect(addressees()).toEqual(['admin@pagewatch.local', 'ns_a_user@example.com']);
  });

  it('keeps no javascript: or data: link a printer\'s host name or location makes, in a test and in a real message', async () => {
    await db().execute(sql`INSERT INTO devices (location_id, ip, serial_number, model_code, host_name, snmp_location, status_code)
      VALUES (${custA}, 'javascript:alert(1)', 'NS1', 'M"><b>1', 'javascript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'OK')`);
    try {
      const body = '<p><a href="{device.hostname}">host</a> <a href="{device.snmpLocation}">where</a> <a href="{device.ip}">ip</a> <a href="{device.interfaceLink}">open</a> <a href="https://x.example/?m={device.modelCode}">{device.modelCode}</a></p>';
      const n = await create(aAdmin, { body, statuses: [] });
      expect((await testSend(aAdmin, n.id)).json()).toEqual({ sent: 1 });
      await db().execute(sql`INSERT INTO device_events (event_at, type, device_id, location_id, old_value, new_value)
        SELECT now(), 'STATUS_CHANGE', id, location_id, 'OK', 'ERROR' FROM devices WHERE serial_number = 'NS1'`);
      await t.ctx.notifier.dispatcher.dispatch();
      await t.ctx.notifier.sender.sendDue();
      expect(box.received).toHaveLength(2);
      for (const mail of box.received.map(decoded)) {
        const links = [...mail.matchAll(/<a\b[^>]*>/g)].map((m) => m[0]);
        expect(links).toEqual(['<a>', '<a>', '<a>', expect.stringMatching(/^<a href="https:\/\/pagewatch\.example\.com\/device\/\d+">$/), '<a href="https://x.example/?m=M&quot;&gt;&lt;b&gt;1">']);
        expect(mail).toContain('>M"&gt;&lt;b&gt;1</a>');
      }
    } finally {
      await db().execute(sql`DELETE FROM device_events`);
      await db().execute(sql`DELETE FROM devices WHERE serial_number = 'NS1'`);
    }
  });
});

describe('test mail throttling', () => {
  it('lets a sender send five test messages, counted atomically, then answers 429 with Retry-After in its language', async () => {
    const n = await create(aAdmin);
    // The finding: thirty at once. Five go; the others wait.
    const answers = await Promise.all(Array.from({ length: 8 }, () => testSend(aAdmin, n.id)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    expect(box.received).toHaveLength(5);
    const refused = answers.find((a) => a.statusCode === 429)!;
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused.json()).toMatchObject({ code: 'TOO_MANY_ATTEMPTS', message: `Too many test e-mails; try again in ${refused.headers['retry-after']} seconds` });
    expect((await testSend(aAdmin, n.id, 'ru')).json().message).toMatch(/^Слишком много проверочных писем; повторите через \d+ с$/);
    // Another sender is not held up by this one.
    expect((await testSend(aAdmin2, n.id)).statusCode).toBe(200);
  });

  it('counts the settings\' test e-mail as test mail too', async () => {
    for (let i = 0; i < 5; i++) expect((await call(t.admin, 'POST', '/api/settings/test-email', { to: 'outside@example.net' })).statusCode).toBe(200);
    const res = await call(t.admin, 'POST', '/api/settings/test-email', { to: 'outside@example.net' });
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBeDefined();
    expect(box.received).toHaveLength(5);
  });

  it('holds up every sender once the instance has sent thirty test messages', async () => {
    // Thirty users of customer A, written straight to the database (made through the API they would cost a password hash each).
    const many = await sqlRows<{ id: number }>(db(), sql`INSERT INTO users (login, email, password_hash, last_name)
      SELECT 'ns_many' || i, 'ns_many' || i || '@example.com', 'x', 'Many' FROM generate_series(1, 30) i RETURNING id`);
    await db().execute(sql`INSERT INTO user_locations (user_id, location_id) SELECT id, ${custA} FROM users WHERE login LIKE 'ns\\_many%'`);
    try {
      const wide = await create(aAdmin, { subscribers: many.map((u) => ({ id: Number(u.id) })) });
      expect((await testSend(aAdmin, wide.id)).json()).toEqual({ sent: 30 });
      // Every message counts: the sender waits, and so does everyone else for a while.
      expect((await testSend(aAdmin, wide.id)).statusCode).toBe(429);
      const n = await create(aAdmin2);
      const other = await testSend(aAdmin2, n.id);
      expect(other.statusCode).toBe(429);
      expect(Number(other.headers['retry-after'])).toBeLessThanOrEqual(60);
      expect(box.received).toHaveLength(30);
    } finally {
      await db().execute(sql`DELETE FROM notifications`);
      await db().execute(sql`DELETE FROM users WHERE login LIKE 'ns\\_many%'`);
    }
  });
});
