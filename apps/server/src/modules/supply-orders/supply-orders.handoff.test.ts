import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { bearer, createUser, signedInAs, testApp } from '../../test/test-app.ts';
import { addLocation } from '../../test/scope-fixture.ts';
import { deleteAll, sqlRows } from '../../test/sql-rows.ts';
import { mailbox, mailParts, smtpSettingsFor, type Mailbox } from '../../test/mailbox.ts';
import { receiver } from '../../test/receiver.ts';

/**
 * Orders handed off (issue 45): to the supplier of the location or of its nearest parent, an
 * e-mail in the orderer's language with the orders as a CSV; none without a supplier; and the
 * daily "supplies to order" digest (SUPPLIES_TO_ORDER), a message per location of the
 * recipient's, in their language, its list attached. Through a real SMTP server.
 */
const t = testApp();
let box: Mailbox;
let parent: number;
let child: number;
let lonely: number;
let ann: number;
const devices = new Map<string, number>();

const device = async (locationId: number, serial: string, level: number) => {
  const [d] = await sqlRows<{ id: number }>(t.ctx.db, sql`INSERT INTO devices (location_id, ip, serial_number, model_code) VALUES (${locationId}, '127.0.47.1', ${serial}, 'M') RETURNING id`);
  await t.ctx.db.execute(sql`INSERT INTO consumables (device_id, supply_index, part_code, part_name, part_model_code, level, refreshed_at) VALUES (${d.id}, 1, 'toner', 'Black toner', 'TN-9', ${level}, now())`);
  devices.set(serial, Number(d.id));
};
const order = (serial: string, lang: string, reference: string | null = null) =>
  t.app.inject({ method: 'POST', url: '/api/supply-orders', headers: { ...bearer(t.admin), 'accept-language': lang }, payload: { supplies: [{ deviceId: devices.get(serial)!, supplyIndex: 1 }], reference } });
const toFrom = (raw: string) => /^To: (.*)$/m.exec(raw)?.[1];
/**
 * A subject as sent: plain, or nodemailer's base64 encoded words, whose closing `?=` at a line's
 * end the mailbox took for a soft line break; their bytes are joined before decoding.
 */
const subjectOf = (raw: string) => {
  const line = /^Subject: (.*)$/m.exec(raw)![1]!;
  const words = [...line.matchAll(/=\?UTF-8\?B\?([A-Za-z0-9+/=]*)\?/gi)].map((m) => Buffer.from(m[1]!, 'base64'));
  return words.length ? Buffer.concat(words).toString('utf8') : line;
};

/** Sends what is due, which must be one mail: its recipient, subject, HTML text and attached CSV. */
const sentMail = async () => {
  expect(await t.ctx.notifier.sender.sendDue()).toEqual({ sent: 1, failed: 0 });
  const [mail] = box.received;
  const parts = mailParts(mail!);
  return {
    to: toFrom(mail!),
    subject: subjectOf(mail!),
    html: parts.find((p) => p.contentType === 'text/html')!.text,
    text: parts.find((p) => p.contentType === 'text/plain')!.text,
    csv: parts.find((p) => p.filename?.endsWith('.csv'))!.text,
  };
};

beforeAll(async () => {
  parent = await addLocation(t.ctx.db, 'HO_PARENT');
  child = await addLocation(t.ctx.db, 'HO_CHILD', 'HO_PARENT');
  lonely = await addLocation(t.ctx.db, 'HO_LONELY');
  ann = await createUser(t.app, t.admin, { login: 'ho_ann', role: 'OPERATOR', locationIds: [parent] });
  box = await mailbox();
  await smtpSettingsFor(t.ctx.db, box.port);
  await device(child, 'HO-1', 4);
  await device(child, 'HO-2', 3);
  await device(lonely, 'HO-3', 2);
  const res = await t.app.inject({ method: 'PUT', url: `/api/supply-orders/settings/${parent}`, headers: bearer(t.admin), payload: { leadDays: 7, marginDays: 7, supplierEmail: 'parent-supplier@example.com' } });
  expect(res.statusCode, res.body).toBe(200);
});
afterAll(() => box.close());
beforeEach(async () => {
  await deleteAll(t.ctx.db, ['notification_messages', 'notifications']);
  box.received.length = 0;
});

describe('the supplier hand-off', () => {
  it('mails the order to the nearest parent\'s supplier, in the orderer\'s language, the orders as a CSV', async () => {
    expect((await t.app.inject({ url: '/api/supply-orders/settings', headers: bearer(t.admin) })).json().find((s: { locationId: number }) => s.locationId === child))
      .toMatchObject({ supplierEmail: null, effectiveEmail: 'parent-supplier@example.com' });
    expect((await order('HO-1', 'ru', 'ЗК-7')).statusCode).toBe(200);
    const mail = await sentMail();
    expect(mail.to).toBe('parent-supplier@example.com');
    // The subject is fixed text and the order's id: neither the reference nor a name typed by a caller.
    expect(mail.subject).toMatch(/^Заказ расходных материалов №\d+$/);
    expect(mail.html).toContain('Наш номер заказа: ЗК-7');
    // The text part has the quantities in aligned columns, not run together (issue 54).
    const table = mail.text.split(/\r?\n/).filter((l) => l.includes('TN-9') || l.includes('Black toner') || /Модель|Тип/.test(l));
    expect(table).toHaveLength(2);
    const [head, row] = table as [string, string];
    expect(row).toMatch(/^TN-9 +Black toner +1$/);
    expect(head.length).toBe(row.length);
    expect(head.indexOf(head.trim().split(/ {2,}/)[1]!)).toBe(row.indexOf('Black toner'));
    expect(mail.csv).toBe('\uFEFFРасположение;Серийный номер;Модель расходника;Тип расходника;Номер заказа\r\nLocation HO_CHILD;HO-1;TN-9;Black toner;ЗК-7');
    expect((await sqlRows<{ message: string }>(t.ctx.db, sql`SELECT message FROM event_logs WHERE message_code = 'supplyOrder.mailed'`)).map((r) => r.message))
      .toEqual(['Order of 1 supplies by admin sent to the supplier parent-supplier@example.com']);
  });

  it('posts each location\'s orders to every enabled webhook channel, signed, as a SUPPLY_ORDER message', async () => {
    const rx = await receiver();
    try {
      const made = await t.app.inject({ method: 'POST', url: '/api/settings/notification-channels', headers: bearer(t.admin),
        payload: { kind: 'WEBHOOK', name: 'ERP', target: rx.url('/erp'), secret: 'erp-signing-key-0123456789', enabled: true, allowInternal: true } });
      expect(made.statusCode, made.body).toBe(200);
      expect((await order('HO-3', 'en', 'PO-42')).statusCode).toBe(200);
      // No supplier up HO-3's tree: no mail, but the webhook has the order.
      expect(await t.ctx.notifier.sender.sendDue()).toEqual({ sent: 1, failed: 0 });
      expect(box.received).toEqual([]);
      const [hit] = rx.received;
      const body = JSON.parse(hit!.body);
      expect(body).toMatchObject({ schema: 'pagewatch.notification/v1', type: 'SUPPLY_ORDER', notification: null, locationId: lonely,
        facts: { location: 'Location HO_LONELY', count: '1', reference: 'PO-42', order1: expect.stringMatching(/^\d+;HO-3;TN-9;Black toner$/) } });
      expect(body.text).toContain('PO-42');
      const stamp = String(hit!.headers['x-pagewatch-timestamp']);
      expect(hit!.headers['x-pagewatch-signature']).toBe(`sha256=${createHmac('sha256', 'erp-signing-key-0123456789').update(`${stamp}.${hit!.body}`).digest('hex')}`);
    } finally {
      await deleteAll(t.ctx.db, ['notification_messages', 'notification_channels']);
      await t.ctx.db.execute(sql`DELETE FROM supply_orders WHERE device_id = ${devices.get('HO-3')!}`);
      await rx.close();
    }
  });

  it('sends nothing where no location up the tree names a supplier', async () => {
    expect((await order('HO-3', 'en')).statusCode).toBe(200);
    expect(await t.ctx.notifier.sender.sendDue()).toEqual({ sent: 0, failed: 0 });
  });
});

describe('the supplier mail is no relay (issue 52, finding 3)', () => {
  const SPAM = 'Cheap pills at spam.example';
  let outside: number;
  let admins: string;
  /** Orders and cancels the location's one supply, as its admin, `times` times: each order a mail. */
  const orderAndCancel = async (token: string, serial: string, times: number) => {
    for (let i = 0; i < times; i++) {
      const res = await t.app.inject({ method: 'POST', url: '/api/supply-orders', headers: bearer(token), payload: { supplies: [{ deviceId: devices.get(serial)!, supplyIndex: 1 }], reference: SPAM } });
      expect(res.statusCode, res.body).toBe(200);
      expect((await t.app.inject({ method: 'POST', url: `/api/supply-orders/${res.json()[0].id}/cancel`, headers: bearer(token) })).statusCode).toBe(200);
    }
  };
  const held = () => sqlRows<{ at: string }>(t.ctx.db, sql`SELECT next_attempt_at::text AS at FROM notification_messages WHERE sent_at IS NULL AND next_attempt_at > now() ORDER BY next_attempt_at`);

  beforeAll(async () => {
    outside = await addLocation(t.ctx.db, 'HO_OUTSIDE');
    admins = await signedInAs(t, { login: 'ho_relay', role: 'ADMIN', locationIds: [outside] });
    await device(outside, 'HO-R', 3);
    const res = await t.app.inject({ method: 'PUT', url: `/api/supply-orders/settings/${outside}`, headers: bearer(admins), payload: { leadDays: 7, marginDays: 7, supplierEmail: 'victim@outside.example' } });
    expect(res.statusCode, res.body).toBe(200);
  });
  beforeEach(() => deleteAll(t.ctx.db, ['auth_throttle']));

  it('sends a location\'s first mails at once and holds the rest back, one every ten minutes; every order is saved and every mail goes in the end', async () => {
    await orderAndCancel(admins, 'HO-R', 10);
    expect((await sqlRows<{ n: number }>(t.ctx.db, sql`SELECT count(*)::int AS n FROM supply_orders WHERE device_id = ${devices.get('HO-R')!}`))[0]!.n).toBe(10);
    expect(await t.ctx.notifier.sender.sendDue()).toEqual({ sent: 5, failed: 0 });
    // No subject carries the caller's text.
    expect(box.received.map(subjectOf).filter((s) => s.includes('pills'))).toEqual([]);
    const later = (await held()).map((r) => Date.parse(r.at));
    expect(later).toHaveLength(5);
    expect(Math.round((later[0]! - Date.now()) / 60_000)).toBe(10);
    expect(later.slice(1).map((at, i) => Math.round((at - later[i]!) / 60_000))).toEqual([10, 10, 10, 10]);
    const notes = await sqlRows<{ message: string; level: string }>(t.ctx.db, sql`SELECT message, log_level AS level FROM event_logs WHERE message_code = 'supplyOrder.mailHeld' ORDER BY id`);
    expect(notes).toHaveLength(5);
    expect(notes[0]).toMatchObject({ level: 'W', message: expect.stringMatching(/^Order of 1 supplies by ho_relay to the supplier victim@outside\.example held back until \d{4}-\d\d-\d\d \d\d:\d\d UTC: a location sends 5 supplier mails at once, then one every 10 minutes$/) });
    // Nothing is lost: when their time comes, the held mails go.
    await t.ctx.db.execute(sql`UPDATE notification_messages SET next_attempt_at = now() WHERE sent_at IS NULL`);
    expect(await t.ctx.notifier.sender.sendDue()).toEqual({ sent: 5, failed: 0 });
  });

  it('holds back the whole instance\'s mails past thirty at once, whichever locations order, counted in the database', async () => {
    const places = await Promise.all([1, 2, 3, 4, 5, 6, 7].map(async (i) => {
      const id = await addLocation(t.ctx.db, `HO_MANY${i}`);
      await device(id, `HO-M${i}`, 3);
      const res = await t.app.inject({ method: 'PUT', url: `/api/supply-orders/settings/${id}`, headers: bearer(t.admin), payload: { leadDays: 7, marginDays: 7, supplierEmail: `s${i}@outside.example` } });
      expect(res.statusCode, res.body).toBe(200);
      return i;
    }));
    for (const i of places) await orderAndCancel(t.admin, `HO-M${i}`, 5);
    expect(await t.ctx.notifier.sender.sendDue()).toEqual({ sent: 30, failed: 0 });
    expect(await held()).toHaveLength(5);
    expect((await sqlRows<{ message: string }>(t.ctx.db, sql`SELECT message FROM event_logs WHERE message_code = 'supplyOrder.mailHeldInstance' ORDER BY id`)).map((r) => r.message))
      .toEqual(Array(5).fill(expect.stringMatching(/held back until .* UTC: Pagewatch sends 30 supplier mails at once, then one every 2 minutes$/)));
  });
});

describe('the daily "supplies to order" digest', () => {
  it('mails each recipient what to order per location of theirs, in their language, the list attached', async () => {
    await t.ctx.db.execute(sql`UPDATE users SET language = 'ru' WHERE id = ${ann}`);
    const res = await t.app.inject({
      method: 'POST', url: '/api/notifications', headers: bearer(t.admin),
      payload: { name: 'Supplies', active: true, subject: 'To order', body: '<p>Daily</p>', notificationType: { code: 'SUPPLIES_TO_ORDER' }, locations: [{ id: parent }, { id: lonely }], subscribers: [{ id: ann }], schedule: '0 0 8 ? * * *' },
    });
    expect(res.statusCode, res.body).toBe(200);
    await t.ctx.db.execute(sql`UPDATE notifications SET next_run_at = now() - interval '1 second' WHERE id = ${res.json().id}`);
    await t.ctx.notifier.dispatcher.dispatch();
    // HO-1 is ordered (above): only HO-2 is left to order in Ann's locations; HO-3 is not hers.
    const mail = await sentMail();
    expect(mail.to).toBe('ho_ann@example.com');
    expect(mail.subject).toBe('To order: Location HO_CHILD');
    expect(mail.html).toContain('Что заказать для Location HO_CHILD: закончится в ближайшие 14 дн.');
    expect(mail.csv).toBe('\uFEFFРасположение;Модель расходника;Тип расходника;Заказать;Первым закончится\r\nLocation HO_CHILD;TN-9;toner;1;');
  });
});
