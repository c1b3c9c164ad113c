import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { bearer, createUser, testApp } from '../../test/test-app.ts';
import { mailbox, smtpSettingsFor, type Mailbox } from '../../test/mailbox.ts';
import { deleteAll } from '../../test/sql-rows.ts';
import { agentReading, batch, createAgent, post, type Printer } from '../ingest/ingest.fixtures.ts';

/**
 * The alert life cycle with simulated devices (issue 42): a device that stays in error, or a
 * supply that stays low, over several polls is one mail when it starts and one when it clears.
 */
const t = testApp({ publicUrl: 'https://pagewatch.example.com/' });
let box: Mailbox;
let token: string;
let agentId: number;
let rangeId: number;
let ann: number;

const T0 = Date.now() - 30 * 3600_000;
const at = (minutes: number) => new Date(T0 + minutes * 60_000);
const IP = '127.0.42.1';

beforeAll(async () => {
  box = await mailbox();
  await smtpSettingsFor(t.ctx.db, box.port);
  const agent = await createAgent(t.app, t.admin, { range: { from: '127.0.42.1', to: '127.0.42.9' } });
  ({ token, agentId } = agent);
  rangeId = agent.rangeId!;
  ann = await createUser(t.app, t.admin, { login: 'al_ann', role: 'OPERATOR', locationIds: [agent.locationId] });
});
afterAll(() => box.close());
beforeEach(async () => {
  await deleteAll(t.ctx.db, ['notification_messages', 'notifications', 'device_events', 'alerts', 'consumables', 'devices']);
  box.received.length = 0;
});

const notify = async (over: Record<string, unknown>) => {
  const res = await t.app.inject({
    method: 'POST', url: '/api/notifications', headers: bearer(t.admin),
    payload: { name: 'N', active: true, subject: '{device.serialNumber} {device.status}', body: '<p>{device.serialNumber} {device.status}</p>', locations: [], subscribers: [{ id: ann }], schedule: null, ...over },
  });
  expect(res.statusCode, res.body).toBe(200);
};
const dispatchAndSend = async () => {
  await t.ctx.notifier.dispatcher.dispatch();
  await t.ctx.notifier.sender.sendDue();
};
/** One poll of the simulated device: its reading stored, then what the notifications make of it sent. */
const poll = async (p: Printer, minutes: number) => {
  const res = await post(t.app, token, batch([agentReading(IP, p, { readAt: at(minutes), rangeId })]));
  expect(res.statusCode, res.body).toBe(200);
  await dispatchAndSend();
};
const subjects = () => box.received.map((m) => /Subject: (.*)/.exec(m)![1]);
/** As a finished run does after two missed polls (ingest's markMissed). */
const goesAway = () => t.ctx.db.execute(sql`UPDATE devices SET not_available_flag = true, status_code = 'NOT_AVAILABLE' WHERE ip = ${IP}`);

describe('alert life cycle', () => {
  it('mails a device in error once when it starts and once when it clears, with how long it lasted, whatever happens between', async () => {
    await notify({ notificationType: { code: 'STATUS_CHANGE' }, statuses: ['ERROR'] });
    await poll({ serial: 'AL1', total: 100 }, 0);
    await poll({ serial: 'AL1', total: 100, errors: ['jammed'] }, 10);
    expect(subjects()).toEqual(['AL1 Error (jammed)']);
    await poll({ serial: 'AL1', total: 100, errors: ['jammed'] }, 20);
    await poll({ serial: 'AL1', total: 100, errors: ['jammed', 'noPaper'] }, 30);
    // It misses polls and comes back still in error: the same condition, not a new one.
    await goesAway();
    await poll({ serial: 'AL1', total: 100, errors: ['jammed'] }, 40);
    expect(subjects()).toHaveLength(1);
    await poll({ serial: 'AL1', total: 101 }, 10 + 3 * 60 + 12);
    await poll({ serial: 'AL1', total: 102 }, 10 + 3 * 60 + 22);
    expect(subjects()).toHaveLength(2);
    expect(box.received[1]).toContain('Resolved after 3 h 12 min');
  });

  it('mails a device first seen in error once, by its alert (it has no status change)', async () => {
    await notify({ notificationType: { code: 'STATUS_CHANGE' }, statuses: [] });
    await poll({ serial: 'AL5', total: 100, errors: ['jammed'] }, 0);
    await poll({ serial: 'AL5', total: 100, errors: ['jammed'] }, 10);
    expect(subjects()).toEqual(['AL5 Error (jammed)']);
  });

  it('mails a supply under its threshold once when it starts and once when it clears, not at each reading around the threshold', async () => {
    await notify({ notificationType: { code: 'MIN_CONSUMABLE_LEVEL' }, threshold: 10, dim01List: [] });
    await poll({ serial: 'AL2', total: 100, black: 50 }, 0);
    await poll({ serial: 'AL2', total: 200, black: 9 }, 10);
    expect(subjects()).toHaveLength(1);
    await poll({ serial: 'AL2', total: 210, black: 9 }, 20);
    // A level read a point higher, then lower again: still the same low supply.
    await poll({ serial: 'AL2', total: 220, black: 11 }, 30);
    await poll({ serial: 'AL2', total: 230, black: 8 }, 40);
    expect(subjects()).toHaveLength(1);
    await poll({ serial: 'AL2', total: 240, black: 95 }, 10 + 25 * 60);
    await poll({ serial: 'AL2', total: 250, black: 94 }, 10 + 25 * 60 + 10);
    expect(subjects()).toHaveLength(2);
    expect(box.received[1]).toContain('Resolved after 1 d 1 h');
  });

  it('mails a silent agent once when it falls silent and once when it is heard again', async () => {
    await notify({ notificationType: { code: 'AGENT_SILENT' }, subject: '{device.agentName} silent', body: '<p>{device.agentName} at {device.location}, last heard {device.lastContact}</p>' });
    await poll({ serial: 'AL3', total: 1 }, 0);
    // Two hours without a word from it (as a stopped agent would leave it).
    await t.ctx.db.execute(sql`UPDATE agents SET last_contact_at = now() - interval '2 hours' WHERE id = ${agentId}`);
    await dispatchAndSend();
    await dispatchAndSend();
    expect(subjects()).toEqual(['Agent silent']);
    expect(box.received[0]).toMatch(/Agent at Default, last heard \d\d\.\d\d\.\d{4} /);
    // It starts again: it registers, as an agent does at its start.
    const reg = await t.app.inject({ method: 'POST', url: '/api/agent/register', headers: bearer(token), payload: { version: '0.1.0', hostname: 'pc1', platform: 'linux' } });
    expect(reg.statusCode, reg.body).toBe(200);
    await poll({ serial: 'AL3', total: 2 }, 1);
    await poll({ serial: 'AL3', total: 3 }, 2);
    expect(subjects()).toEqual(['Agent silent', 'Resolved: Agent silent']);
    expect(box.received[1]).toContain('Resolved after 2 h');
  });

  it('mails an open alert again every ALERT_REPEAT_HOURS while nobody acknowledges it, and not after', async () => {
    await notify({ notificationType: { code: 'STATUS_CHANGE' }, statuses: [] });
    await t.ctx.db.execute(sql`UPDATE settings SET numeric_value = 4 WHERE code = 'ALERT_REPEAT_HOURS'`);
    try {
      await poll({ serial: 'AL4', total: 1 }, 0);
      await poll({ serial: 'AL4', total: 1, errors: ['doorOpen'] }, 1);
      expect(subjects()).toEqual(['AL4 Error (doorOpen)']);
      const [alert] = (await t.app.inject({ url: '/api/alerts', headers: bearer(t.admin) })).json() as { id: number }[];
      // Told five hours ago: due again.
      await t.ctx.db.execute(sql`UPDATE alerts SET last_notified_at = now() - interval '5 hours' WHERE id = ${alert.id}`);
      await dispatchAndSend();
      await dispatchAndSend();
      expect(subjects()).toEqual(['AL4 Error (doorOpen)', 'Still open: AL4 Error (doorOpen)']);
      expect(box.received[1]).toMatch(/Open for \d+ (d|h)/);
      const ack = await t.app.inject({ method: 'POST', url: `/api/alerts/${alert.id}/acknowledge`, headers: bearer(t.admin) });
      expect(ack.statusCode, ack.body).toBe(200);
      await t.ctx.db.execute(sql`UPDATE alerts SET last_notified_at = now() - interval '5 hours' WHERE id = ${alert.id}`);
      await dispatchAndSend();
      expect(subjects()).toHaveLength(2);
      // Acknowledged is not resolved: its end is still told.
      await poll({ serial: 'AL4', total: 2 }, 61);
      expect(subjects()).toEqual(['AL4 Error (doorOpen)', 'Still open: AL4 Error (doorOpen)', 'Resolved: AL4 OK']);
      expect(box.received[2]).toContain('Resolved after 1 h');
    } finally {
      await t.ctx.db.execute(sql`UPDATE settings SET numeric_value = 0 WHERE code = 'ALERT_REPEAT_HOURS'`);
    }
  });

  it('mails a low supply again every ALERT_REPEAT_HOURS while nobody acknowledges it, by the notification that told it', async () => {
    await notify({ notificationType: { code: 'MIN_CONSUMABLE_LEVEL' }, threshold: 10, dim01List: [] });
    await t.ctx.db.execute(sql`UPDATE settings SET numeric_value = 4 WHERE code = 'ALERT_REPEAT_HOURS'`);
    try {
      await poll({ serial: 'AL6', total: 100, black: 50 }, 0);
      await poll({ serial: 'AL6', total: 200, black: 5 }, 10);
      expect(subjects()).toHaveLength(1);
      const alert = ((await t.app.inject({ url: '/api/alerts', headers: bearer(t.admin) })).json() as { id: number; kind: string }[]).find((a) => a.kind === 'SUPPLY_LOW')!;
      // Told five hours ago: due again, once (the next pass finds its clock moved on).
      await t.ctx.db.execute(sql`UPDATE alerts SET last_notified_at = now() - interval '5 hours' WHERE id = ${alert.id}`);
      await dispatchAndSend();
      await dispatchAndSend();
      expect(subjects()).toEqual([subjects()[0], `Still open: ${subjects()[0]}`]);
      expect(box.received[1]).toMatch(/Open for \d+ (d|h)/);
      // Acknowledged: no more repeats, whatever the clock says.
      expect((await t.app.inject({ method: 'POST', url: `/api/alerts/${alert.id}/acknowledge`, headers: bearer(t.admin) })).statusCode).toBe(200);
      await t.ctx.db.execute(sql`UPDATE alerts SET last_notified_at = now() - interval '5 hours' WHERE id = ${alert.id}`);
      await dispatchAndSend();
      expect(subjects()).toHaveLength(2);
    } finally {
      await t.ctx.db.execute(sql`UPDATE settings SET numeric_value = 0 WHERE code = 'ALERT_REPEAT_HOURS'`);
    }
  });
});
