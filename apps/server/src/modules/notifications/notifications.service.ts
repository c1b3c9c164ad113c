import type { ListQuery } from '@pagewatch/contracts/list';
import {
  attachmentColumns,
  inputTypeCode,
  NOTIFICATION_TYPE_CODES,
  NOTIFICATION_TYPES,
  notificationInputSchema,
  notificationTypeById,
  stripUnknownVariables,
  THRESHOLD_DEFAULT,
  typeHasField,
  type Notification,
  type NotificationInput,
  type NotificationListRow,
  type NotificationType,
  type ParsedNotification,
  type Subscriber,
  type UserNotificationRow,
} from '@pagewatch/contracts/notifications';
import { REPORTS, reportColumns, type ReportCode } from '@pagewatch/contracts/reports';
import type { Db } from '../../db/client.ts';
import { translate, type Lang } from '../../i18n/messages.ts';
import { AppError, notFound, type FieldError } from '../../lib/app-error.ts';
import { runList } from '../../lib/list-run.ts';
import { sendMail, type SmtpSettings } from '../../lib/mailer.ts';
import type { Caller } from '../../lib/caller.ts';
import { countTestMail } from '../auth/index.ts';
import { DomainService, type EventLog } from '../event-logs/index.ts';
import { reaches } from './dispatch-kit.ts';
import { nextFire, validSchedule } from './notification-schedule.ts';
import { countersFile, reportFile, reportFilter } from './notification-files.ts';
import { counterRows, notificationAreas, recipientsOf, sampleDevice, userScopes } from './dispatch.repository.ts';
import * as repo from './notifications.repository.ts';
import { channelsOf, existingChannels, setChannelLinks } from './channels.repository.ts';
import { notificationsListSql, userNotificationsListSql } from './notifications.list.ts';
import { cleanBody, deviceLink, fillHtml, fillLine, inLanguage, type Facts } from './render.ts';
import { isBuilt, reportRows } from '../reports/index.ts';
import './notifications.messages.ts';
import './channels.messages.ts';

/** Notifications: the grid, the form's verbs, the test e-mail (grants MNU_NOTIFICATIONS). */
export class NotificationsService extends DomainService {
  private readonly publicUrl: string | null;
  /** The language of mails to users who have not signed in yet. */
  private readonly language: Lang;
  private readonly smtp: () => Promise<SmtpSettings>;

  constructor(db: Db, log: EventLog, opts: { publicUrl: string | null; smtp: () => Promise<SmtpSettings>; language?: Lang }) {
    super(db, log);
    this.publicUrl = opts.publicUrl;
    this.language = opts.language ?? 'en';
    this.smtp = opts.smtp;
  }

  list(caller: Caller, q: ListQuery) {
    return runList<NotificationListRow>(this.db, notificationsListSql, q, caller);
  }

  userNotifications(caller: Caller, q: ListQuery) {
    return runList<UserNotificationRow>(this.db, userNotificationsListSql, q, caller);
  }

  types(lang: Lang): NotificationType[] {
    return NOTIFICATION_TYPE_CODES.map((code) => ({ id: NOTIFICATION_TYPES[code].id, code, name: translate(lang, `notification.types.${code}`) }));
  }

  async subscribers(caller: Caller): Promise<Subscriber[]> {
    return repo.subscriberChoices(this.db, caller);
  }

  /** The notification if the caller sees it: all its locations are theirs (none: every location). */
  private async visible(caller: Caller, id: number): Promise<{ row: repo.NotificationRow; locations: { id: number; name: string }[] }> {
    const row = await repo.notificationById(this.db, id);
    if (!row) throw notFound();
    const locations = await repo.locationsOf(this.db, id);
    const sees = locations.length ? locations.every((l) => caller.scope.has(l.id)) : caller.allLocations;
    if (!sees) throw new AppError('OUT_OF_SCOPE');
    return { row, locations };
  }

  private async view(caller: Caller, row: repo.NotificationRow, locations: { id: number; name: string }[], lang: Lang): Promise<Notification> {
    const code = notificationTypeById(row.typeId)!;
    const all = await repo.subscribersOf(this.db, row.id);
    // Subscribers the caller may not see are not shown to them (update() says what becomes of them).
    const seen = await repo.visibleUserIds(this.db, all.map((s) => s.id), caller);
    const above = await this.subscribersAbove(this.db, row.id, all.filter((s) => !seen.has(s.id)).map((s) => s.id));
    return {
      id: row.id,
      name: row.name,
      active: row.active,
      description: row.description,
      subject: row.subject,
      body: row.body,
      notificationType: { id: row.typeId, code, name: translate(lang, `notification.types.${code}`) },
      locations,
      subscribers: all.filter((s) => seen.has(s.id)),
      channels: await channelsOf(this.db, row.id),
      schedule: row.schedule,
      isScheduled: row.schedule !== null,
      isEditable: caller.grants.has('MNU_NOTIFICATIONS.EDIT') && !above.length,
      includeSystemSubscribers: row.includeSystemSubscribers,
      statuses: row.statuses,
      dim01List: row.dim01List,
      dim02List: row.dim02List,
      dim03List: row.dim03List,
      threshold: row.threshold,
      report: row.reportCode ? { code: row.reportCode, name: translate(lang, `reports.type.${row.reportCode}`) } : null,
      fileExtension: row.fileExtension ? { code: row.fileExtension, name: row.fileExtension } : null,
      fileExtensionCode: row.fileExtension,
      attachment: row.attachment,
      nextRunAt: row.nextRunAt ? row.nextRunAt.toISOString() : null,
    };
  }

  /** Of the given subscribers (hidden from a caller), those who see the notification's locations as stored. */
  private async subscribersAbove(db: Db, id: number, hidden: number[]): Promise<number[]> {
    if (!hidden.length) return [];
    const area = (await notificationAreas(db, [id])).get(id);
    const scopes = await userScopes(db, hidden);
    return hidden.filter((u) => reaches(area, scopes.get(u)));
  }

  async get(caller: Caller, id: number, lang: Lang): Promise<Notification> {
    const { row, locations } = await this.visible(caller, id);
    return this.view(caller, row, locations, lang);
  }

  /** Checks what the schema cannot: the caller's locations and users, the schedule, the report. */
  private async checked(caller: Caller, input: NotificationInput, existing: repo.NotificationRow | null) {
    const n = notificationInputSchema.parse(input);
    const code = inputTypeCode(n);
    const fields: FieldError[] = [];
    if (existing && notificationTypeById(existing.typeId) !== code) fields.push({ field: 'notificationType', key: 'notification.typeLocked' });
    if (existing?.reportCode && n.report?.code !== existing.reportCode) fields.push({ field: 'report', key: 'notification.reportLocked' });
    if (n.schedule && !validSchedule(n.schedule)) fields.push({ field: 'schedule', key: 'notification.badSchedule' });
    // What is left of the body once markup it may not hold is dropped must still say something.
    if (!cleanBody(n.body).replace(/<[^>]*>/g, '').trim()) fields.push({ field: 'body', key: 'general.mandatory' });
    if (code === 'REPORT' && n.report) {
      if (!isBuilt(n.report.code)) fields.push({ field: 'report', key: 'general.badValue' });
      else if (attachmentColumns(n.attachment).some((c) => !reportColumns(n.report!.code as ReportCode).includes(c))) fields.push({ field: 'attachment', key: 'general.badValue' });
      const format = n.fileExtensionCode ?? n.fileExtension?.code;
      if (!(REPORTS[n.report.code as ReportCode]?.formats as readonly string[] | undefined)?.includes(format ?? '')) fields.push({ field: 'fileExtension', key: 'general.badValue' });
    }

    const locationIds = [...new Set(n.locations.map((l) => l.id))];
    const known = await repo.existingLocations(this.db, locationIds);
    if (locationIds.some((l) => !known.has(l))) fields.push({ field: 'locations', key: 'general.badValue' });
    else if (locationIds.some((l) => !caller.scope.has(l))) throw new AppError('OUT_OF_SCOPE');
    // None means every location: only for a caller who sees them all.
    if (!locationIds.length && !caller.allLocations) fields.push({ field: 'locations', key: 'notification.locationsRequired' });

    const userIds = [...new Set(n.subscribers.map((s) => s.id))];
    const seen = await repo.visibleUserIds(this.db, userIds, caller);
    if (userIds.some((u) => !seen.has(u))) fields.push({ field: 'subscribers', key: 'notification.subscriberOutOfScope' });
    const channelIds = await this.checkedChannels(caller, n, existing, fields);
    if (fields.length) throw new AppError('VALIDATION', { fields });
    return { n, code, locationIds, userIds, channelIds };
  }

  /**
   * The channels to keep (issue 42); null: as they are. They are the default administrator's, as
   * the SMTP settings: only they change which ones a notification goes to (security.md, invariant 2).
   */
  private async checkedChannels(caller: Caller, n: ParsedNotification, existing: repo.NotificationRow | null, fields: FieldError[]): Promise<number[] | null> {
    if (!n.channels) return null;
    const ids = [...new Set(n.channels.map((c) => c.id))];
    const before = existing ? (await channelsOf(this.db, existing.id)).map((c) => c.id) : [];
    const same = ids.length === before.length && ids.every((i) => before.includes(i));
    if (same) return null;
    if (!caller.defaultAdmin) throw new AppError('FORBIDDEN', { key: 'notification.channelsDefaultAdminOnly' });
    const known = await existingChannels(this.db, ids);
    if (ids.some((i) => !known.has(i))) fields.push({ field: 'channels', key: 'general.badValue' });
    return ids;
  }

  private values(n: ParsedNotification, code: ReturnType<typeof inputTypeCode>, now: Date): repo.NotificationValues {
    const has = (f: Parameters<typeof typeHasField>[1]) => typeHasField(code, f);
    const schedule = n.schedule ?? null;
    return {
      typeId: NOTIFICATION_TYPES[code].id,
      name: n.name,
      active: n.active,
      description: n.description?.trim() || null,
      subject: n.subject,
      body: cleanBody(stripUnknownVariables(n.body, code)),
      schedule,
      includeSystemSubscribers: n.includeSystemSubscribers,
      statuses: has('statuses') ? n.statuses : [],
      dim01List: has('dim01List') ? n.dim01List : [],
      dim02List: has('dim02List') ? n.dim02List : [],
      dim03List: has('dim03List') ? n.dim03List : [],
      threshold: has('threshold') ? (n.threshold ?? THRESHOLD_DEFAULT) : null,
      reportCode: has('report') ? (n.report?.code ?? null) : null,
      fileExtension: has('fileExtension') ? (n.fileExtensionCode ?? n.fileExtension?.code ?? 'CSV') : null,
      attachment: has('attachment') ? (n.attachment ?? null) : null,
      nextRunAt: n.active ? nextFire(schedule, now) : null,
      updatedAt: now,
    };
  }

  async create(caller: Caller, input: NotificationInput, lang: Lang): Promise<Notification> {
    const { n, code, locationIds, userIds, channelIds } = await this.checked(caller, input, null);
    const id = await this.db.transaction(async (tx) => {
      const row = await repo.insertNotification(tx, { ...this.values(n, code, new Date()), createdBy: caller.userId });
      await repo.setLocations(tx, row.id, locationIds);
      await repo.setSubscribers(tx, row.id, userIds);
      if (channelIds) await setChannelLinks(tx, row.id, channelIds);
      await this.log.byCaller(caller, { group: 'NOTIFICATIONS', level: 'I', messageCode: 'notification.created', params: { name: row.name }, locationId: locationIds[0] ?? null }, tx);
      return row.id;
    });
    return this.get(caller, id, lang);
  }

  async update(caller: Caller, id: number, input: NotificationInput, lang: Lang): Promise<Notification> {
    const { row: existing } = await this.visible(caller, id);
    const { n, code, locationIds, userIds, channelIds } = await this.checked(caller, input, existing);
    await this.db.transaction(async (tx) => {
      await repo.updateNotification(tx, id, this.values(n, code, new Date()));
      await repo.setLocations(tx, id, locationIds);
      // The caller chooses among the subscribers it sees; those it cannot see stay as they are
      // (issue 52): an edit never changes what it does not show. One who sees none of the
      // notification's locations (another customer's user) gets no message of it, so the
      // caller's text reaches no one it cannot see. One who does see them is above the caller
      // (the dealer's or a region's administrator) and would get the caller's text: the edit is
      // refused instead, and view() shows such a notification as not editable.
      const before = await repo.subscribersOf(tx, id);
      const seen = await repo.visibleUserIds(tx, before.map((s) => s.id), caller);
      const hidden = before.filter((s) => !seen.has(s.id)).map((s) => s.id);
      if ((await this.subscribersAbove(tx, id, hidden)).length) throw new AppError('FORBIDDEN', { key: 'notification.hiddenSubscribers' });
      await repo.setSubscribers(tx, id, [...new Set([...userIds, ...hidden])]);
      if (channelIds) await setChannelLinks(tx, id, channelIds);
      await this.log.byCaller(caller, { group: 'NOTIFICATIONS', level: 'I', messageCode: 'notification.updated', params: { name: n.name }, locationId: locationIds[0] ?? null }, tx);
    });
    return this.get(caller, id, lang);
  }

  async remove(caller: Caller, id: number) {
    const { row, locations } = await this.visible(caller, id);
    await this.db.transaction(async (tx) => {
      await repo.deleteNotification(tx, id);
      await this.log.byCaller(caller, { group: 'NOTIFICATIONS', level: 'I', messageCode: 'notification.deleted', params: { name: row.name }, locationId: locations[0]?.id ?? null }, tx);
    });
  }

  /**
   * Sends the notification now to each of its recipients the caller may write to, filled with a
   * device that both the caller and the recipient may see (or with the variables' names where
   * there is none), so the sender sees what the message will look like. Sent directly, not
   * through the outbox: an SMTP failure is the answer.
   */
  async testEmail(caller: Caller, id: number): Promise<{ sent: number }> {
    const { row } = await this.visible(caller, id);
    const code = notificationTypeById(row.typeId)!;
    const all = await recipientsOf(this.db, [id]);
    if (!all.length) throw new AppError('VALIDATION', { fields: [{ field: 'subscribers', key: 'notification.noRecipients' }] });
    const area = (await notificationAreas(this.db, [id])).get(id);
    const scopes = await userScopes(this.db, all.map((r) => r.userId));
    // Decided now, not when the notification was saved: the caller's own users (a system
    // recipient such as the default administrator, or a subscriber of another customer, is not
    // one), and of them those its real messages reach.
    const seen = await repo.visibleUserIds(this.db, all.map((r) => r.userId), caller);
    const recipients = all.filter((r) => seen.has(r.userId) && reaches(area, scopes.get(r.userId)));
    if (!recipients.length) throw new AppError('VALIDATION', { fields: [{ field: 'subscribers', key: 'notification.noRecipientsInScope' }] });
    const smtp = await this.smtp();
    await countTestMail(this.db, caller.userId, recipients.length);
    const names = Object.fromEntries(NOTIFICATION_TYPES[code].variables.map((v) => [v, `[${v}]`]));
    // A counters or report notification's test carries its file as the real mail will: the
    // recipient's devices (those the caller sees too), in the recipient's language.
    const now = new Date();
    const counters = code === 'COUNTERS' ? await counterRows(this.db, area ?? null) : null;
    const report = code === 'REPORT' && row.reportCode && isBuilt(row.reportCode) ? row.reportCode : null;
    const reportData = report ? await reportRows(this.db, report, reportFilter(row, area ?? null, now)) : null;
    const to: string[] = [];
    try {
      for (const r of recipients) {
        const places = new Set([...(scopes.get(r.userId) ?? [])].filter((l) => caller.scope.has(l) && (!area || area.has(l))));
        const device = await sampleDevice(this.db, places);
        // In the recipient's language, as the real message will be.
        const lang = r.language ?? this.language;
        const facts: Facts = inLanguage(device ? { ...names, ...this.deviceFacts(device) } : names, lang);
        const files = counters ? [countersFile(row, counters, places, lang, now)] : report && reportData ? [await reportFile(row, report, reportData, places, lang, now)] : [];
        await sendMail(smtp, {
          to: r.email,
          subject: `${translate(lang, 'notification.testPrefix')} ${fillLine(row.subject, facts)}`,
          html: fillHtml(row.body, facts),
          attachments: files.map((f) => ({ filename: f.filename, content: f.encoding === 'base64' ? Buffer.from(f.content, 'base64') : f.content, contentType: f.contentType })),
        });
        to.push(r.email);
      }
    } catch (err) {
      const reason = err instanceof AppError ? String(err.params.reason ?? err.code) : String(err);
      await this.log.byCaller(caller, { group: 'NOTIFICATIONS', level: 'E', messageCode: 'notification.testFailed', params: { name: row.name, reason } });
      throw err;
    }
    await this.log.byCaller(caller, { group: 'NOTIFICATIONS', level: 'I', messageCode: 'notification.testSent', params: { name: row.name, to: to.join(', ') } });
    return { sent: to.length };
  }

  private deviceFacts(d: NonNullable<Awaited<ReturnType<typeof sampleDevice>>>): Facts {
    return {
      serialNumber: d.serialNumber, ip: d.ip, modelCode: d.modelCode, hostname: d.hostName, snmpLocation: d.snmpLocation,
      status: d.statusCode, location: d.locationName, consumableLevel: d.consumableLevel, interfaceLink: deviceLink(this.publicUrl, d.deviceId),
      eventDate: new Date(),
    };
  }
}
