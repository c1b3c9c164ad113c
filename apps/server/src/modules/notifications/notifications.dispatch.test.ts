import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { bearer, capturedLog, createUser, testApp } from '../../test/test-app.ts';
import { mailbox, mailParts, smtpSettingsFor, type Mailbox } from '../../test/mailbox.ts';
import { htmlToText } from '../../lib/mail-text.ts';
import { addLocation } from '../../test/scope-fixture.ts';
import { countRows, deleteAll, sqlRows } from '../../test/sql-rows.ts';
import { claimOne } from './outbox.repository.ts';
import { NotificationDispatcher } from './dispatcher.ts';
import { NotificationSender } from './sender.ts';
import { openDatabase } from '../../db/client.ts';
import { smtpSettings } from '../settings/settings.repository.ts';

const serverLog = capturedLog();
const t = testApp({ publicUrl: 'https://pagewatch.example.com/', logStream: serverLog.stream });
let mine: number;
let other: number;
let ann: number;
let bob: number;
let box: Mailbox;
let device: number;
let far: number;

const db = () => t.ctx.db;
const run = async () => {
  await t.ctx.notifier.dispatcher.dispatch();
  return t.ctx.notifier.sender.sendDue();
};

beforeAll(async () => {
  mine = await addLocation(db(), 'ND_MINE');
  other = await addLocation(db(), 'ND_OTHER');
  ann = await createUser(t.app, t.admin, { login: 'nd_ann', role: 'OPERATOR', locationIds: [mine] });
  bob = await createUser(t.app, t.admin, { login: 'nd_bob', role: 'OPERATOR', locationIds: [other] });
  box = await mailbox();
  await smtpSettingsFor(db(), box.port);
  const [d] = await sqlRows<{ id: number }>(db(), sql`INSERT INTO devices (location_id, ip, serial_number, model_code, device_type, status_code, host_name)
    VALUES (${mine}, '127.0.0.21', 'SN<21>', 'Laser & Co 21', 'MFP', 'ERROR', 'front-desk') RETURNING id`);
  device = Number(d.id);
  const [f] = await sqlRows<{ id: number }>(db(), sql`INSERT INTO devices (location_id, ip, serial_number, model_code, device_type)
    VALUES (${other}, '127.0.0.22', 'SN22', 'Far 22', 'PRINTER') RETURNING id`);
  far = Number(f.id);
  await db().execute(sql`INSERT INTO consumables (device_id, supply_index, part_code, part_name, colorant, level, refreshed_at, part_model_code)
    VALUES (${device}, 1, 'toner', 'Black Toner', 'black', 50, now(), 'TK-21')`);
  await db().execute(sql`UPDATE devices SET total_count = 1234, mono_count = 1000 WHERE id = ${device}`);
});
afterAll(() => box.close());
beforeEach(async () => {
  await deleteAll(db(), ['notification_messages', 'notification_digest_items', 'notification_alerts', 'notifications', 'device_events']);
  box.received.length = 0;
});

const create = async (over: Record<string, unknown>) => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/notifications',
    headers: bearer(t.admin),
    payload: {
      name: 'N', active: true, subject: 'About {device.serialNumber}', body: '<p>{device.modelCode} {device.status} {device.interfaceLink}</p>',
      notificationType: { code: 'STATUS_CHANGE' }, locations: [{ id: mine }], subscribers: [{ id: ann }], schedule: null, ...over,
    },
  });
  if (res.statusCode !== 200) throw new Error(res.body);
  return res.json() as { id: number };
};
const event = (deviceId: number, locationId: number, type: string, oldValue: string | null, newValue: string | null) =>
  db().execute(sql`INSERT INTO device_events (event_at, type, device_id, location_id, old_value, new_value, supply_index)
    VALUES (now(), ${type}, ${deviceId}, ${locationId}, ${oldValue}, ${newValue}, ${type === 'SUPPLY_REPLACED' ? 1 : null})`);
/**
 * The bytes of a mail's attachment whose file name is `base`-YYYY-MM-DD.`ext`. The mailbox
 * takes out quoted-printable soft breaks (`=` at a line's end), which eats a base64 part's
 * padding and the line break after it: the part ends at its boundary's `--` (never in base64).
 */
const attachment = (mail: string, base: string, ext: string) =>
  Buffer.from(mail.split(new RegExp(`filename=${base}-[\\d-]+\\.${ext}"?\r\n(?:[^\r\n]+\r\n)*\r\n`))[1].split('--')[0].replace(/\r\n/g, ''), 'base64');
const setLevel = (level: number) => db().execute(sql`UPDATE consumables SET level = ${level} WHERE device_id = ${device} AND supply_index = 1`);

describe('notification e-mail', () => {
  it('mails a status change at once to each subscriber who may see the device, variables filled and escaped, once', async () => {
    await create({ statuses: ['ERROR'], subscribers: [{ id: ann }, { id: bob }] });
    await event(device, mine, 'STATUS_CHANGE', 'OK', 'ERROR (paperJam)');
    await event(device, mine, 'STATUS_CHANGE', 'ERROR', 'OK'); // not a chosen status
    await event(far, other, 'STATUS_CHANGE', 'OK', 'ERROR'); // not in the notification's locations
    expect(await run()).toEqual({ sent: 1, failed: 0 });
    expect(box.received).toHaveLength(1);
    const mail = box.received[0];
    expect(mail).toMatch(/To: nd_ann@example.com/);
    expect(mail).toMatch(/Subject: About SN<21>/);
    // The status by the console's name for it (in the server's language: Ann has not signed in yet).
    expect(mail).toContain('Laser &amp; Co 21 Error (paperJam) https://pagewatch.example.com/device/');
    expect(mail).toMatch(/Message-ID: <[0-9a-f-]+@pagewatch>/);
    // Bob is subscribed but the device is outside his locations: nothing to him.
    expect(mail).not.toMatch(/nd_bob/);
    expect(await run()).toEqual({ sent: 0, failed: 0 });
    expect(await countRows(db(), 'device_events', sql`NOT processed`)).toBe(0);
    const [log] = await sqlRows<{ message: string; location: number }>(db(), sql`SELECT message, location_id AS location FROM event_logs WHERE message_code = 'notification.sent' ORDER BY id DESC LIMIT 1`);
    expect(log).toEqual({ message: 'E-mail "About SN<21>" sent to nd_ann@example.com', location: mine });
  });

  it("speaks each recipient's language, the one their browser asked for at sign-in, with a plain-text part beside the HTML", async () => {
    const cyril = await createUser(t.app, t.admin, { login: 'nd_cyril', role: 'OPERATOR', locationIds: [mine] });
    const signIn = await t.app.inject({ method: 'POST', url: '/api/auth/', headers: { authorization: `Basic ${Buffer.from('nd_cyril:Passw0rd!').toString('base64')}`, 'accept-language': 'ru-RU,ru;q=0.9,en;q=0.5' } });
    expect(signIn.statusCode).toBe(200);
    await create({ statuses: [], subscribers: [{ id: ann }, { id: cyril }], subject: '{device.serialNumber}: {device.status}' });
    await event(device, mine, 'STATUS_CHANGE', 'OK', 'NOT_AVAILABLE');
    expect(await run()).toEqual({ sent: 2, failed: 0 });
    const to = (login: string) => box.received.find((m) => m.includes(`To: ${login}@example.com`))!;
    const parts = (login: string) => mailParts(to(login));
    expect(parts('nd_cyril').find((p) => p.contentType === 'text/html')!.text).toContain('Laser &amp; Co 21 Недоступно https://pagewatch.example.com/device/');
    expect(parts('nd_ann').find((p) => p.contentType === 'text/html')!.text).toContain('Laser &amp; Co 21 Not available https://pagewatch.example.com/device/');
    expect(to('nd_cyril')).toMatch(/Subject: =\?UTF-8\?/); // encoded: it holds Cyrillic
    expect(to('nd_cyril')).not.toContain('NOT_AVAILABLE');
    for (const login of ['nd_ann', 'nd_cyril']) {
      const html = parts(login).find((p) => p.contentType === 'text/html')!.text;
      const text = parts(login).find((p) => p.contentType === 'text/plain')!.text;
      expect(text.trim()).toBe(htmlToText(html).trim());
      expect(text.trim()).toMatch(/^Laser & Co 21 (Недоступно|Not available) https:\/\/pagewatch\.example\.com\/device\/\d+$/);
    }
    await db().execute(sql`DELETE FROM users WHERE id = ${cyril}`);
  });

  it('mails an IP change and a replacement with their own variables', async () => {
    await create({ notificationType: { code: 'IP_CHANGE' }, body: '<p>{device.oldIp} to {device.ip}</p>', dim01List: ['MFP'] });
    await create({ notificationType: { code: 'PART_REPLACEMENT' }, body: '<p>{device.partType} {device.partInstallDatetime}</p>', dim01List: ['PRINTER'] });
    await create({ notificationType: { code: 'PART_REPLACEMENT' }, subject: 'Replaced', body: '<p>{device.partType} on {device.serialNumber} at {device.partInstallDatetime}</p>', dim01List: ['MFP'] });
    await event(device, mine, 'IP_CHANGE', '127.0.0.20', '127.0.0.21');
    await event(device, mine, 'SUPPLY_REPLACED', '5', '100'); // an MFP: only the second replacement notification wants it
    await run();
    expect(box.received).toHaveLength(2);
    const ip = box.received.find((m) => m.includes('127.0.0.20 to 127.0.0.21'));
    const replaced = box.received.find((m) => /Subject: Replaced/.test(m));
    expect(ip).toBeDefined();
    expect(replaced).toMatch(/Black Toner on SN&lt;21&gt; at \d{2}\.\d{2}\.\d{4} \d{2}:\d{2}:\d{2} UTC/);
  });

  it('reports a supply at or below the threshold once per crossing, not at every look', async () => {
    await create({ notificationType: { code: 'MIN_CONSUMABLE_LEVEL' }, threshold: 20, body: '<p>{device.partType} {device.partModelCode} {device.partLevel} until {device.partRunsOut}</p>' });
    await db().execute(sql`UPDATE consumables SET runs_out_on = '2026-12-04', days_left = 9.5 WHERE device_id = ${device} AND supply_index = 1`);
    await setLevel(15);
    await run();
    await run();
    expect(box.received).toHaveLength(1);
    // The forecast job's day it runs out, as a day.
    expect(box.received[0]).toContain('Black Toner TK-21 15% until 04.12.2026');
    await setLevel(18);
    await run();
    expect(box.received).toHaveLength(1);
    await setLevel(60); // replaced: its end is told, with how long it lasted, and the next crossing is news again
    await run();
    expect(box.received).toHaveLength(2);
    expect(box.received[1]).toMatch(/Subject: Resolved: About SN<21>/);
    expect(box.received[1]).toMatch(/<p>Resolved after \d+ min\.<\/p>\r?\n<p>Black Toner TK-21 60% until <\/p>/);
    await setLevel(10);
    await run();
    expect(box.received).toHaveLength(3);
    await setLevel(50);
  });

  it('gathers events of a scheduled notification and sends them as one digest when the schedule fires, once', async () => {
    const n = await create({ schedule: '0 0 10 ? * * *', subject: 'Daily status' });
    await event(device, mine, 'STATUS_CHANGE', 'OK', 'ERROR');
    await event(device, mine, 'BACK_ONLINE', 'NOT_AVAILABLE', 'OK');
    await run();
    expect(box.received).toHaveLength(0);
    expect(await countRows(db(), 'notification_digest_items')).toBe(2);

    // The clock reaches the schedule: one message with both events, and the next run tomorrow at 10:00 UTC.
    await db().execute(sql`UPDATE notifications SET next_run_at = now() - interval '1 second' WHERE id = ${n.id}`);
    const dispatcher = t.ctx.notifier.dispatcher;
    const now = new Date();
    expect(await dispatcher.fireDue(now)).toBe(1);
    expect(await dispatcher.fireDue(now)).toBe(0);
    await t.ctx.notifier.sender.sendDue();
    expect(box.received).toHaveLength(1);
    expect(box.received[0]).toMatch(/Subject: Daily status/);
    expect(box.received[0]).toContain('Laser &amp; Co 21 Error');
    expect(box.received[0]).toContain('<hr>');
    const [row] = await sqlRows<{ next: string }>(db(), sql`SELECT next_run_at::text AS next FROM notifications WHERE id = ${n.id}`);
    const next = new Date(row.next);
    expect(next.getUTCHours()).toBe(10);
    expect(next.getTime()).toBeGreaterThan(now.getTime());
    expect(next.getTime() - now.getTime()).toBeLessThanOrEqual(86_400_000);
    expect(await countRows(db(), 'notification_digest_items')).toBe(0);
  });

  it('sends the counters of its locations as a CSV on its schedule', async () => {
    const n = await create({ notificationType: { code: 'COUNTERS' }, schedule: '0 0 10 ? * * *', attachment: 'serialNumber;printedPageCount;printedBwPageCount;location;', subject: 'Counters' });
    await db().execute(sql`UPDATE notifications SET next_run_at = now() - interval '1 second' WHERE id = ${n.id}`);
    await run();
    expect(box.received).toHaveLength(1);
    expect(box.received[0]).toMatch(/filename=counters-\d{4}-\d{2}-\d{2}\.csv/);
    const csv = attachment(box.received[0], 'counters', 'csv').toString();
    // Headed with the columns' names in the server's language (English here; issue 43).
    expect(csv).toBe('\uFEFFSerial number,Total pages,Black-and-white,Location\r\nSN<21>,1234,1000,Location ND_MINE\r\n');
  });

  it('sends a report as a CSV of its attached columns on its schedule', async () => {
    const n = await create({
      notificationType: { code: 'REPORT' }, report: { code: 'INSTALLED_CONSUMABLES' }, fileExtensionCode: 'CSV', schedule: '0 0 10 ? * * *',
      attachment: 'serialNumber;partModelCode;level;', subject: 'Supplies', body: '<p>Attached</p>',
    });
    await db().execute(sql`UPDATE notifications SET next_run_at = now() - interval '1 second' WHERE id = ${n.id}`);
    // A report's file is an export (issue 39): while every place of the server's bound is taken
    // by downloads, the pass leaves it due, and the next pass with a free place sends it.
    const taken = [t.ctx.exports.enter(), t.ctx.exports.enter()];
    await run();
    expect(box.received).toHaveLength(0);
    taken.forEach((ticket) => ticket.release());
    await run();
    expect(box.received).toHaveLength(1);
    expect(box.received[0]).toMatch(/filename=installed-consumables-\d{4}-\d{2}-\d{2}\.csv/);
    const csv = attachment(box.received[0], 'installed-consumables', 'csv').toString();
    expect(csv).toBe('\uFEFFSerial number,Part model code,Level\r\nSN<21>,TK-21,50\r\n');

    // The same as a spreadsheet: typed cells.
    await db().execute(sql`UPDATE notifications SET file_extension = 'XLSX', next_run_at = now() - interval '1 second' WHERE id = ${n.id}`);
    await run();
    expect(box.received).toHaveLength(2);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(attachment(box.received[1], 'installed-consumables', 'xlsx') as unknown as ArrayBuffer);
    expect(book.worksheets[0].name).toBe('Installed consumables');
    expect(book.worksheets[0].getRow(1).values).toEqual([undefined, 'Serial number', 'Part model code', 'Level']);
    expect(book.worksheets[0].getRow(2).values).toEqual([undefined, 'SN<21>', 'TK-21', 50]);
  });

  it('writes a mailed report and counters in the server\'s language: a Russian XLSX sheet bears the report\'s Russian name', async () => {
    // A server whose PAGEWATCH_LANGUAGE is ru (its recipients have no language of their own).
    const russian = new NotificationDispatcher(db(), t.ctx.eventLog, null, t.ctx.exports, 'ru');
    const n = await create({
      notificationType: { code: 'REPORT' }, report: { code: 'INSTALLED_CONSUMABLES' }, fileExtensionCode: 'XLSX', schedule: '0 0 10 ? * * *',
      attachment: 'serialNumber;modelCode;level;refreshDate;', subject: 'Supplies', body: '<p>Attached</p>',
    });
    const c = await create({ notificationType: { code: 'COUNTERS' }, schedule: '0 0 10 ? * * *', attachment: 'serialNumber;modelCode;printedPageCount;', subject: 'Counters' });
    await db().execute(sql`UPDATE notifications SET next_run_at = now() - interval '1 second' WHERE id IN (${n.id}, ${c.id})`);
    await russian.dispatch();
    await t.ctx.notifier.sender.sendDue();
    expect(box.received).toHaveLength(2);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(attachment(box.received.find((m) => m.includes('.xlsx'))!, 'installed-consumables', 'xlsx') as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    // "Установленные расходные материалы" is 33 characters, more than a sheet's name may have.
    expect(sheet.name).toBe('Установленные расходные матери…');
    expect(sheet.getRow(1).values).toEqual([undefined, 'Серийный номер', 'Модель', 'Уровень', 'Обновлено']);
    expect(sheet.getRow(2).getCell(4).value).toBeInstanceOf(Date);
    expect(sheet.getRow(2).getCell(4).numFmt).toBe('dd.mm.yyyy hh:mm');
    const csv = attachment(box.received.find((m) => m.includes('filename=counters-'))!, 'counters', 'csv').toString();
    expect(csv).toBe('\uFEFFСерийный номер;Модель;Всего страниц\r\nSN<21>;Laser & Co 21;1234\r\n');
  });

  it('keeps messages in the outbox while the SMTP server is away, logs each failure, and sends them once it is back', async () => {
    await create({});
    await db().execute(sql`UPDATE settings SET numeric_value = 1 WHERE code = 'SMTP_PORT'`);
    await event(device, mine, 'STATUS_CHANGE', 'OK', 'ERROR');
    expect(await run()).toEqual({ sent: 0, failed: 1 });
    const [m] = await sqlRows<{ attempts: number; waits: boolean }>(db(), sql`SELECT attempts, next_attempt_at > now() AS waits FROM notification_messages`);
    expect(m).toEqual({ attempts: 1, waits: true });
    const [log] = await sqlRows<{ level: string }>(db(), sql`SELECT log_level AS level FROM event_logs WHERE message_code = 'notification.sendFailed' ORDER BY id DESC LIMIT 1`);
    expect(log.level).toBe('W');
    // Once in the server's log too, with the reason and without the address; and in the metric.
    const lines = serverLog.entries('notification e-mail not sent');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'warn', attempt: 1, givenUp: false, reason: expect.stringContaining('ECONNREFUSED') });
    expect(JSON.stringify(lines[0])).not.toContain('nd_ann');
    expect((await t.ctx.metrics.notificationSendFailures.get()).values[0].value).toBe(1);

    await smtpSettingsFor(db(), box.port);
    expect(await run()).toEqual({ sent: 0, failed: 0 }); // still waiting out its back-off
    await db().execute(sql`UPDATE notification_messages SET next_attempt_at = now()`);
    expect(await run()).toEqual({ sent: 1, failed: 0 });
    expect(box.received).toHaveLength(1);
  });

  it('sends over SSL, refusing a self-signed certificate until trust-all is on', async () => {
    await create({});
    const tls = await mailbox({ secure: true });
    try {
      await smtpSettingsFor(db(), tls.port);
      await db().execute(sql`UPDATE settings SET flag_value = true WHERE code = 'SMTP_SSL'`);
      await event(device, mine, 'STATUS_CHANGE', 'OK', 'ERROR');
      expect(await run()).toEqual({ sent: 0, failed: 1 });
      await db().execute(sql`UPDATE settings SET flag_value = true WHERE code = 'SMTP_TRUST-ALL'`);
      await db().execute(sql`UPDATE notification_messages SET next_attempt_at = now()`);
      expect(await run()).toEqual({ sent: 1, failed: 0 });
      expect(tls.received).toHaveLength(1);
    } finally {
      await tls.close();
      await smtpSettingsFor(db(), box.port);
    }
  });

  it('loses nothing when the server dies between the outbox and the send, and sends each message once', async () => {
    await create({});
    await event(device, mine, 'STATUS_CHANGE', 'OK', 'ERROR');
    await t.ctx.notifier.dispatcher.dispatch();
    // An instance leases the message and dies before sending: nobody sends it while the lease holds.
    expect(await claimOne(db(), 60_000)).not.toBeNull();
    expect(await t.ctx.notifier.sender.sendDue()).toEqual({ sent: 0, failed: 0 });
    await db().execute(sql`UPDATE notification_messages SET lease_until = now() - interval '1 second'`);
    expect(await t.ctx.notifier.sender.sendDue()).toEqual({ sent: 1, failed: 0 });
    expect(box.received).toHaveLength(1);
  });

  it('makes each message once when two instances dispatch and send the same events at the same time', async () => {
    await create({});
    for (let i = 0; i < 20; i++) await event(device, mine, 'STATUS_CHANGE', 'OK', 'ERROR');
    // On PostgreSQL the second instance has connections of its own, as a second server process would.
    const other = t.database.url ? await openDatabase({ url: t.database.url, dataDir: '' }) : null;
    const db2 = other?.db ?? db();
    try {
      const dispatcher2 = new NotificationDispatcher(db2, t.ctx.eventLog, null);
      const sender2 = new NotificationSender(db2, t.ctx.eventLog, () => smtpSettings(db2, t.ctx.secrets), { kind: t.database.kind });
      await Promise.all([t.ctx.notifier.dispatcher.dispatch(), dispatcher2.dispatch(), t.ctx.notifier.dispatcher.dispatch()]);
      expect(await countRows(db(), 'notification_messages')).toBe(20);
      await Promise.all([t.ctx.notifier.sender.sendDue(), sender2.sendDue()]);
      sender2.close();
      expect(box.received).toHaveLength(20);
    } finally {
      await other?.close();
    }
  });
});
