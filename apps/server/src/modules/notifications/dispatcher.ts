import { randomUUID } from 'node:crypto';
import { NOTIFICATION_TYPES, notificationTypeById, type NotificationTypeCode } from '@pagewatch/contracts/notifications';
import type { Db } from '../../db/client.ts';
import { isBuilt, reportRows } from '../reports/index.ts';
import { suppliesToOrderDigest } from '../supply-orders/index.ts';
import { translate, type Lang } from '../../i18n/messages.ts';
import { ExportGate } from '../../lib/export-gate.ts';
import type { EventLog } from '../event-logs/index.ts';
import * as repo from './dispatch.repository.ts';
import * as alertRepo from './alert-dispatch.repository.ts';
import { formatDuration, syncAgentAlerts } from '../alerts/index.ts';
import { settingValues } from '../settings/index.ts';
import type { NotificationRow } from './notifications.repository.ts';
import { channelMessage, notificationPayload } from './channel-outbox.ts';
import { countersFile, reportFile, reportFilter } from './notification-files.ts';
import { nextFire } from './notification-schedule.ts';
import { enabledChannelsOf, type ChannelRef } from './channels.repository.ts';
import { deviceLink, digestHtml, escapeHtml, fillHtml, fillLine, inLanguage, type Facts } from './render.ts';

type Area = Set<number> | undefined;

/**
 * Whether a user may hear of a notification at all: they see one of its locations (or it covers
 * every location). Anyone else (a subscriber of another customer, a system recipient elsewhere)
 * gets nothing of it, not even its text: a counters or report message would carry the body
 * with an empty file.
 */
export function reaches(area: Area, scope: Set<number> | undefined): boolean {
  if (!scope?.size) return false;
  if (area === undefined) return true;
  for (const l of scope) if (area.has(l)) return true;
  return false;
}
type Context = {
  notifications: NotificationRow[];
  areas: Map<number, Set<number>>;
  recipients: Map<number, repo.Recipient[]>;
  scopes: Map<number, Set<number>>;
  /** The enabled channels of each notification (issue 42). */
  channels: Map<number, ChannelRef[]>;
};

const STATUS_OF = /^([A-Z_]+)/;
/**
 * Turns what happened into e-mails in the outbox: device events (status, IP, replacements),
 * supplies crossing a threshold, and schedules that are due. Each step is one transaction that
 * takes its input (events, alert marks, due schedules) and writes the messages, so a crash
 * loses nothing and two instances never make the same message twice.
 */
export class NotificationDispatcher {
  private readonly db: Db;
  private readonly log: EventLog;
  private readonly publicUrl: string | null;
  private readonly exports: ExportGate;
  private readonly language: Lang;

  /**
   * `exports`: the server's bound on exports, which a scheduled report's files share with the
   * downloads. `language`: that of mails to users who have not signed in yet (their browser's
   * language is theirs once they have).
   */
  constructor(db: Db, log: EventLog, publicUrl: string | null, exports = new ExportGate(2, 20), language: Lang = 'en') {
    this.db = db;
    this.log = log;
    this.publicUrl = publicUrl;
    this.exports = exports;
    this.language = language;
  }

  /** Everything due now: events, level crossings, schedules. Returns how many messages or digest items were made. */
  async dispatch(): Promise<number> {
    let made = 0;
    for (;;) {
      const r = await this.dispatchEvents();
      made += r.made;
      if (r.events < EVENT_BATCH) break;
    }
    // ALERT_REPEAT_HOURS, read once a pass for both the supplies' and the other alerts' repeats.
    const repeat = await this.repeatHours();
    made += await this.dispatchLevels(repeat);
    made += await this.dispatchAlerts(repeat);
    made += await this.fireDue();
    return made;
  }

  private async context(tx: Db, notifications: NotificationRow[]): Promise<Context> {
    const nids = notifications.map((n) => n.id);
    const recipients = await repo.recipientsOf(tx, nids);
    const areas = await repo.notificationAreas(tx, nids);
    const scopes = await repo.userScopes(tx, [...new Set(recipients.map((r) => r.userId))]);
    const byNotification = new Map<number, repo.Recipient[]>();
    for (const r of recipients) {
      if (reaches(areas.get(r.notificationId), scopes.get(r.userId))) byNotification.set(r.notificationId, [...(byNotification.get(r.notificationId) ?? []), r]);
    }
    return { notifications, areas, recipients: byNotification, scopes, channels: await enabledChannelsOf(tx, nids) };
  }

  /**
   * One message per recipient who may see the device: at once (no schedule) to the outbox, or
   * gathered for the notification's next digest.
   */
  private address(ctx: Context, n: NotificationRow, facts: Facts & { locationId: number }, out: Outgoing, wrap?: Wrap) {
    // The same for every recipient of a language: filled and cleaned once per language.
    const filled = new Map<Lang, Mail>();
    for (const r of ctx.recipients.get(n.id) ?? []) {
      if (!ctx.scopes.get(r.userId)?.has(facts.locationId)) continue;
      const lang = r.language ?? this.language;
      let mail = filled.get(lang);
      if (!mail) {
        const local = inLanguage(facts, lang);
        mail = { html: fillHtml(n.body, local), subject: fillLine(n.subject, local) };
        if (wrap) mail = wrap(mail, lang);
        filled.set(lang, mail);
      }
      if (n.schedule) out.digest.push({ notificationId: n.id, userId: r.userId, email: r.email, html: mail.html });
      else out.messages.push({ notificationId: n.id, messageId: messageId(), toEmail: r.email, subject: mail.subject, html: mail.html, attachments: [], locationId: facts.locationId });
    }
    this.toChannels(ctx, n, facts, facts.locationId, out, wrap);
  }

  /**
   * One message per enabled channel of the notification, in the server's language. A channel has
   * no digest: it hears of each event as it happens, and of a scheduled file (counters, a report)
   * its subject and text when it fires, without the file.
   */
  private toChannels(ctx: Context, n: NotificationRow, facts: Facts, locationId: number | null, out: Outgoing, wrap?: Wrap) {
    const channels = ctx.channels.get(n.id);
    if (!channels?.length) return;
    const local = inLanguage(facts, this.language);
    let mail: Mail = { subject: fillLine(n.subject, local), html: fillHtml(n.body, local) };
    // An alert's end or repetition says so on a channel too (issue 42).
    if (wrap) mail = wrap(mail, this.language);
    const payload = notificationPayload(notificationTypeById(n.typeId) ?? String(n.typeId), n, mail.subject, mail.html, local, locationId);
    for (const c of channels) out.messages.push(channelMessage(c, n.id, payload));
  }

  private facts(d: repo.DeviceFacts, at: Date): Facts & { locationId: number } {
    return {
      locationId: d.locationId,
      serialNumber: d.serialNumber,
      ip: d.ip,
      modelCode: d.modelCode,
      hostname: d.hostName,
      snmpLocation: d.snmpLocation,
      status: d.statusCode,
      location: d.locationName,
      consumableLevel: d.consumableLevel,
      interfaceLink: deviceLink(this.publicUrl, d.deviceId),
      eventDate: at,
    };
  }

  /** Device events to messages: the oldest batch not yet processed, in one transaction. */
  async dispatchEvents(): Promise<{ events: number; made: number }> {
    const eventTypes = (['STATUS_CHANGE', 'IP_CHANGE', 'PART_REPLACEMENT'] as const).map((c) => NOTIFICATION_TYPES[c].id);
    return this.db.transaction(async (tx) => {
      const events = await repo.claimEvents(tx, EVENT_BATCH);
      if (!events.length) return { events: 0, made: 0 };
      const notifications = await repo.activeNotifications(tx, eventTypes);
      const out: Outgoing = { messages: [], digest: [] };
      if (notifications.length) {
        const ctx = await this.context(tx, notifications);
        const byEvent = new Map<string, NotificationRow[]>();
        for (const n of notifications) {
          for (const t of NOTIFICATION_TYPES[notificationTypeById(n.typeId)!].events) byEvent.set(t, [...(byEvent.get(t) ?? []), n]);
        }
        for (const e of events) {
          for (const n of byEvent.get(e.type) ?? []) {
            if (!covers(ctx.areas.get(n.id), e.locationId) || !this.matches(n, e)) continue;
            this.address(ctx, n, this.eventFacts(e), out);
          }
        }
      }
      await this.write(tx, out);
      await repo.markProcessed(tx, events.map((e) => e.id));
      return { events: events.length, made: out.messages.length + out.digest.length };
    });
  }

  private matches(n: NotificationRow, e: repo.EventFacts): boolean {
    const code = notificationTypeById(n.typeId);
    if (code === 'STATUS_CHANGE') {
      const status = STATUS_OF.exec(e.newValue ?? '')?.[1] ?? e.statusCode;
      // A device in error is told once when it starts and once when it clears (issue 42): back
      // from unreachable still in error is the same error; its end is the alert's "resolved" mail.
      if (watchesErrors(n) && ((status === 'ERROR' && e.errorGoesOn) || (e.type === 'STATUS_CHANGE' && e.errorEnds))) return false;
      // A device not available is an alert too (issue 54): back online, its end is the alert's mail.
      if (watchesOffline(n) && e.offlineEnds) return false;
      return n.statuses.length === 0 || n.statuses.includes(status);
    }
    return n.dim01List.length === 0 || (e.deviceType !== null && n.dim01List.includes(e.deviceType));
  }

  private eventFacts(e: repo.EventFacts): Facts & { locationId: number } {
    const facts = this.facts(e, e.eventAt);
    if (e.type === 'IP_CHANGE') return { ...facts, ip: e.newValue ?? e.ip, oldIp: e.oldValue };
    if (e.type === 'SUPPLY_REPLACED') {
      return { ...facts, partType: e.partName ?? e.partCode, partModelCode: e.partModelCode, partSerialNumber: e.partSerialNumber, partInstallDatetime: e.eventAt };
    }
    return { ...facts, status: e.newValue ?? e.statusCode };
  }

  /** Supplies that crossed a MIN_CONSUMABLE_LEVEL threshold since the last look. */
  async dispatchLevels(repeat: number, now = new Date()): Promise<number> {
    const typeId = NOTIFICATION_TYPES.MIN_CONSUMABLE_LEVEL.id;
    return this.db.transaction(async (tx) => {
      const clearings = await repo.levelClearings(tx);
      const crossings = await repo.levelCrossings(tx, typeId);
      const repeats = repeat > 0 ? await repo.levelRepeats(tx, repeat, now) : [];
      if (!crossings.length && !clearings.length && !repeats.length) return 0;
      const notifications = await repo.activeNotifications(tx, [typeId]);
      const ctx = await this.context(tx, notifications);
      const byId = new Map(notifications.map((n) => [n.id, n]));
      const out: Outgoing = { messages: [], digest: [] };
      for (const c of clearings) {
        const n = byId.get(c.notificationId);
        if (!n) continue;
        const facts = { ...this.facts(c, c.clearedAt), partType: c.partName ?? c.partCode, partModelCode: c.partModelCode, partSerialNumber: c.partSerialNumber, partLevel: `${c.level}%` };
        this.address(ctx, n, facts, out, resolved(c.clearedAt.getTime() - c.raisedAt.getTime()));
      }
      const levelFacts = (c: repo.LevelAlert) => ({ ...this.facts(c, now), partType: c.partName ?? c.partCode, partModelCode: c.partModelCode, partSerialNumber: c.partSerialNumber, partLevel: `${c.level}%`, partRunsOut: c.runsOutOn ? { day: c.runsOutOn } : null });
      for (const c of crossings) {
        const n = byId.get(c.notificationId);
        if (n) this.address(ctx, n, levelFacts(c), out);
      }
      // Still low, nobody acknowledged it (ALERT_REPEAT_HOURS): told again by each notification that told it.
      for (const c of repeats) {
        const n = byId.get(c.notificationId);
        if (n) this.address(ctx, n, levelFacts(c), out, stillOpen(now.getTime() - c.raisedAt.getTime()));
      }
      await this.write(tx, out);
      return out.messages.length + out.digest.length;
    });
  }

  /**
   * Alerts (issue 42): agents falling silent or heard again, then each alert with a mail due: a
   * device error's end (its start was its STATUS_CHANGE event), a silent agent's start and end,
   * and an open one nobody acknowledged every ALERT_REPEAT_HOURS (0: never).
   */
  async dispatchAlerts(repeat: number, now = new Date()): Promise<number> {
    await this.db.transaction((tx) => syncAgentAlerts(tx, now));
    return this.db.transaction(async (tx) => {
      const alerts = await alertRepo.claimAlertsToMail(tx, repeat, now, EVENT_BATCH);
      if (!alerts.length) return 0;
      const notifications = await repo.activeNotifications(tx, [NOTIFICATION_TYPES.STATUS_CHANGE.id, NOTIFICATION_TYPES.AGENT_SILENT.id]);
      const ctx = await this.context(tx, notifications);
      const out: Outgoing = { messages: [], digest: [] };
      for (const a of alerts) {
        const typeId = NOTIFICATION_TYPES[a.kind === 'AGENT_SILENT' ? 'AGENT_SILENT' : 'STATUS_CHANGE'].id;
        const facts = this.alertFacts(a, now);
        const wraps: (Wrap | undefined)[] = [];
        if (!a.startMailed) wraps.push(undefined);
        if (a.resolvedAt && !a.resolveMailed) wraps.push((a.kind === 'DEVICE_OFFLINE' ? backOnline : resolved)(a.resolvedAt.getTime() - a.startedAt.getTime()));
        if (!wraps.length) wraps.push(stillOpen(now.getTime() - a.startedAt.getTime()));
        for (const n of notifications) {
          if (n.typeId !== typeId || !covers(ctx.areas.get(n.id), a.locationId) || !WATCHES[a.kind](n)) continue;
          for (const wrap of wraps) this.address(ctx, n, facts, out, wrap);
        }
      }
      await this.write(tx, out);
      await alertRepo.markAlertsMailed(tx, alerts.map((a) => a.id), now);
      return out.messages.length + out.digest.length;
    });
  }

  /** ALERT_REPEAT_HOURS: how often an open alert nobody acknowledged is told again (0: never). */
  private async repeatHours(): Promise<number> {
    return Number((await settingValues(this.db, ['ALERT_REPEAT_HOURS'])).ALERT_REPEAT_HOURS ?? 0);
  }

  private alertFacts(a: alertRepo.AlertToMail, now: Date): Facts & { locationId: number } {
    if (a.kind === 'AGENT_SILENT') {
      return { locationId: a.locationId, agentName: a.agentName, location: a.locationName, lastContact: a.lastContactAt, eventDate: a.resolvedAt ?? a.startedAt };
    }
    const facts = this.facts(a as repo.DeviceFacts, a.resolvedAt ?? (a.startMailed ? now : a.startedAt));
    // The device as it is now: its errors while in error, its status once it cleared.
    const errors = a.errorBits?.length ? ` (${a.errorBits.join(', ')})` : '';
    return { ...facts, status: `${a.statusCode}${a.statusCode === 'ERROR' ? errors : ''}` };
  }

  /** Schedules that are due: digests, counter files. Each fires once and moves to its next time. */
  async fireDue(now = new Date()): Promise<number> {
    // A report's files are exports: made in a place of the server's gate (issue 39), taken before
    // the transaction (on PGlite a transaction holds every other statement back, the downloads'
    // pages too). Without a free place, this pass fires the rest and leaves the reports due.
    if (await repo.reportDue(this.db)) {
      const done = await this.exports.runIfFree(() => this.fireDueIn(now, true));
      if (done.ran) return done.value;
    }
    return this.fireDueIn(now, false);
  }

  private async fireDueIn(now: Date, reports: boolean): Promise<number> {
    return this.db.transaction(async (tx) => {
      const due = await repo.claimDue(tx, 100, reports);
      if (!due.length) return 0;
      const ctx = await this.context(tx, due);
      const out: Outgoing = { messages: [], digest: [] };
      for (const n of due) {
        const code = notificationTypeById(n.typeId)!;
        await this.fire(tx, ctx, n, code, out, now);
        await repo.setNextRun(tx, n.id, nextFire(n.schedule, now));
      }
      await this.write(tx, out);
      return out.messages.length;
    });
  }

  private async fire(tx: Db, ctx: Context, n: NotificationRow, code: NotificationTypeCode, out: Outgoing, now: Date) {
    const subject = fillLine(n.subject, {});
    if (code === 'COUNTERS' || code === 'REPORT') this.toChannels(ctx, n, {}, null, out);
    if (code === 'COUNTERS') {
      const rows = await repo.counterRows(tx, ctx.areas.get(n.id) ?? null);
      for (const r of ctx.recipients.get(n.id) ?? []) {
        const file = countersFile(n, rows, ctx.scopes.get(r.userId) ?? new Set<number>(), r.language ?? this.language, now);
        out.messages.push({ notificationId: n.id, messageId: messageId(), toEmail: r.email, subject, html: fillHtml(n.body, {}), locationId: null, attachments: [file] });
      }
      return;
    }
    if (code === 'REPORT') {
      await this.fireReport(tx, ctx, n, out, now);
      return;
    }
    if (code === 'SUPPLIES_TO_ORDER') {
      await this.fireSupplies(tx, ctx, n, out);
      return;
    }
    const items = await repo.takeDigest(tx, n.id);
    const byEmail = new Map<string, string[]>();
    for (const i of items) byEmail.set(i.email, [...(byEmail.get(i.email) ?? []), i.html]);
    for (const [email, parts] of byEmail) {
      out.messages.push({ notificationId: n.id, messageId: messageId(), toEmail: email, subject, html: digestHtml(parts), attachments: [], locationId: null });
    }
  }

  /**
   * A report of the time since the last run (a day for the first), as CSV or XLSX, each
   * recipient's rows their own, written in the recipient's language (an XLSX's sheet is the
   * report's name in it).
   */
  private async fireReport(tx: Db, ctx: Context, n: NotificationRow, out: Outgoing, now: Date) {
    const report = n.reportCode;
    if (!report || !isBuilt(report)) {
      await this.log.write({ group: 'NOTIFICATIONS', level: 'W', messageCode: 'notification.reportUnavailable', params: { name: n.name } }, tx);
      return;
    }
    const rows = await reportRows(tx, report, reportFilter(n, ctx.areas.get(n.id) ?? null, now));
    for (const r of ctx.recipients.get(n.id) ?? []) {
      const file = await reportFile(n, report, rows, ctx.scopes.get(r.userId) ?? new Set<number>(), r.language ?? this.language, now);
      out.messages.push({ notificationId: n.id, messageId: messageId(), toEmail: r.email, subject: fillLine(n.subject, {}), html: fillHtml(n.body, {}), locationId: null, attachments: [file] });
    }
  }

  /**
   * What to order (issue 45): per recipient, a message for each location of theirs (within the
   * notification's) that has something to order, in the recipient's language, its list attached.
   */
  private async fireSupplies(tx: Db, ctx: Context, n: NotificationRow, out: Outgoing) {
    const area = ctx.areas.get(n.id);
    for (const r of ctx.recipients.get(n.id) ?? []) {
      const places = [...(ctx.scopes.get(r.userId) ?? [])].filter((l) => covers(area, l));
      for (const part of await suppliesToOrderDigest(tx, places, r.language ?? this.language)) {
        out.messages.push({
          notificationId: n.id, messageId: messageId(), toEmail: r.email, subject: `${fillLine(n.subject, {})}: ${part.locationName}`,
          html: `${fillHtml(n.body, {})}\n${part.html}`, attachments: [part.attachment], locationId: part.locationId,
        });
      }
    }
  }

  private async write(tx: Db, out: Outgoing) {
    for (let i = 0; i < out.messages.length; i += WRITE_BATCH) await repo.insertMessages(tx, out.messages.slice(i, i + WRITE_BATCH));
    for (let i = 0; i < out.digest.length; i += WRITE_BATCH) await repo.insertDigestItems(tx, out.digest.slice(i, i + WRITE_BATCH));
  }
}

type Outgoing = { messages: repo.NewMessage[]; digest: { notificationId: number; userId: number; email: string; html: string }[] };
type Mail = { html: string; subject: string };
/** A notification's own mail with a line before it, in the recipient's language (an alert's end, its repetition). */
type Wrap = (mail: Mail, lang: Lang) => Mail;

const wrapWith = (subjectKey: string, lineKey: string, ms: number): Wrap => (mail, lang) => ({
  subject: translate(lang, subjectKey, { subject: mail.subject }).slice(0, 998),
  html: `<p>${escapeHtml(translate(lang, lineKey, { duration: formatDuration(ms, lang) }))}</p>\n${mail.html}`,
});
/** "Resolved: …", with how long it lasted. */
const resolved = (ms: number) => wrapWith('alerts.resolvedSubject', 'alerts.resolvedAfter', ms);
/** "Still open: …", with how long so far. */
const stillOpen = (ms: number) => wrapWith('alerts.repeatSubject', 'alerts.openFor', ms);
/** "Back online: …", with how long the device was not available (issue 54). */
const backOnline = (ms: number) => wrapWith('alerts.backOnlineSubject', 'alerts.backOnlineAfter', ms);
/** A STATUS_CHANGE notification that hears of errors: its device errors are alerts, told at their start and end. */
const watchesErrors = (n: NotificationRow) => n.statuses.length === 0 || n.statuses.includes('ERROR');
/** One that hears of devices not available: their DEVICE_OFFLINE alerts are told at their start (the event) and end. */
const watchesOffline = (n: NotificationRow) => n.statuses.length === 0 || n.statuses.includes('NOT_AVAILABLE');
/** Which notifications (of the kind's type) hear of an alert's end and repetitions. */
const WATCHES: Record<alertRepo.AlertToMail['kind'], (n: NotificationRow) => boolean> = { DEVICE_ERROR: watchesErrors, DEVICE_OFFLINE: watchesOffline, AGENT_SILENT: () => true };

const EVENT_BATCH = 2_000;
const WRITE_BATCH = 1_000;
const covers = (area: Area, locationId: number) => area === undefined || area.has(locationId);
const messageId = () => `<${randomUUID()}@pagewatch>`;
