import { NOTIFICATION_TYPE_CODES, NOTIFICATION_TYPES, notificationTypeById } from '@pagewatch/contracts/notifications';
import type { Db } from '../../db/client.ts';
import type { Lang } from '../../i18n/messages.ts';
import { ExportGate } from '../../lib/export-gate.ts';
import type { EventLog } from '../event-logs/index.ts';
import * as repo from './dispatch.repository.ts';
import * as alertRepo from './alert-dispatch.repository.ts';
import { syncAgentAlerts } from '../alerts/index.ts';
import { settingValues } from '../settings/index.ts';
import type { NotificationRow } from './notifications.repository.ts';
import { nextFire } from './notification-schedule.ts';
import { backOnline, covers, DispatchKit, made, newOutgoing, resolved, stillOpen, writeOutgoing, type DeviceFacts, type Wrap } from './dispatch-kit.ts';
import { dispatchLevels, TYPE_HANDLERS, watchesErrors, watchesOffline } from './types/type-handlers.ts';

/**
 * Turns what happened into e-mails in the outbox: device events (status, IP, replacements),
 * supplies crossing a threshold, and schedules that are due. Each step is one transaction that
 * takes its input (events, alert marks, due schedules) and writes the messages, so a crash
 * loses nothing and two instances never make the same message twice. What each notification
 * type hears of and sends is its handler's (./types/type-handlers.ts).
 */
export class NotificationDispatcher {
  private readonly db: Db;
  private readonly exports: ExportGate;
  private readonly kit: DispatchKit;

  /**
   * `exports`: the server's bound on exports, which a scheduled report's files share with the
   * downloads. `language`: that of mails to users who have not signed in yet (their browser's
   * language is theirs once they have).
   */
  constructor(db: Db, log: EventLog, publicUrl: string | null, exports = new ExportGate(2, 20), language: Lang = 'en') {
    this.db = db;
    this.exports = exports;
    this.kit = new DispatchKit(log, publicUrl, language);
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

  /** Device events to messages: the oldest batch not yet processed, in one transaction. */
  async dispatchEvents(): Promise<{ events: number; made: number }> {
    const eventTypes = NOTIFICATION_TYPE_CODES.filter((c) => TYPE_HANDLERS[c].events).map((c) => NOTIFICATION_TYPES[c].id);
    return this.db.transaction(async (tx) => {
      const events = await repo.claimEvents(tx, EVENT_BATCH);
      if (!events.length) return { events: 0, made: 0 };
      const notifications = await repo.activeNotifications(tx, eventTypes);
      const out = newOutgoing();
      if (notifications.length) {
        const ctx = await this.kit.context(tx, notifications);
        const byEvent = new Map<string, NotificationRow[]>();
        for (const n of notifications) {
          for (const t of NOTIFICATION_TYPES[notificationTypeById(n.typeId)!].events) byEvent.set(t, [...(byEvent.get(t) ?? []), n]);
        }
        for (const e of events) {
          for (const n of byEvent.get(e.type) ?? []) {
            const handler = TYPE_HANDLERS[notificationTypeById(n.typeId)!].events!;
            if (!covers(ctx.areas.get(n.id), e.locationId) || !handler.hears(n, e)) continue;
            this.kit.address(ctx, n, handler.facts(this.kit, e), out);
          }
        }
      }
      await writeOutgoing(tx, out);
      await repo.markProcessed(tx, events.map((e) => e.id));
      return { events: events.length, made: made(out) };
    });
  }

  /** Supplies that crossed a MIN_CONSUMABLE_LEVEL threshold since the last look (./types/min-consumable-level.ts). */
  async dispatchLevels(repeat: number, now = new Date()): Promise<number> {
    return this.db.transaction((tx) => dispatchLevels(this.kit, tx, repeat, now));
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
      const ctx = await this.kit.context(tx, notifications);
      const out = newOutgoing();
      for (const a of alerts) {
        const typeId = NOTIFICATION_TYPES[a.kind === 'AGENT_SILENT' ? 'AGENT_SILENT' : 'STATUS_CHANGE'].id;
        const facts = this.alertFacts(a, now);
        const wraps: (Wrap | undefined)[] = [];
        if (!a.startMailed) wraps.push(undefined);
        if (a.resolvedAt && !a.resolveMailed) wraps.push((a.kind === 'DEVICE_OFFLINE' ? backOnline : resolved)(a.resolvedAt.getTime() - a.startedAt.getTime()));
        if (!wraps.length) wraps.push(stillOpen(now.getTime() - a.startedAt.getTime()));
        for (const n of notifications) {
          if (n.typeId !== typeId || !covers(ctx.areas.get(n.id), a.locationId) || !WATCHES[a.kind](n)) continue;
          for (const wrap of wraps) this.kit.address(ctx, n, facts, out, wrap);
        }
      }
      await writeOutgoing(tx, out);
      await alertRepo.markAlertsMailed(tx, alerts.map((a) => a.id), now);
      return made(out);
    });
  }

  /** ALERT_REPEAT_HOURS: how often an open alert nobody acknowledged is told again (0: never). */
  private async repeatHours(): Promise<number> {
    return Number((await settingValues(this.db, ['ALERT_REPEAT_HOURS'])).ALERT_REPEAT_HOURS ?? 0);
  }

  private alertFacts(a: alertRepo.AlertToMail, now: Date): DeviceFacts {
    if (a.kind === 'AGENT_SILENT') {
      return { locationId: a.locationId, agentName: a.agentName, location: a.locationName, lastContact: a.lastContactAt, eventDate: a.resolvedAt ?? a.startedAt };
    }
    const facts = this.kit.facts(a as repo.DeviceFacts, a.resolvedAt ?? (a.startMailed ? now : a.startedAt));
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
      const ctx = await this.kit.context(tx, due);
      const out = newOutgoing();
      for (const n of due) {
        await TYPE_HANDLERS[notificationTypeById(n.typeId)!].fire(this.kit, tx, ctx, n, out, now);
        await repo.setNextRun(tx, n.id, nextFire(n.schedule, now));
      }
      await writeOutgoing(tx, out);
      return out.messages.length;
    });
  }
}

/** Which notifications (of the kind's type) hear of an alert's end and repetitions. */
const WATCHES: Record<alertRepo.AlertToMail['kind'], (n: NotificationRow) => boolean> = { DEVICE_ERROR: watchesErrors, DEVICE_OFFLINE: watchesOffline, AGENT_SILENT: () => true };

const EVENT_BATCH = 2_000;
