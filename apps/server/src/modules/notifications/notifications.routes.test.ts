import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { bearer, createUser, signIn, testApp } from '../../test/test-app.ts';
import ExcelJS from 'exceljs';
import { mailbox, mailParts, smtpSettingsFor, type Mailbox } from '../../test/mailbox.ts';
import { addLocation } from '../../test/scope-fixture.ts';
import { sqlRows } from '../../test/sql-rows.ts';

const t = testApp();
let mine: number;
let other: number;
let locAdmin: string;
let locAdminId: number;
let otherUser: number;
let topUser: number;
let box: Mailbox;

beforeAll(async () => {
  mine = await addLocation(t.ctx.db, 'NT_MINE');
  other = await addLocation(t.ctx.db, 'NT_OTHER');
  locAdminId = await createUser(t.app, t.admin, { login: 'nt_admin', role: 'ADMIN', locationIds: [mine] });
  otherUser = await createUser(t.app, t.admin, { login: 'nt_other', role: 'OPERATOR', locationIds: [other] });
  const [root] = await sqlRows<{ id: number }>(t.ctx.db, sql`SELECT id FROM locations WHERE code = 'DEFAULT'`);
  topUser = await createUser(t.app, t.admin, { login: 'nt_top', role: 'OPERATOR', locationIds: [Number(root.id)] });
  locAdmin = await signIn(t.app, 'nt_admin', 'Passw0rd!');
  box = await mailbox();
  await smtpSettingsFor(t.ctx.db, box.port);
});
afterAll(() => box.close());

const payload = (over: Record<string, unknown> = {}) => ({
  name: 'Jams',
  active: true,
  description: 'Paper jams at the front desk',
  subject: 'Status of {device.serialNumber}',
  body: '<p>{device.modelCode} at {device.location} is {device.status}; {device.partLevel}</p>',
  notificationType: { code: 'STATUS_CHANGE' },
  locations: [{ id: mine }],
  subscribers: [{ id: locAdminId }],
  schedule: null,
  statuses: ['ERROR'],
  ...over,
});
const call = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown, lang = 'en') =>
  t.app.inject({ method, url, headers: { ...bearer(token), 'accept-language': lang }, payload: body as object });

describe('notifications API', () => {
  it('creates, reads, lists, changes and deletes a notification, logging each change', async () => {
    const res = await call(t.admin, 'POST', '/api/notifications', payload());
    expect(res.statusCode).toBe(200);
    const n = res.json();
    expect(n).toMatchObject({ name: 'Jams', active: true, isScheduled: false, isEditable: true, statuses: ['ERROR'], notificationType: { code: 'STATUS_CHANGE', name: 'Status change' } });
    // A variable the type does not know is stripped; the others stay.
    expect(n.body).toBe('<p>{device.modelCode} at {device.location} is {device.status}; </p>');
    expect(n.subscribers).toEqual([{ id: locAdminId, email: 'nt_admin@example.com', isSystem: false }]);

    const page = (await call(t.admin, 'GET', '/api/notifications/page?page=20,1&sort=name,ASC')).json();
    expect(page.pageRows).toContainEqual({ id: n.id, active: true, name: 'Jams', notificationTypeId: 1, description: 'Paper jams at the front desk' });

    const put = await call(t.admin, 'PUT', `/api/notifications/${n.id}`, payload({ name: 'Jams daily', schedule: '0 0 7 ? * * *' }));
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ name: 'Jams daily', schedule: '0 0 7 ? * * *', isScheduled: true });
    expect(new Date(put.json().nextRunAt).getUTCHours()).toBe(7);

    expect((await call(t.admin, 'DELETE', `/api/notifications/${n.id}`)).statusCode).toBe(204);
    expect((await call(t.admin, 'GET', `/api/notifications/${n.id}`)).statusCode).toBe(404);
    const logs = await sqlRows<{ message: string }>(t.ctx.db, sql`SELECT message FROM event_logs WHERE message_code LIKE 'notification.%' ORDER BY id`);
    expect(logs.map((l) => l.message)).toEqual(['admin created notification "Jams"', 'admin changed notification "Jams daily"', 'admin deleted notification "Jams daily"']);
  });

  it('answers every broken rule of section 5 with its field, in the caller\'s language', async () => {
    const res = await call(t.admin, 'POST', '/api/notifications', payload({ name: ' ', subject: '', body: '<p></p>', subscribers: [], schedule: '0 0 7 ? * XYZ *' }), 'ru');
    expect(res.statusCode).toBe(400);
    const fields = Object.fromEntries((res.json().details as { field: string; message: string }[]).map((f) => [f.field, f.message]));
    expect(fields).toMatchObject({ name: 'Обязательное поле', subject: 'Обязательное поле', body: 'Обязательное поле', subscribers: 'Обязательное поле' });
    expect(fields.schedule).toMatch(/расписание/);

    const counters = await call(t.admin, 'POST', '/api/notifications', payload({ notificationType: { code: 'COUNTERS' }, schedule: null, attachment: 'ip;nonsense;' }));
    expect(counters.json().details.map((f: { field: string }) => f.field).sort()).toEqual(['attachment', 'schedule']);
    const threshold = await call(t.admin, 'POST', '/api/notifications', payload({ notificationType: { code: 'MIN_CONSUMABLE_LEVEL' }, threshold: 101 }));
    expect(threshold.json().details).toContainEqual(expect.objectContaining({ field: 'threshold' }));
    const report = await call(t.admin, 'POST', '/api/notifications', payload({ notificationType: { code: 'REPORT' }, schedule: '0 0 10 ? * * *', report: { code: 'NO_SUCH' }, fileExtensionCode: 'CSV', attachment: 'ip;' }));
    expect(report.json().details).toContainEqual(expect.objectContaining({ field: 'report' }));
  });

  it('keeps of the body only the markup the editor writes', async () => {
    const body = '<p onclick="x()" style="text-align: center; position: fixed">Hi {device.ip}<script>alert(1)</script> <a href="javascript:alert(1)">x</a> <a href="https://example.com/a">y</a> <span style="color: #ff0000; background-color: rgb(255, 243, 191)">r</span><img src=x onerror=alert(1)></p>';
    const n = (await call(t.admin, 'POST', '/api/notifications', payload({ body }))).json();
    expect(n.body).toBe('<p style="text-align:center">Hi {device.ip} <a>x</a> <a href="https://example.com/a">y</a> <span style="color:#ff0000;background-color:rgb(255, 243, 191)">r</span></p>');
    const empty = await call(t.admin, 'POST', '/api/notifications', payload({ body: '<script>alert(1)</script>' }));
    expect(empty.json().details).toEqual([expect.objectContaining({ field: 'body' })]);
  });

  it('keeps the type of a saved notification and fills the defaults of the type', async () => {
    const n = (await call(t.admin, 'POST', '/api/notifications', payload({ notificationType: { code: 'MIN_CONSUMABLE_LEVEL' }, statuses: ['OK'], threshold: null }))).json();
    expect(n).toMatchObject({ threshold: 1, statuses: [] });
    const res = await call(t.admin, 'PUT', `/api/notifications/${n.id}`, payload({ notificationType: { code: 'IP_CHANGE' } }));
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([expect.objectContaining({ field: 'notificationType' })]);
  });

  it('bounds a location administrator by its locations, its users and every user it cannot see', async () => {
    // Locations and subscribers outside the caller's are refused; none at all is every location: not theirs.
    expect((await call(locAdmin, 'POST', '/api/notifications', payload({ locations: [{ id: other }] }))).statusCode).toBe(403);
    const foreign = await call(locAdmin, 'POST', '/api/notifications', payload({ subscribers: [{ id: otherUser }] }));
    expect(foreign.json().details).toEqual([expect.objectContaining({ field: 'subscribers' })]);
    const everywhere = await call(locAdmin, 'POST', '/api/notifications', payload({ locations: [] }));
    expect(everywhere.json().details).toEqual([expect.objectContaining({ field: 'locations' })]);

    // A notification of the default administrator that reaches another location is invisible to it.
    const wide = (await call(t.admin, 'POST', '/api/notifications', payload({ name: 'Wide', locations: [{ id: mine }, { id: other }] }))).json();
    expect((await call(locAdmin, 'GET', `/api/notifications/${wide.id}`)).statusCode).toBe(403);
    expect((await call(locAdmin, 'PUT', `/api/notifications/${wide.id}`, payload())).statusCode).toBe(403);
    expect((await call(locAdmin, 'DELETE', `/api/notifications/${wide.id}`)).statusCode).toBe(403);
    const names = (await call(locAdmin, 'GET', '/api/notifications/page?page=100,1')).json().pageRows.map((r: { name: string }) => r.name);
    expect(names).not.toContain('Wide');

    // One of its own locations with a subscriber of another location it cannot see: shown
    // without, and kept unchanged through its save (issue 52; who sees none of the
    // notification's locations gets none of its messages, so its text reaches no one unseen).
    const shared = (await call(t.admin, 'POST', '/api/notifications', payload({ name: 'Shared', subscribers: [{ id: locAdminId }, { id: otherUser }] }))).json();
    const seen = (await call(locAdmin, 'GET', `/api/notifications/${shared.id}`)).json();
    expect(seen.subscribers.map((s: { id: number }) => s.id)).toEqual([locAdminId]);
    expect(seen.isEditable).toBe(true);
    expect((await call(locAdmin, 'PUT', `/api/notifications/${shared.id}`, payload({ name: 'Shared 2' }))).statusCode).toBe(200);
    const after = (await call(t.admin, 'GET', `/api/notifications/${shared.id}`)).json();
    expect(after.subscribers.map((s: { id: number }) => s.id).sort()).toEqual([locAdminId, otherUser].sort());

    // A subscriber above it, who sees its location, is not its to drop: the edit is refused, the notification stays whole.
    const topped = (await call(t.admin, 'POST', '/api/notifications', payload({ name: 'Topped', subscribers: [{ id: locAdminId }, { id: topUser }] }))).json();
    expect((await call(locAdmin, 'GET', `/api/notifications/${topped.id}`)).json()).toMatchObject({ isEditable: false, subscribers: [{ id: locAdminId }] });
    const refused = await call(locAdmin, 'PUT', `/api/notifications/${topped.id}`, payload({ name: 'Topped 2' }), 'ru');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('Уведомление получают и пользователи над вашими расположениями: изменить его может только администратор, который их видит');
    expect((await call(locAdmin, 'PUT', `/api/notifications/${topped.id}`, payload({ name: 'Topped 2' }))).json().message).toMatch(/^The notification also goes to users above your locations/);
    const whole = (await call(t.admin, 'GET', `/api/notifications/${topped.id}`)).json();
    expect(whole).toMatchObject({ name: 'Topped', isEditable: true });
    expect(whole.subscribers.map((s: { id: number }) => s.id).sort()).toEqual([locAdminId, topUser].sort());
    const choices = (await call(locAdmin, 'GET', '/api/notification-subscribers')).json().map((s: { id: number }) => s.id);
    expect(choices).toContain(locAdminId);
    expect(choices).not.toContain(otherUser);
    const subs = (await call(locAdmin, 'GET', '/api/user-notifications-v/page?page=100,1')).json().pageRows;
    expect(subs.every((r: { userId: number }) => r.userId !== otherUser)).toBe(true);
  });

  it('lists the seven types in the caller\'s language', async () => {
    const types = (await call(t.admin, 'GET', '/api/notification-types', undefined, 'ru')).json();
    expect(types.map((x: { code: string }) => x.code)).toEqual(['STATUS_CHANGE', 'IP_CHANGE', 'MIN_CONSUMABLE_LEVEL', 'PART_REPLACEMENT', 'REPORT', 'COUNTERS', 'SUPPLIES_TO_ORDER', 'AGENT_SILENT']);
    expect(types[0].name).toBe('Изменение статуса');
    expect(types[6]).toEqual({ id: 7, code: 'SUPPLIES_TO_ORDER', name: 'Заказ расходников' });
    expect(types[7].name).toBe('Агент молчит');
  });

  it('sends a test e-mail to the subscribers through the SMTP settings, with a device the sender may see', async () => {
    await t.ctx.db.execute(sql`INSERT INTO devices (location_id, ip, serial_number, model_code) VALUES (${mine}, '127.0.0.9', 'TEST<1>', 'Model & Co')`);
    // The system recipients (the default administrator) are outside the location administrator's users: not its to write to.
    const n = (await call(t.admin, 'POST', '/api/notifications', payload({ name: 'Test me', includeSystemSubscribers: true }))).json();
    const before = box.received.length;
    const res = await call(locAdmin, 'POST', `/api/notifications/${n.id}/test-email/`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ sent: 1 });
    const mail = box.received.slice(before).join('\n');
    expect(mail).toMatch(/To: nt_admin@example.com/);
    expect(mail).not.toMatch(/admin@pagewatch.local/);
    expect(mail).toMatch(/Subject: \[Test\] Status of TEST<1>/);
    expect(mail).toContain('Model &amp; Co at Location NT_MINE');
  });

  it("carries the counters' or the report's file in a test e-mail, as the real mail will, in the recipient's language", async () => {
    await t.ctx.db.execute(sql`INSERT INTO devices (location_id, ip, serial_number, model_code, total_count) VALUES (${mine}, '127.0.0.10', 'FILE-10', 'Model 10', 4321)`);
    await t.ctx.db.execute(sql`INSERT INTO devices (location_id, ip, serial_number, model_code) VALUES (${other}, '127.0.0.11', 'FAR-11', 'Model 11')`);
    const counters = (await call(t.admin, 'POST', '/api/notifications', payload({
      name: 'Counters test', notificationType: { code: 'COUNTERS' }, schedule: '0 0 10 ? * * *', statuses: [], attachment: 'serialNumber;printedPageCount;', subject: 'Counters', body: '<p>Attached</p>',
    }))).json();
    let before = box.received.length;
    expect((await call(locAdmin, 'POST', `/api/notifications/${counters.id}/test-email/`)).statusCode).toBe(200);
    const [file] = mailParts(box.received[before]).filter((p) => p.filename);
    expect(file.filename).toMatch(/^counters-\d{4}-\d{2}-\d{2}\.csv$/);
    // The recipient's devices only, under the grid's titles in the server's language.
    expect(file.text).toContain('FILE-10');
    expect(file.text).toContain('4321');
    expect(file.text).not.toContain('FAR-11');

    const report = (await call(t.admin, 'POST', '/api/notifications', payload({
      name: 'Report test', notificationType: { code: 'REPORT' }, report: { code: 'INSTALLED_CONSUMABLES' }, fileExtensionCode: 'XLSX', schedule: '0 0 10 ? * * *', statuses: [],
      attachment: 'serialNumber;partModelCode;level;', subject: 'Supplies', body: '<p>Attached</p>',
    }))).json();
    await t.ctx.db.execute(sql`UPDATE users SET language = 'ru' WHERE id = ${locAdminId}`);
    try {
      before = box.received.length;
      expect((await call(locAdmin, 'POST', `/api/notifications/${report.id}/test-email/`)).statusCode).toBe(200);
      expect(box.received[before]).toMatch(/Subject: =\?UTF-8\?/); // "[Тест] Supplies"
      const [xlsx] = mailParts(box.received[before]).filter((p) => p.filename);
      expect(xlsx.filename).toMatch(/^installed-consumables-\d{4}-\d{2}-\d{2}\.xlsx$/);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(xlsx.body as unknown as ArrayBuffer);
      expect(book.worksheets[0].name).toMatch(/^Установленные расходные/);
    } finally {
      await t.ctx.db.execute(sql`UPDATE users SET language = NULL WHERE id = ${locAdminId}`);
    }
  });

  it('says so when the SMTP server cannot be reached, and logs it', async () => {
    const n = (await call(t.admin, 'POST', '/api/notifications', payload({ name: 'No server' }))).json();
    await t.ctx.db.execute(sql`UPDATE settings SET numeric_value = 1 WHERE code = 'SMTP_PORT'`);
    try {
      const res = await call(t.admin, 'POST', `/api/notifications/${n.id}/test-email/`);
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(600);
      expect(res.json().message).toBeTruthy();
      const [log] = await sqlRows<{ level: string }>(t.ctx.db, sql`SELECT log_level AS level FROM event_logs WHERE message_code = 'notification.testFailed' ORDER BY id DESC LIMIT 1`);
      expect(log.level).toBe('E');
    } finally {
      await smtpSettingsFor(t.ctx.db, box.port);
    }
  });
});
