import { randomUUID } from 'node:crypto';
import { notificationTypeById } from '@pagewatch/contracts/notifications';
import type { Db } from '../../db/client.ts';
import { translate, type Lang } from '../../i18n/messages.ts';
import type { EventLog } from '../event-logs/index.ts';
import { formatDuration } from '../alerts/index.ts';
import * as repo from './dispatch.repository.ts';
import type { NotificationRow } from './notifications.repository.ts';
import { channelMessage, notificationPayload } from './channel-outbox.ts';
import { enabledChannelsOf, type ChannelRef } from './channels.repository.ts';
import { deviceLink, escapeHtml, fillHtml, fillLine, inLanguage, type Facts } from './render.ts';

/**
 * What every notification type's handler (./types/type-handlers.ts) shares with the
 * dispatcher: who hears of a notification (its context), how one event's facts become
 * messages to its recipients and channels, and how a pass writes what it made.
 */

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

export type Context = {
  notifications: NotificationRow[];
  areas: Map<number, Set<number>>;
  recipients: Map<number, repo.Recipient[]>;
  scopes: Map<number, Set<number>>;
  /** The enabled channels of each notification (issue 42). */
  channels: Map<number, ChannelRef[]>;
};

export type Outgoing = { messages: repo.NewMessage[]; digest: { notificationId: number; userId: number; email: string; html: string }[] };
export type Mail = { html: string; subject: string };
/** A notification's own mail with a line before it, in the recipient's language (an alert's end, its repetition). */
export type Wrap = (mail: Mail, lang: Lang) => Mail;
export type DeviceFacts = Facts & { locationId: number };

export const newOutgoing = (): Outgoing => ({ messages: [], digest: [] });
export const made = (out: Outgoing) => out.messages.length + out.digest.length;
export const covers = (area: Area, locationId: number) => area === undefined || area.has(locationId);
export const messageId = () => `<${randomUUID()}@pagewatch>`;

const wrapWith = (subjectKey: string, lineKey: string, ms: number): Wrap => (mail, lang) => ({
  subject: translate(lang, subjectKey, { subject: mail.subject }).slice(0, 998),
  html: `<p>${escapeHtml(translate(lang, lineKey, { duration: formatDuration(ms, lang) }))}</p>\n${mail.html}`,
});
/** "Resolved: …", with how long it lasted. */
export const resolved = (ms: number) => wrapWith('alerts.resolvedSubject', 'alerts.resolvedAfter', ms);
/** "Still open: …", with how long so far. */
export const stillOpen = (ms: number) => wrapWith('alerts.repeatSubject', 'alerts.openFor', ms);
/** "Back online: …", with how long the device was not available (issue 54). */
export const backOnline = (ms: number) => wrapWith('alerts.backOnlineSubject', 'alerts.backOnlineAfter', ms);

const WRITE_BATCH = 1_000;

/** The outbox messages and digest items of a pass, in batches. */
export async function writeOutgoing(tx: Db, out: Outgoing) {
  for (let i = 0; i < out.messages.length; i += WRITE_BATCH) await repo.insertMessages(tx, out.messages.slice(i, i + WRITE_BATCH));
  for (let i = 0; i < out.digest.length; i += WRITE_BATCH) await repo.insertDigestItems(tx, out.digest.slice(i, i + WRITE_BATCH));
}

/** The dispatcher's settings as its handlers need them. */
export class DispatchKit {
  /**
   * `language`: that of mails to users who have not signed in yet (their browser's language is
   * theirs once they have), and of every channel message.
   */
  readonly log: EventLog;
  readonly language: Lang;
  private readonly publicUrl: string | null;

  constructor(log: EventLog, publicUrl: string | null, language: Lang) {
    this.log = log;
    this.publicUrl = publicUrl;
    this.language = language;
  }

  async context(tx: Db, notifications: NotificationRow[]): Promise<Context> {
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
  address(ctx: Context, n: NotificationRow, facts: DeviceFacts, out: Outgoing, wrap?: Wrap) {
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
  toChannels(ctx: Context, n: NotificationRow, facts: Facts, locationId: number | null, out: Outgoing, wrap?: Wrap) {
    const channels = ctx.channels.get(n.id);
    if (!channels?.length) return;
    const local = inLanguage(facts, this.language);
    let mail: Mail = { subject: fillLine(n.subject, local), html: fillHtml(n.body, local) };
    // An alert's end or repetition says so on a channel too (issue 42).
    if (wrap) mail = wrap(mail, this.language);
    const payload = notificationPayload(notificationTypeById(n.typeId) ?? String(n.typeId), n, mail.subject, mail.html, local, locationId);
    for (const c of channels) out.messages.push(channelMessage(c, n.id, payload));
  }

  /** A device's facts as a body's variables know them. */
  facts(d: repo.DeviceFacts, at: Date): DeviceFacts {
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
}
