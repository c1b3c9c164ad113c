import { SUGGESTION_FILE_COLUMNS, type SupplyOrder, type SupplyOrderInput, type SupplyOrderSettings, type SupplyOrderSettingsInput, type SupplySuggestion } from '@pagewatch/contracts/supply-orders';
import { AppError, conflict, notFound } from '../../lib/app-error.ts';
import { assertInScope, type Caller } from '../../lib/caller.ts';
import { csv } from '../../lib/csv.ts';
import { xlsxBuffer } from '../../lib/xlsx.ts';
import { FILE_STYLES, fileColumns } from '../../lib/file-format.ts';
import { translate, type Lang } from '../../i18n/messages.ts';
import type { Db } from '../../db/client.ts';
import { DomainService, type EventLog } from '../event-logs/index.ts';
import { descendantIds } from '../locations/index.ts';
import { htmlToText } from '../../lib/mail-text.ts';
import * as repo from './supply-orders.repository.ts';
import { PACE, paceTurn, throttleKey } from '../auth/index.ts';
import { suggestionRows, supplierMail, type OrderMail, type PacedMail } from './supply-orders.mail.ts';
import './supply-orders.messages.ts';

const FORMATS = { CSV: 'text/csv; charset=utf-8', XLSX: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' } as const;
export type SuggestionFormat = keyof typeof FORMATS;

/**
 * Supplies to order and their orders (issue 45): read with MNU_CONSUMABLES.READ, ordered,
 * shipped and cancelled with MNU_CONSUMABLES.EDIT (the routes check the grants), always within
 * the caller's locations. Every change is in the event log; an order is installed by the
 * device itself (installReplacedOrders, called by the ingest on the replacement event).
 */
/**
 * Where orders go besides the supplier's e-mail: the notification channels (issue 42), which
 * app.ts supplies, as the notifications module sits above this one (its daily digest reads here).
 */
export type OrderChannels = {
  /** The enabled channels of a kind. */
  enabled(tx: Db, kind: 'WEBHOOK'): Promise<{ id: number }[]>;
  /** A message for one channel, in the caller's transaction. */
  enqueue(tx: Db, channelId: number, message: { type: string; subject: string; text: string; facts: Record<string, string | null>; locationId: number }): Promise<boolean>;
};

export class SupplyOrdersService extends DomainService {
  private readonly channels: OrderChannels | null;
  constructor(db: Db, log: EventLog, channels: OrderChannels | null = null) {
    super(db, log);
    this.channels = channels;
  }

  /** The caller's locations, or one of them with those below it (`location`). */
  private async locations(caller: Caller, location?: number): Promise<number[] | null> {
    if (location === undefined) return caller.allLocations ? null : [...caller.scope];
    assertInScope(caller, location);
    return descendantIds(this.db, [location]);
  }

  async suggestions(caller: Caller, location?: number): Promise<SupplySuggestion[]> {
    return repo.suggestions(this.db, await this.locations(caller, location));
  }

  /** The same list as the JSON text the route sends as it is. */
  async suggestionsJson(caller: Caller, location?: number): Promise<string> {
    return repo.suggestionsJson(this.db, await this.locations(caller, location));
  }

  /** The what-to-order list as a file in the caller's language: one line per location and part model. */
  async file(caller: Caller, format: SuggestionFormat, lang: Lang, location?: number): Promise<{ body: Buffer | string; contentType: string; filename: string }> {
    const lines = suggestionRows(await this.suggestions(caller, location));
    const columns = fileColumns(SUGGESTION_FILE_COLUMNS, lang);
    const title = translate(lang, 'supplyOrders.fileName');
    const body = format === 'CSV' ? csv(columns, lines, FILE_STYLES[lang]) : await xlsxBuffer(title, columns, lines, FILE_STYLES[lang]);
    return { body, contentType: FORMATS[format], filename: `${title}.${format.toLowerCase()}` };
  }

  async orders(caller: Caller, q: { location?: number; device?: number; open: boolean }): Promise<SupplyOrder[]> {
    return repo.ordersOf(this.db, await this.locations(caller, q.location), { deviceId: q.device, open: q.open });
  }

  /** Orders the supplies (one order each); those with an open order are skipped, and none left is a 409. */
  async order(caller: Caller, input: SupplyOrderInput, lang: Lang): Promise<SupplyOrder[]> {
    const places = await repo.deviceLocations(this.db, [...new Set(input.supplies.map((s) => s.deviceId))]);
    for (const s of input.supplies) {
      if (!places.has(s.deviceId)) throw notFound();
      assertInScope(caller, places.get(s.deviceId));
    }
    const reference = input.reference || null;
    const made = await this.db.transaction(async (tx) => {
      const ids = await repo.insertOrders(tx, input.supplies, reference, caller.userId);
      if (!ids.length) throw conflict('supplyOrders.alreadyOpen');
      const orders = await Promise.all(ids.map(async (id) => (await repo.orderById(tx, id))!));
      await this.log.writeMany(orders.map((o) => ({
        group: 'DEVICES', level: 'I', messageCode: 'supplyOrder.ordered', userId: caller.userId, objectClass: 'DeviceDao', objectId: o.deviceId, locationId: o.locationId,
        params: { actor: caller.login, id: o.id, part: o.partName ?? o.partModelCode ?? '', device: o.serialNumber ?? String(o.deviceId), reference: reference ?? '—' },
      })), tx);
      await this.sendToSuppliers(tx, caller, orders, reference, lang);
      return orders;
    });
    return made;
  }

  /**
   * Hands the orders to each location's supplier (its own address or its nearest parent's): an
   * e-mail in `lang` through the outbox, written in the order's transaction so that it goes
   * exactly when the order stands; and each location's orders to every enabled webhook channel
   * (a supplier's or an ERP's endpoint), as a SUPPLY_ORDER message with one fact per order.
   */
  private async sendToSuppliers(tx: Db, caller: Caller, orders: SupplyOrder[], reference: string | null, lang: Lang) {
    const byLocation = new Map<number, SupplyOrder[]>();
    for (const o of orders) byLocation.set(o.locationId, [...(byLocation.get(o.locationId) ?? []), o]);
    const suppliers = await repo.settingsOf(tx, [...byLocation.keys()]);
    const unpaced = suppliers.filter((s) => s.effectiveEmail).map((s) => supplierMail(s.effectiveEmail!, s.locationId, byLocation.get(s.locationId)!, reference, lang));
    const mails = await this.paced(tx, caller, unpaced, byLocation);
    await repo.queueMails(tx, mails);
    const hooks = this.channels ? await this.channels.enabled(tx, 'WEBHOOK') : [];
    for (const [locationId, list] of hooks.length ? byLocation : []) {
      const { subject, html } = supplierMail('', locationId, list, reference, lang);
      const facts = { location: list[0]!.locationName, count: String(list.length), reference, ...Object.fromEntries(list.map((o, i) => [`order${i + 1}`, `${o.id};${o.serialNumber ?? ''};${o.partModelCode ?? ''};${o.partName ?? ''}`])) };
      for (const hook of hooks) await this.channels!.enqueue(tx, hook.id, { type: 'SUPPLY_ORDER', subject, text: htmlToText(html).trim(), facts, locationId });
    }
    const now = mails.filter((m) => m.nextAttemptAt.getTime() <= Date.now());
    if (now.length) {
      await this.log.writeMany(now.map((m) => ({
        group: 'DEVICES', level: 'I', messageCode: 'supplyOrder.mailed', userId: caller.userId, objectClass: 'LocationDao', objectId: m.locationId, locationId: m.locationId,
        params: { actor: caller.login, count: byLocation.get(m.locationId)!.length, to: m.toEmail },
      })), tx);
    }
  }

  /**
   * When each supplier mail may go: the supplier is any address a location's admin typed, so its
   * mails are paced per location and for the whole instance (PACE), counted in the database in
   * the order's transaction; one past the pace is held back in the outbox until its turn (and
   * the event log says until when), the order itself stands at once (issue 52, finding 3).
   */
  private async paced(tx: Db, caller: Caller, mails: OrderMail[], byLocation: Map<number, SupplyOrder[]>): Promise<PacedMail[]> {
    const now = Date.now();
    const out: PacedMail[] = [];
    // One lock order (locations by id, then the instance) for every transaction: no deadlock.
    for (const m of [...mails].sort((a, b) => a.locationId - b.locationId)) {
      const own = await paceTurn(tx, PACE.supplierMail, throttleKey(PACE.supplierMail, String(m.locationId)), now);
      const turn = await paceTurn(tx, PACE.supplierMailInstance, throttleKey(PACE.supplierMailInstance), own);
      out.push({ ...m, nextAttemptAt: new Date(turn) });
      if (turn <= now) continue;
      const pace = own > now ? PACE.supplierMail : PACE.supplierMailInstance;
      await this.log.write({
        group: 'DEVICES', level: 'W', messageCode: own > now ? 'supplyOrder.mailHeld' : 'supplyOrder.mailHeldInstance', userId: caller.userId,
        objectClass: 'LocationDao', objectId: m.locationId, locationId: m.locationId,
        params: { actor: caller.login, count: byLocation.get(m.locationId)!.length, to: m.toEmail, at: `${new Date(turn).toISOString().slice(0, 16).replace('T', ' ')} UTC`, burst: pace.burst, minutes: pace.everyMs / 60_000 },
      }, tx);
    }
    return out;
  }

  async ship(caller: Caller, id: number): Promise<SupplyOrder> {
    return this.move(caller, id, ['ORDERED'], 'SHIPPED');
  }

  async cancel(caller: Caller, id: number): Promise<SupplyOrder> {
    return this.move(caller, id, ['ORDERED', 'SHIPPED'], 'CANCELLED');
  }

  private async move(caller: Caller, id: number, from: string[], to: 'SHIPPED' | 'CANCELLED'): Promise<SupplyOrder> {
    const before = await repo.orderById(this.db, id);
    if (!before) throw notFound();
    assertInScope(caller, before.locationId);
    await this.db.transaction(async (tx) => {
      // The state is checked by the update itself: a parallel install or cancel makes this one a 409.
      if (!(await repo.moveOrder(tx, id, from, to, caller.userId))) throw conflict(before.state === 'ORDERED' || before.state === 'SHIPPED' ? 'supplyOrders.badTransition' : 'supplyOrders.notOpen');
      await this.log.write({
        group: 'DEVICES', level: to === 'CANCELLED' ? 'W' : 'I', messageCode: to === 'SHIPPED' ? 'supplyOrder.shipped' : 'supplyOrder.cancelled', userId: caller.userId,
        objectClass: 'DeviceDao', objectId: before.deviceId, locationId: before.locationId,
        params: { actor: caller.login, id, part: before.partName ?? before.partModelCode ?? '', device: before.serialNumber ?? String(before.deviceId) },
      }, tx);
    });
    return (await repo.orderById(this.db, id))!;
  }

  async settings(caller: Caller): Promise<SupplyOrderSettings[]> {
    return repo.settingsOf(this.db, await this.locations(caller));
  }

  async saveSettings(caller: Caller, locationId: number, input: SupplyOrderSettingsInput): Promise<SupplyOrderSettings> {
    const [current] = await repo.settingsOf(this.db, [locationId]);
    if (!current) throw notFound();
    assertInScope(caller, locationId);
    const email = input.supplierEmail ? input.supplierEmail : null;
    await this.db.transaction(async (tx) => {
      await repo.saveSettings(tx, locationId, { leadDays: input.leadDays, marginDays: input.marginDays, supplierEmail: email });
      await this.log.write({
        group: 'LOCATIONS', level: 'I', messageCode: 'supplyOrder.settings', userId: caller.userId, objectClass: 'LocationDao', objectId: locationId, locationId,
        params: { actor: caller.login, location: current.locationName, lead: input.leadDays, margin: input.marginDays, email: email ?? '—' },
      }, tx);
    });
    const [saved] = await repo.settingsOf(this.db, [locationId]);
    if (!saved) throw new AppError('NOT_FOUND');
    return saved;
  }
}
