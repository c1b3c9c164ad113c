import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { bearer, createUser, testApp } from '../../test/test-app.ts';
import { mailbox, mailParts, smtpSettingsFor, type Mailbox } from '../../test/mailbox.ts';
import { sqlRows } from '../../test/sql-rows.ts';
import { agentReading, batch, createAgent, post } from '../ingest/ingest.fixtures.ts';
import { formatDuration } from './alerts.duration.ts';

/**
 * A device not available is an alert (issue 54), through the agent's runs as they finish: it
 * opens after OFFLINE_MISSED_POLLS missed polls (a setting, 2 by default), is mailed once, can
 * be acknowledged, and resolves with "back online after 2 h 10 min" in each recipient's language;
 * a run finished again (a restart) opens nothing twice.
 */
const t = testApp({ publicUrl: 'https://pagewatch.example.com/' });
const IP = '127.0.54.1';
const T0 = Date.now() - 30 * 3600_000;
const at = (minutes: number) => new Date(T0 + minutes * 60_000);
let box: Mailbox;
let token: string;
let rangeId: number;

beforeAll(async () => {
  box = await mailbox();
  const agent = await createAgent(t.app, t.admin, { range: { from: IP, to: '127.0.54.9' } });
  await smtpSettingsFor(t.ctx.db, box.port);
  ({ token } = agent);
  rangeId = agent.rangeId!;
  const ann = await createUser(t.app, t.admin, { login: 'off_ann', role: 'OPERATOR', locationIds: [agent.locationId] });
  const ivan = await createUser(t.app, t.admin, { login: 'off_ivan', role: 'OPERATOR', locationIds: [agent.locationId] });
  await t.ctx.db.execute(sql`UPDATE users SET language = 'ru' WHERE id = ${ivan}`);
  const res = await t.app.inject({
    method: 'POST', url: '/api/notifications', headers: bearer(t.admin),
    payload: { name: 'N', active: true, subject: '{device.serialNumber} {device.status}', body: '<p>{device.serialNumber} {device.status}</p>', locations: [],
      subscribers: [{ id: ann }, { id: ivan }], schedule: null, notificationType: { code: 'STATUS_CHANGE' }, statuses: [] },
  });
  expect(res.statusCode, res.body).toBe(200);
});
afterAll(() => box.close());

const send = async () => {
  await t.ctx.notifier.dispatcher.dispatch();
  await t.ctx.notifier.sender.sendDue();
};
/** A run of the agent that starts at `minutes`, reads `read` (or nothing) and finishes, then what the notifications make of it. */
const run = async (minutes: number, read: boolean) => {
  const runId = randomUUID();
  expect((await t.app.inject({ method: 'POST', url: '/api/agent/runs', headers: bearer(token), payload: { runId, startedAt: at(minutes).toISOString() } })).statusCode).toBe(200);
  if (read) expect((await post(t.app, token, batch([agentReading(IP, { serial: 'OFF1', total: 100 + minutes }, { readAt: at(minutes + 1), rangeId, runId })]))).statusCode).toBe(200);
  const fin = await t.app.inject({
    method: 'POST', url: `/api/agent/runs/${runId}/finish`, headers: bearer(token),
    payload: { finishedAt: at(minutes + 2).toISOString(), rangeResults: [{ rangeId, scanned: 9, found: read ? 1 : 0, durationMs: 900, error: null }] },
  });
  expect(fin.statusCode, fin.body).toBe(204);
  await send();
};
/** Each mail's recipient and subject (its RFC 2047 words decoded; the mailbox has taken the soft line break after the last one). */
const mails = () => box.received.map((m) => {
  const subject = /Subject: (.*?)(?:\r?\n|Message-ID:)/.exec(m)![1].replace(/=\?UTF-8\?B\?([^?]*)\?=?\s*/gi, (_, b) => Buffer.from(b, 'base64').toString()).trim();
  return `${/To: (\S+)/.exec(m)![1]} ${subject}`;
}).sort();
const offline = async () => (await sqlRows<{ id: number; started: Date; resolved: Date | null }>(t.ctx.db, sql`
  SELECT a.id, a.started_at AS started, a.resolved_at AS resolved FROM alerts a JOIN devices d ON d.id = a.device_id WHERE a.kind = 'DEVICE_OFFLINE' AND d.serial_number = 'OFF1' ORDER BY a.id`));

describe('a device not available (issue 54)', () => {
  it('opens after the set number of missed polls, is told once, is acknowledged, and resolves with how long it was away', async () => {
    // Three missed polls, not the default two.
    const bad = await t.app.inject({ method: 'PUT', url: '/api/settings', headers: { ...bearer(t.admin), 'accept-language': 'ru' }, payload: [{ code: 'OFFLINE_MISSED_POLLS', numericValue: 0 }] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0]).toMatchObject({ field: 'OFFLINE_MISSED_POLLS', message: 'Целое число опросов от 1 до 100' });
    const set = await t.app.inject({ method: 'PUT', url: '/api/settings', headers: bearer(t.admin), payload: [{ code: 'OFFLINE_MISSED_POLLS', numericValue: 3 }] });
    expect(set.statusCode, set.body).toBe(200);

    await run(0, true);
    await run(10, false);
    await run(20, false);
    expect(await offline()).toEqual([]);
    expect(box.received).toHaveLength(0);
    await run(30, false);
    // From its last read: not available since then.
    const [open] = await offline();
    expect(open).toMatchObject({ resolved: null });
    expect(new Date(open.started).toISOString()).toBe(at(1).toISOString());
    expect(mails()).toEqual(['off_ann@example.com OFF1 Not available', 'off_ivan@example.com OFF1 Недоступно']);

    // Listed with the others, and acknowledged.
    const listed = ((await t.app.inject({ url: '/api/alerts', headers: bearer(t.admin) })).json() as { id: number; kind: string; device: { serialNumber: string } }[]).filter((a) => a.kind === 'DEVICE_OFFLINE');
    expect(listed).toEqual([expect.objectContaining({ id: Number(open.id), device: expect.objectContaining({ serialNumber: 'OFF1' }) })]);
    const ack = await t.app.inject({ method: 'POST', url: `/api/alerts/${open.id}/acknowledge`, headers: bearer(t.admin) });
    expect(ack.statusCode, ack.body).toBe(200);
    expect(ack.json()).toMatchObject({ kind: 'DEVICE_OFFLINE', acknowledgedBy: 'admin' });

    // More runs without it, the server started again in between (its passes run anew): nothing twice.
    await run(40, false);
    await send();
    expect(await offline()).toHaveLength(1);
    expect(box.received).toHaveLength(2);

    // Read again 2 h 10 min after its last read: one mail each, in their language, not a second one for the BACK_ONLINE event.
    await run(130, true);
    await send();
    const [closed] = await offline();
    expect(new Date(closed.resolved!).toISOString()).toBe(at(131).toISOString());
    expect(mails()).toEqual([
      'off_ann@example.com Back online: OFF1 OK', 'off_ann@example.com OFF1 Not available',
      'off_ivan@example.com OFF1 Недоступно', 'off_ivan@example.com Снова доступно: OFF1 Норма',
    ]);
    const texts = box.received.map((m) => mailParts(m).map((p) => p.text).join('\n')).join('\n');
    expect(texts).toContain('Back online after 2 h 10 min.');
    expect(texts).toContain('Снова доступно через 2 ч 10 мин.');
  });

  it('says the duration in both languages', () => {
    expect(formatDuration(130 * 60_000, 'en')).toBe('2 h 10 min');
    expect(formatDuration(130 * 60_000, 'ru')).toBe('2 ч 10 мин');
  });
});
