import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { WEBHOOK_SCHEMA } from '@pagewatch/contracts/notification-channels';
import { bearer, createTestApp, createUser, signIn } from '../../test/test-app.ts';
import { addLocation } from '../../test/scope-fixture.ts';
import { deleteAll, sqlRows } from '../../test/sql-rows.ts';
import { receiver, type Receiver } from '../../test/receiver.ts';

let t: Awaited<ReturnType<typeof createTestApp>>;
let rx: Receiver;
let admin: string;
let locAdmin: string;
let mine: number;
let device: number;
const logLines: Record<string, unknown>[] = [];
const KEY = 'a-webhook-signing-key-of-the-test';
const TOKEN = '123456:AAbbCCddEEffGGhhIIjjKKll';
const base = '/api/settings/notification-channels';

const db = () => t.ctx.db;
const as = (token: string, lang = 'en') => ({ ...bearer(token), 'accept-language': lang });
const save = (payload: Record<string, unknown>, token = admin, lang = 'en', id?: number) =>
  t.app.inject({ method: id ? 'PUT' : 'POST', url: id ? `${base}/${id}` : base, headers: as(token, lang), payload });
const webhook = (over: Record<string, unknown> = {}) => ({ kind: 'WEBHOOK', name: 'Hook', target: rx.url('/hook'), secret: KEY, enabled: true, allowInternal: true, ...over });
const created = async (payload: Record<string, unknown>) => {
  const res = await save(payload);
  if (res.statusCode !== 200) throw new Error(res.body);
  return res.json() as { id: number };
};
const run = async () => {
  await t.ctx.notifier.dispatcher.dispatch();
  return t.ctx.notifier.sender.sendDue();
};
const statusEvent = () =>
  db().execute(sql`INSERT INTO device_events (event_at, type, device_id, location_id, old_value, new_value) VALUES (now(), 'STATUS_CHANGE', ${device}, ${mine}, 'OK', 'ERROR')`);
const notification = async (channels: number[]) => {
  const res = await t.app.inject({
    method: 'POST', url: '/api/notifications', headers: as(admin),
    payload: { name: 'To channels', active: true, subject: 'About {device.serialNumber}', body: '<p>{device.modelCode} is <b>{device.status}</b></p>', notificationType: { code: 'STATUS_CHANGE' }, locations: [{ id: mine }], subscribers: [], channels: channels.map((id) => ({ id })), schedule: null },
  });
  if (res.statusCode !== 200) throw new Error(res.body);
  return res.json() as { id: number; channels: { id: number }[] };
};
const signature = (r: { headers: Record<string, unknown>; body: string }) =>
  `sha256=${createHmac('sha256', KEY).update(`${String(r.headers['x-pagewatch-timestamp'])}.${r.body}`).digest('hex')}`;

beforeAll(async () => {
  rx = await receiver();
  t = await createTestApp({ telegramApiUrl: rx.url('/tg'), logStream: { write: (line) => void logLines.push(JSON.parse(line) as Record<string, unknown>) } });
  admin = await signIn(t.app);
  mine = await addLocation(db(), 'CH_MINE');
  await createUser(t.app, admin, { login: 'ch_admin', role: 'ADMIN', locationIds: [mine] });
  locAdmin = await signIn(t.app, 'ch_admin', 'Passw0rd!');
  const [d] = await sqlRows<{ id: number }>(db(), sql`INSERT INTO devices (location_id, ip, serial_number, model_code, status_code) VALUES (${mine}, '127.0.0.31', 'SN<31>', 'Laser & Co', 'ERROR') RETURNING id`);
  device = Number(d.id);
});
afterAll(async () => {
  await t.close();
  await rx.close();
});
beforeEach(async () => {
  await deleteAll(db(), ['notification_messages', 'notifications', 'notification_channels', 'device_events']);
  rx.received.length = 0;
  rx.answers.length = 0;
  logLines.length = 0;
});

describe('notification channels', () => {
  it('keeps a channel with its secret sealed and write-only, and a change without the secret keeps it', async () => {
    const c = await created(webhook());
    const listed = await t.app.inject({ method: 'GET', url: base, headers: as(admin) });
    expect(listed.json()).toEqual([{ id: c.id, kind: 'WEBHOOK', name: 'Hook', target: rx.url('/hook'), secretSet: true, enabled: true, allowInternal: true }]);
    expect(listed.body).not.toContain(KEY);
    const [row] = await sqlRows<{ secret: string }>(db(), sql`SELECT secret FROM notification_channels`);
    expect(row.secret).toMatch(/^enc:v1:/);
    expect((await save(webhook({ name: 'Renamed', secret: null }), admin, 'en', c.id)).statusCode).toBe(200);
    const test = await t.app.inject({ method: 'POST', url: `${base}/${c.id}/test`, headers: as(admin) });
    expect(test.json()).toEqual({ message: 'A test message was delivered to Renamed' });
    expect(rx.received[0].headers['x-pagewatch-signature']).toBe(signature(rx.received[0]));
  });

  it('refuses a loopback or link-local address unless the channel allows internal ones, in the caller\'s language', async () => {
    for (const target of [rx.url('/hook'), 'http://localhost:9/hook', 'http://169.254.169.254/latest', 'http://[::1]:9/', 'http://[::ffff:127.0.0.1]:9/',
      // IPv6 spellings that carry a loopback IPv4 address (issue 52, finding 7).
      'http://[::127.0.0.1]:9/', 'http://[::ffff:0:127.0.0.1]:9/', 'http://[64:ff9b::127.0.0.1]:9/', 'http://[2002:7f00:1::1]:9/', 'http://[2001:0:7f00:1::1]:9/']) {
      const res = await save(webhook({ target, allowInternal: false }));
      expect(res.statusCode, target).toBe(400);
      expect(res.json().details[0].field).toBe('target');
      expect(res.json().details[0].message).toMatch(/is a loopback or link-local address: allow internal addresses/);
    }
    const ru = await save(webhook({ allowInternal: false }), admin, 'ru');
    expect(ru.json().details[0].message).toBe('Узел 127.0.0.1 — адрес обратной петли или link-local: чтобы использовать его, разрешите этому каналу внутренние адреса');
    // A Slack URL is the secret: checked as well, and its path is never in the answer.
    const slack = await save({ kind: 'SLACK', name: 'S', secret: 'http://127.0.0.1:9/services/T0/B0/XYZsecret', enabled: true, allowInternal: false });
    expect(slack.json().details[0]).toMatchObject({ field: 'secret' });
    expect(slack.body).not.toContain('XYZsecret');
    const bad = await save({ kind: 'TELEGRAM', name: 'T', target: 'not a chat', secret: 'nope', enabled: true, allowInternal: true }, admin, 'ru');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.map((d: { field: string }) => d.field).sort()).toEqual(['secret', 'target']);
    expect(await sqlRows(db(), sql`SELECT id FROM notification_channels`)).toEqual([]);
  });

  it('is the default administrator\'s: a location administrator neither reads channels nor gives a notification one', async () => {
    const c = await created(webhook());
    expect((await t.app.inject({ method: 'GET', url: base, headers: as(locAdmin) })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/notification-channels', headers: as(locAdmin) })).json()).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: '/api/notification-channels', headers: as(admin) })).json()).toEqual([{ id: c.id, kind: 'WEBHOOK', name: 'Hook' }]);
    const res = await t.app.inject({
      method: 'POST', url: '/api/notifications', headers: as(locAdmin, 'ru'),
      payload: { name: 'Sneaky', active: true, subject: 's', body: '<p>b</p>', notificationType: { code: 'STATUS_CHANGE' }, locations: [{ id: mine }], subscribers: [], channels: [{ id: c.id }], schedule: null },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Каналы уведомления выбирает только администратор по умолчанию');
    // Editing a notification the default admin gave a channel keeps it (the console sends it back unchanged).
    const n = await notification([c.id]);
    const kept = await t.app.inject({
      method: 'PUT', url: `/api/notifications/${n.id}`, headers: as(locAdmin),
      payload: { name: 'Renamed', active: true, subject: 's', body: '<p>b</p>', notificationType: { code: 'STATUS_CHANGE' }, locations: [{ id: mine }], subscribers: [], channels: [{ id: c.id }], schedule: null },
    });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json().channels).toEqual([{ id: c.id, kind: 'WEBHOOK', name: 'Hook' }]);
  });

  it('delivers an event to a webhook, Slack, Teams and Telegram, each in its format, once', async () => {
    const hook = await created(webhook());
    const slack = await created({ kind: 'SLACK', name: 'ops', secret: rx.url('/slack/T0/B0/x'), enabled: true, allowInternal: true });
    const teams = await created({ kind: 'TEAMS', name: 'ops', secret: rx.url('/teams/workflow'), enabled: true, allowInternal: true });
    const tg = await created({ kind: 'TELEGRAM', name: 'ops', target: '-100123', secret: TOKEN, enabled: true, allowInternal: true });
    const n = await notification([hook.id, slack.id, teams.id, tg.id]);
    await statusEvent();
    expect(await run()).toEqual({ sent: 4, failed: 0 });
    expect(await run()).toEqual({ sent: 0, failed: 0 });
    expect(rx.received).toHaveLength(4);
    const at = (prefix: string) => rx.received.find((r) => r.path.startsWith(prefix))!;

    const w = at('/hook');
    expect(w.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(w.headers['x-pagewatch-schema']).toBe(WEBHOOK_SCHEMA);
    expect(w.headers['x-pagewatch-signature']).toBe(signature(w));
    expect(Math.abs(Number(w.headers['x-pagewatch-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    const body = JSON.parse(w.body);
    expect(body).toMatchObject({
      schema: 'pagewatch.notification/v1', id: w.headers['x-pagewatch-delivery'], type: 'STATUS_CHANGE', notification: { id: n.id, name: 'To channels' },
      subject: 'About SN<31>', text: 'Laser & Co is Error', locationId: mine, facts: { serialNumber: 'SN<31>', status: 'Error', modelCode: 'Laser & Co' },
    });
    expect(Object.keys(body).sort()).toEqual(['facts', 'id', 'locationId', 'notification', 'occurredAt', 'schema', 'subject', 'text', 'type']);
    // Dates in ISO 8601 with their offset (issue 54), the location once, as a number, and every field in the schema document.
    expect(body.facts.eventDate).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
    expect(Math.abs(Date.parse(body.facts.eventDate) - Date.now())).toBeLessThan(600_000);
    expect(body.facts).not.toHaveProperty('locationId');
    const doc = readFileSync(new URL('../../../docs/webhook.md', import.meta.url), 'utf8');
    const documented = new Set([...doc.matchAll(/^\| ((?:`[^`]+`(?:, )?)+) \|/gm)].flatMap((m) => [...m[1].matchAll(/`([^`]+)`/g)].map((x) => x[1])));
    for (const field of [...Object.keys(body), ...Object.keys(body.facts)]) expect(documented, field).toContain(field);

    // Slack: https://api.slack.com/messaging/webhooks, text plus Block Kit, & < > escaped.
    expect(JSON.parse(at('/slack/T0/B0/x').body)).toEqual({
      text: 'About SN&lt;31&gt;\nLaser &amp; Co is Error',
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: 'About SN<31>', emoji: false } },
        { type: 'section', text: { type: 'mrkdwn', text: 'Laser &amp; Co is Error' } },
      ],
    });
    // Teams: a message holding an Adaptive Card, as its incoming webhooks (Workflows) take it.
    const card = JSON.parse(at('/teams/workflow').body);
    expect(card).toMatchObject({ type: 'message', attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null }] });
    expect(card.attachments[0].content).toEqual({
      $schema: 'http://adaptivecards.io/schemas/adaptive-card.json', type: 'AdaptiveCard', version: '1.4',
      body: [{ type: 'TextBlock', text: 'About SN<31>', weight: 'Bolder', size: 'Medium', wrap: true }, { type: 'TextBlock', text: 'Laser & Co is Error', wrap: true }],
    });
    // Telegram: the Bot API's sendMessage, HTML parse mode.
    const tgReq = at('/tg/');
    expect(tgReq.path).toBe(`/tg/bot${TOKEN}/sendMessage`);
    expect(JSON.parse(tgReq.body)).toEqual({ chat_id: '-100123', text: '<b>About SN&lt;31&gt;</b>\n\nLaser &amp; Co is Error', parse_mode: 'HTML', disable_web_page_preview: true });

    const logs = await sqlRows<{ message: string }>(db(), sql`SELECT message FROM event_logs WHERE message_code = 'channel.sent' ORDER BY message`);
    expect(logs.map((l) => l.message)).toContain('Message "About SN<31>" delivered to Slack: ops');
    const metrics = await t.ctx.metrics.registry.metrics();
    for (const channel of ['webhook', 'slack', 'teams', 'telegram']) expect(metrics).toContain(`pagewatch_notifications_sent_total{channel="${channel}"} 1`);
  });

  it('retries a refused delivery with back-off under the same delivery id, logging each failure once with its reason', async () => {
    const hook = await created(webhook());
    await notification([hook.id]);
    rx.answers.push(500);
    await statusEvent();
    expect(await run()).toEqual({ sent: 0, failed: 1 });
    const [m] = await sqlRows<{ attempts: number; waits: boolean; error: string }>(db(), sql`SELECT attempts, next_attempt_at > now() AS waits, last_error AS error FROM notification_messages`);
    expect(m).toEqual({ attempts: 1, waits: true, error: 'HTTP 500: receiver says no' });
    const lines = logLines.filter((l) => l.msg === 'notification channel message not sent');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'warn', channel: 'webhook', attempt: 1, reason: 'HTTP 500: receiver says no' });
    expect(JSON.stringify(lines[0])).not.toContain(KEY);
    const scrape = await t.ctx.metrics.registry.metrics();
    expect(scrape).toContain('pagewatch_notification_outbox_queued{channel="webhook"} 1');
    expect(scrape).toContain('pagewatch_notification_outbox_queued{channel="email"} 0');
    expect(scrape).toContain('pagewatch_notification_send_failures_total{channel="webhook"} 1');

    expect(await run()).toEqual({ sent: 0, failed: 0 }); // waiting out its back-off
    await db().execute(sql`UPDATE notification_messages SET next_attempt_at = now()`);
    expect(await run()).toEqual({ sent: 1, failed: 0 });
    expect(rx.received).toHaveLength(2);
    expect(rx.received[1].headers['x-pagewatch-delivery']).toBe(rx.received[0].headers['x-pagewatch-delivery']);
    expect(JSON.parse(rx.received[1].body).id).toBe(JSON.parse(rx.received[0].body).id);
  });

  it('checks an address carrying a loopback IPv4 address again at send, as one saved before this check would be', async () => {
    const hook = await created(webhook());
    await notification([hook.id]);
    await db().execute(sql`UPDATE notification_channels SET target = ${`http://[64:ff9b::127.0.0.1]:${new URL(rx.url('/')).port}/hook`}, allow_internal = false`);
    await statusEvent();
    expect(await run()).toEqual({ sent: 0, failed: 1 });
    const [m] = await sqlRows<{ error: string }>(db(), sql`SELECT last_error AS error FROM notification_messages`);
    expect(m.error).toMatch(/^The host 64:ff9b::7f00:1 is a loopback or link-local address/);
  });

  it('asks for a new signing key when the target changes, and refuses the old one (issue 52, finding 7)', async () => {
    const c = await created(webhook());
    for (const secret of [null, KEY]) {
      const res = await save(webhook({ target: rx.url('/elsewhere'), secret }), admin, 'ru', c.id);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().details).toEqual([expect.objectContaining({ field: 'secret', message: 'Для нового адреса нужен новый ключ подписи' })]);
    }
    const moved = await save(webhook({ target: rx.url('/elsewhere'), secret: 'a-new-signing-key-for-elsewhere' }), admin, 'en', c.id);
    expect(moved.statusCode, moved.body).toBe(200);
    const test = await t.app.inject({ method: 'POST', url: `${base}/${c.id}/test`, headers: as(admin) });
    expect(test.statusCode, test.body).toBe(200);
    const [hit] = rx.received;
    expect(hit!.path).toBe('/elsewhere');
    const stamp = String(hit!.headers['x-pagewatch-timestamp']);
    expect(hit!.headers['x-pagewatch-signature']).toBe(`sha256=${createHmac('sha256', 'a-new-signing-key-for-elsewhere').update(`${stamp}.${hit!.body}`).digest('hex')}`);
  });

  it('checks the address again at each send: a name that now points at loopback is refused (DNS rebinding)', async () => {
    const hook = await created(webhook());
    await notification([hook.id]);
    // As if the name had resolved elsewhere when saved and resolves to loopback now.
    await db().execute(sql`UPDATE notification_channels SET target = ${`http://localhost:${new URL(rx.url('/')).port}/hook`}, allow_internal = false`);
    await statusEvent();
    expect(await run()).toEqual({ sent: 0, failed: 1 });
    expect(rx.received).toHaveLength(0);
    const [m] = await sqlRows<{ error: string }>(db(), sql`SELECT last_error AS error FROM notification_messages`);
    expect(m.error).toMatch(/^The host localhost is a loopback or link-local address/);
    const test = await t.app.inject({ method: 'POST', url: `${base}/${hook.id}/test`, headers: as(admin, 'ru') });
    expect(test.statusCode).toBe(422);
    expect(test.json().message).toBe('Узел localhost — адрес обратной петли или link-local: чтобы использовать его, разрешите этому каналу внутренние адреса');
  });

  it('tells a channel of a counters notification when it fires: its subject and text, without the file', async () => {
    const hook = await created(webhook());
    const res = await t.app.inject({
      method: 'POST', url: '/api/notifications', headers: as(admin),
      payload: { name: 'Counters', active: true, subject: 'Counters', body: '<p>The counters</p>', notificationType: { code: 'COUNTERS' }, locations: [{ id: mine }], subscribers: [], channels: [{ id: hook.id }], schedule: '0 0 10 ? * * *', attachment: 'serialNumber;printedPageCount;' },
    });
    expect(res.statusCode, res.body).toBe(200);
    await db().execute(sql`UPDATE notifications SET next_run_at = now() - interval '1 second'`);
    expect(await run()).toEqual({ sent: 1, failed: 0 });
    expect(JSON.parse(rx.received[0].body)).toMatchObject({ type: 'COUNTERS', subject: 'Counters', text: 'The counters', locationId: null, facts: {} });
  });

  it('says why a test failed, in the caller\'s language, and logs it', async () => {
    const tg = await created({ kind: 'TELEGRAM', name: 'chat', target: '@pagewatch_ops', secret: TOKEN, enabled: true, allowInternal: true });
    rx.answers.push(400);
    const res = await t.app.inject({ method: 'POST', url: `${base}/${tg.id}/test`, headers: as(admin) });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('The test message was not delivered: HTTP 400: Bad Request: chat not found');
    const [log] = await sqlRows<{ level: string }>(db(), sql`SELECT log_level AS level FROM event_logs WHERE message_code = 'channel.testFailed'`);
    expect(log.level).toBe('E');
  });
});
