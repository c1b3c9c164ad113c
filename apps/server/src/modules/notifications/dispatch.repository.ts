import { sql } from 'drizzle-orm';
import { NOTIFICATION_TYPES } from '@pagewatch/contracts/notifications';
import { SUPPLY_CLEAR_MARGIN } from '@pagewatch/contracts/alerts';
import type { Db } from '../../db/client.ts';
import type { Lang } from '../../i18n/messages.ts';
import { bulk } from '../../db/bulk.ts';
import { sqlRows } from '../../db/sql-rows.ts';
import { locationIn } from '../../db/scope.ts';
import { notificationDigestItems, notificationMessages, type OutboxAttachment } from '../../db/schema/notifications.ts';
import type { NotificationRow } from './notifications.repository.ts';

const ids = (list: number[]) => sql.join(list.map((i) => sql`${i}`), sql`, `);
const num = (v: unknown) => (v == null ? null : Number(v));

/** What a message about one device says of it (spec section 3's body variables, raw). */
export type DeviceFacts = {
  deviceId: number;
  locationId: number;
  serialNumber: string | null;
  ip: string;
  modelCode: string | null;
  hostName: string | null;
  snmpLocation: string | null;
  statusCode: string;
  deviceType: string | null;
  colorType: string | null;
  paperFormat: string | null;
  locationName: string;
  consumableLevel: string | null;
};

export const DEVICE_COLUMNS = sql`d.id AS "deviceId", d.location_id AS "locationId", d.serial_number AS "serialNumber", d.ip, d.model_code AS "modelCode",
  d.host_name AS "hostName", d.snmp_location AS "snmpLocation", d.status_code AS "statusCode", d.device_type AS "deviceType",
  d.color_type AS "colorType", d.paper_format AS "paperFormat", loc.name AS "locationName",
  (SELECT string_agg(coalesce(c2.colorant, c2.part_name) || ' ' || coalesce(c2.level::text || '%', c2.level_state, '?'), ', ' ORDER BY c2.supply_index)
     FROM consumables c2 WHERE c2.device_id = d.id) AS "consumableLevel"`;

export type EventFacts = DeviceFacts & {
  id: number;
  type: string;
  eventAt: Date;
  supplyIndex: number | null;
  partCode: string | null;
  partName: string | null;
  partModelCode: string | null;
  partSerialNumber: string | null;
  oldValue: string | null;
  newValue: string | null;
  /**
   * The device's DEVICE_ERROR alert was open before the event: an event into ERROR (back from
   * unreachable, or from a warning) is the same condition going on, not a new one.
   */
  errorGoesOn: boolean;
  /** The event's reading closed the device's DEVICE_ERROR alert: its "resolved" mail tells it. */
  errorEnds: boolean;
  /** A BACK_ONLINE event whose reading closed the device's DEVICE_OFFLINE alert (issue 54): its "back online" mail tells it. */
  offlineEnds: boolean;
};

/**
 * Takes the oldest unprocessed device events, locked for this transaction (another instance
 * skips them), with what their messages say of the device.
 */
export async function claimEvents(tx: Db, limit: number): Promise<EventFacts[]> {
  const rows = await sqlRows<EventFacts & { eventAt: string | Date }>(tx, sql`
    WITH claimed AS (SELECT id FROM device_events WHERE NOT processed ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
    SELECT e.id, e.type, e.event_at AS "eventAt", e.supply_index AS "supplyIndex", e.part_code AS "partCode", c.part_name AS "partName",
      e.part_model_code AS "partModelCode", e.part_serial_number AS "partSerialNumber", e.old_value AS "oldValue", e.new_value AS "newValue",
      EXISTS (SELECT 1 FROM alerts a WHERE a.kind = 'DEVICE_ERROR' AND a.device_id = e.device_id AND a.started_at < e.event_at
        AND (a.resolved_at IS NULL OR a.resolved_at >= e.event_at)) AS "errorGoesOn",
      EXISTS (SELECT 1 FROM alerts a WHERE a.kind = 'DEVICE_ERROR' AND a.device_id = e.device_id AND a.resolved_at = e.event_at) AS "errorEnds",
      e.type = 'BACK_ONLINE' AND EXISTS (SELECT 1 FROM alerts a WHERE a.kind = 'DEVICE_OFFLINE' AND a.device_id = e.device_id AND a.resolved_at = e.event_at) AS "offlineEnds",
      ${DEVICE_COLUMNS}
    FROM claimed JOIN device_events e ON e.id = claimed.id JOIN devices d ON d.id = e.device_id JOIN locations loc ON loc.id = d.location_id
    LEFT JOIN consumables c ON c.device_id = e.device_id AND c.supply_index = e.supply_index
    ORDER BY e.id`);
  return rows.map((r) => ({ ...r, id: Number(r.id), deviceId: Number(r.deviceId), locationId: Number(r.locationId), supplyIndex: num(r.supplyIndex), eventAt: new Date(r.eventAt) }));
}

export async function markProcessed(tx: Db, eventIds: number[]) {
  if (eventIds.length) await tx.execute(sql`UPDATE device_events SET processed = true, processed_at = now() WHERE id IN (${ids(eventIds)})`);
}

/** What matching and rendering read of a notification. */
const NOTIFICATION_COLUMNS = sql`id, type_id AS "typeId", name, subject, body, schedule, statuses, dim01_list AS "dim01List", dim02_list AS "dim02List",
  dim03_list AS "dim03List", threshold, attachment, report_code AS "reportCode", include_system_subscribers AS "includeSystemSubscribers",
  file_extension AS "fileExtension", last_run_at AS "lastRunAt"`;

/** The active notifications of the given types. */
export function activeNotifications(tx: Db, typeIds: number[]): Promise<NotificationRow[]> {
  return sqlRows<NotificationRow>(tx, sql`
    SELECT ${NOTIFICATION_COLUMNS}
    FROM notifications WHERE active AND type_id IN (${ids(typeIds)}) ORDER BY id`);
}

/**
 * For each owner (a notification, a user) among `ownerIds`: its locations in `table` and every
 * location below them. An owner without locations is absent.
 */
async function subtrees(tx: Db, table: 'notification_locations' | 'user_locations', owner: 'notification_id' | 'user_id', ownerIds: number[]): Promise<Map<number, Set<number>>> {
  const out = new Map<number, Set<number>>();
  if (!ownerIds.length) return out;
  const rows = await sqlRows<{ owner: unknown; locs: unknown[] }>(tx, sql`
    WITH RECURSIVE tree AS (
      SELECT ${sql.raw(owner)} AS owner, location_id FROM ${sql.raw(table)} WHERE ${sql.raw(owner)} IN (${ids(ownerIds)})
      UNION SELECT t.owner, l.id FROM locations l JOIN tree t ON l.parent_id = t.location_id)
    SELECT owner, array_agg(location_id) AS locs FROM tree GROUP BY owner`);
  for (const r of rows) out.set(Number(r.owner), new Set(r.locs.map(Number)));
  return out;
}

/** Each notification's locations and those below them; one without locations is absent (it covers every location). */
export const notificationAreas = (tx: Db, notificationIds: number[]) => subtrees(tx, 'notification_locations', 'notification_id', notificationIds);

/** `language`: the user's browser's at their last sign-in; null for one who has not signed in. */
export type Recipient = { notificationId: number; userId: number; email: string; language: Lang | null };

/** Who hears of each notification: its active subscribers and, where asked for, the system recipients. */
export async function recipientsOf(tx: Db, notificationIds: number[]): Promise<Recipient[]> {
  if (!notificationIds.length) return [];
  const rows = await sqlRows<{ nid: unknown; uid: unknown; email: string; language: Lang | null }>(tx, sql`
    SELECT ns.notification_id AS nid, u.id AS uid, u.email, u.language FROM notification_subscribers ns JOIN users u ON u.id = ns.user_id
    WHERE u.active_flag AND ns.notification_id IN (${ids(notificationIds)})
    UNION
    SELECT n.id, u.id, u.email, u.language FROM notifications n JOIN users u ON u.system_notification_recipient AND u.active_flag
    WHERE n.include_system_subscribers AND n.id IN (${ids(notificationIds)})`);
  return rows.map((r) => ({ notificationId: Number(r.nid), userId: Number(r.uid), email: r.email, language: r.language }));
}

/** The locations each user may see: theirs and those below them (what a message to them may speak of). */
export const userScopes = (tx: Db, userIds: number[]) => subtrees(tx, 'user_locations', 'user_id', userIds);

export type LevelAlert = DeviceFacts & {
  notificationId: number;
  supplyIndex: number;
  partCode: string;
  partName: string;
  partModelCode: string | null;
  partSerialNumber: string | null;
  level: number;
  /** The day the supply runs out, as the forecast job last fitted it (YYYY-MM-DD), or null. */
  runsOutOn: string | null;
};

/** A supply a MIN_CONSUMABLE_LEVEL notification reported low that is no longer: since when it was, and until when. */
export type LevelClearing = Omit<LevelAlert, 'runsOutOn'> & { raisedAt: Date; clearedAt: Date };

/**
 * MIN_CONSUMABLE_LEVEL, the end of a low supply: marks whose supply is SUPPLY_CLEAR_MARGIN
 * points above the notification's threshold again are removed and returned with the supply as
 * it is now (a level read a point higher and then lower again is the same low supply, not a new
 * one: issue 42). A supply that is gone goes without a word.
 */
export async function levelClearings(tx: Db): Promise<LevelClearing[]> {
  const rows = await sqlRows<LevelClearing>(tx, sql`
    WITH cleared AS (
      DELETE FROM notification_alerts a WHERE NOT EXISTS (
        SELECT 1 FROM consumables c JOIN notifications n ON n.id = a.notification_id
        WHERE c.device_id = a.device_id AND c.supply_index = a.supply_index AND (c.level IS NULL OR c.level <= coalesce(n.threshold, 1) + ${SUPPLY_CLEAR_MARGIN}))
      RETURNING notification_id, device_id, supply_index, raised_at)
    SELECT r.notification_id AS "notificationId", r.supply_index AS "supplyIndex", r.raised_at AS "raisedAt", c.refreshed_at AS "clearedAt",
      c.part_code AS "partCode", c.part_name AS "partName", c.part_model_code AS "partModelCode", c.part_serial_number AS "partSerialNumber", c.level, ${DEVICE_COLUMNS}
    FROM cleared r JOIN consumables c ON c.device_id = r.device_id AND c.supply_index = r.supply_index
    JOIN devices d ON d.id = r.device_id JOIN locations loc ON loc.id = d.location_id
    ORDER BY r.notification_id, r.device_id, r.supply_index`);
  return rows.map((r) => ({
    ...r, notificationId: Number(r.notificationId), deviceId: Number(r.deviceId), locationId: Number(r.locationId), supplyIndex: Number(r.supplyIndex),
    level: Number(r.level), raisedAt: new Date(r.raisedAt), clearedAt: new Date(r.clearedAt),
  }));
}

/** A low supply a MIN_CONSUMABLE_LEVEL notification reported, told again: since when it was low. */
export type LevelRepeat = LevelAlert & { raisedAt: Date };

/**
 * MIN_CONSUMABLE_LEVEL, told again (issue 42): the supplies whose SUPPLY_LOW alert is open,
 * unacknowledged and was last told `repeatHours` or more ago, each with every notification that
 * reported it low and still does. The alert's clock moves to `now` in the same statement, so
 * another instance, or the next pass, does not tell it twice.
 */
export async function levelRepeats(tx: Db, repeatHours: number, now: Date): Promise<LevelRepeat[]> {
  const repeatBefore = new Date(now.getTime() - repeatHours * 3600_000).toISOString();
  const rows = await sqlRows<LevelRepeat>(tx, sql`
    WITH due AS (
      UPDATE alerts a SET last_notified_at = ${now.toISOString()}::timestamptz
      WHERE a.id IN (SELECT id FROM alerts WHERE kind = 'SUPPLY_LOW' AND resolved_at IS NULL AND acknowledged_at IS NULL
        AND coalesce(last_notified_at, started_at) <= ${repeatBefore}::timestamptz ORDER BY id LIMIT 500 FOR UPDATE SKIP LOCKED)
      RETURNING a.device_id, a.supply_index)
    SELECT r.notification_id AS "notificationId", r.supply_index AS "supplyIndex", r.raised_at AS "raisedAt",
      c.part_code AS "partCode", c.part_name AS "partName", c.part_model_code AS "partModelCode", c.part_serial_number AS "partSerialNumber", c.level,
      to_char(c.runs_out_on, 'YYYY-MM-DD') AS "runsOutOn", ${DEVICE_COLUMNS}
    FROM due JOIN notification_alerts r ON r.device_id = due.device_id AND r.supply_index = due.supply_index
    JOIN consumables c ON c.device_id = r.device_id AND c.supply_index = r.supply_index
    JOIN devices d ON d.id = r.device_id JOIN locations loc ON loc.id = d.location_id
    ORDER BY r.notification_id, r.device_id, r.supply_index`);
  return rows.map((r) => ({
    ...r, notificationId: Number(r.notificationId), deviceId: Number(r.deviceId), locationId: Number(r.locationId), supplyIndex: Number(r.supplyIndex),
    level: Number(r.level), raisedAt: new Date(r.raisedAt),
  }));
}

/**
 * MIN_CONSUMABLE_LEVEL: supplies at or below a notification's threshold (in its locations, of
 * its printer types) that it has not reported yet are marked (since the reading that showed it)
 * and returned; levelClearings unmarks them first, so the next crossing is reported again.
 */
export async function levelCrossings(tx: Db, typeId: number): Promise<LevelAlert[]> {
  const rows = await sqlRows<LevelAlert>(tx, sql`
    WITH RECURSIVE level_notifications AS (SELECT * FROM notifications WHERE active AND type_id = ${typeId}),
    tree AS (
      SELECT nl.notification_id, nl.location_id FROM notification_locations nl JOIN level_notifications n ON n.id = nl.notification_id
      UNION SELECT t.notification_id, l.id FROM locations l JOIN tree t ON l.parent_id = t.location_id),
    raised AS (
      INSERT INTO notification_alerts (notification_id, device_id, supply_index, raised_at)
      SELECT n.id, c.device_id, c.supply_index, c.refreshed_at FROM level_notifications n
      JOIN consumables c ON c.level <= coalesce(n.threshold, 1)
      JOIN devices d ON d.id = c.device_id
      WHERE (jsonb_array_length(n.dim01_list) = 0 OR n.dim01_list ? d.device_type)
        AND (NOT EXISTS (SELECT 1 FROM notification_locations nl WHERE nl.notification_id = n.id)
             OR EXISTS (SELECT 1 FROM tree t WHERE t.notification_id = n.id AND t.location_id = c.location_id))
      ON CONFLICT DO NOTHING
      RETURNING notification_id, device_id, supply_index)
    SELECT r.notification_id AS "notificationId", r.supply_index AS "supplyIndex", c.part_code AS "partCode", c.part_name AS "partName",
      c.part_model_code AS "partModelCode", c.part_serial_number AS "partSerialNumber", c.level, to_char(c.runs_out_on, 'YYYY-MM-DD') AS "runsOutOn", ${DEVICE_COLUMNS}
    FROM raised r JOIN consumables c ON c.device_id = r.device_id AND c.supply_index = r.supply_index
    JOIN devices d ON d.id = r.device_id JOIN locations loc ON loc.id = d.location_id
    ORDER BY r.notification_id, r.device_id, r.supply_index`);
  return rows.map((r) => ({ ...r, notificationId: Number(r.notificationId), deviceId: Number(r.deviceId), locationId: Number(r.locationId), supplyIndex: Number(r.supplyIndex), level: Number(r.level) }));
}

/** Scheduled notifications that are due, locked for this transaction. */
export function claimDue(tx: Db, limit: number, reports: boolean): Promise<NotificationRow[]> {
  return sqlRows<NotificationRow>(tx, sql`
    SELECT ${NOTIFICATION_COLUMNS}
    FROM notifications WHERE active AND next_run_at IS NOT NULL AND next_run_at <= now()
      ${reports ? sql`` : sql`AND type_id <> ${NOTIFICATION_TYPES.REPORT.id}`}
    ORDER BY next_run_at, id LIMIT ${limit} FOR UPDATE SKIP LOCKED`);
}

/** Whether a scheduled report is due (its files are made in a place of the exports' gate). */
export async function reportDue(db: Db): Promise<boolean> {
  const rows = await sqlRows<{ due: boolean }>(db, sql`
    SELECT EXISTS (SELECT 1 FROM notifications WHERE active AND type_id = ${NOTIFICATION_TYPES.REPORT.id} AND next_run_at <= now()) AS due`);
  return Boolean(rows[0]?.due);
}

export async function setNextRun(tx: Db, id: number, next: Date | null) {
  await tx.execute(sql`UPDATE notifications SET next_run_at = ${next ? next.toISOString() : null}::timestamptz, last_run_at = now() WHERE id = ${id}`);
}

/** A scheduled notification's gathered events, taken (deleted) for its digest. */
export async function takeDigest(tx: Db, notificationId: number): Promise<{ email: string; html: string }[]> {
  const rows = await sqlRows<{ email: string; html: string; id: unknown }>(tx, sql`DELETE FROM notification_digest_items WHERE notification_id = ${notificationId} RETURNING email, html, id`);
  return rows.sort((a, b) => Number(a.id) - Number(b.id));
}

export type CounterRow = DeviceFacts &
  Record<'totalCount' | 'monoCount' | 'colorCount' | 'a3Count' | 'a3BwCount' | 'a3ColorCount' | 'a4Count' | 'a4BwCount' | 'a4ColorCount' | 'copyCount' | 'scanCount', number | null>;

/** The devices in the given locations (null: every location) with their page counters. */
export async function counterRows(tx: Db, locationIds: Set<number> | null): Promise<CounterRow[]> {
  if (locationIds && !locationIds.size) return [];
  const rows = await sqlRows<CounterRow>(tx, sql`
    SELECT ${DEVICE_COLUMNS}, d.inventory_number AS "inventoryNumber", d.total_count AS "totalCount", d.mono_count AS "monoCount",
      d.color_count AS "colorCount", d.a3_count AS "a3Count", d.a3_bw_count AS "a3BwCount", d.a3_color_count AS "a3ColorCount", d.a4_count AS "a4Count",
      d.a4_bw_count AS "a4BwCount", d.a4_color_count AS "a4ColorCount", d.copy_count AS "copyCount", d.scan_count AS "scanCount"
    FROM devices d JOIN locations loc ON loc.id = d.location_id
    ${locationIds ? sql`WHERE ${locationIn(locationIds, sql`d.location_id`)}` : sql``}
    ORDER BY loc.name, d.model_code, d.serial_number, d.id`);
  return rows.map((r) => ({ ...r, deviceId: Number(r.deviceId), locationId: Number(r.locationId) }));
}

export type NewMessage = {
  notificationId: number | null;
  messageId: string;
  toEmail: string;
  subject: string;
  html: string;
  attachments: OutboxAttachment[];
  locationId: number | null;
  /** A channel's delivery: the channel and what it says (ChannelPayload). */
  channelId?: number | null;
  payload?: Record<string, unknown> | null;
};

export async function insertMessages(tx: Db, rows: NewMessage[]) {
  const now = new Date();
  await bulk(tx, notificationMessages, rows.map((r) => ({ ...r, channelId: r.channelId ?? null, payload: r.payload ?? null, createdAt: now, nextAttemptAt: now, attempts: 0 })), {
    omit: ['id', 'leaseUntil', 'sentAt', 'failedAt', 'lastError', 'logId'],
  });
}

export async function insertDigestItems(tx: Db, rows: { notificationId: number; userId: number; email: string; html: string }[]) {
  const now = new Date();
  await bulk(tx, notificationDigestItems, rows.map((r) => ({ ...r, createdAt: now })), { omit: ['id'] });
}

/** A device of the given locations (null: any) to fill a test message with; null when there is none. */
export async function sampleDevice(db: Db, locationIds: Set<number> | null): Promise<DeviceFacts | null> {
  if (locationIds && !locationIds.size) return null;
  const [row] = await sqlRows<DeviceFacts>(db, sql`
    SELECT ${DEVICE_COLUMNS} FROM devices d JOIN locations loc ON loc.id = d.location_id
    ${locationIds ? sql`WHERE ${locationIn(locationIds, sql`d.location_id`)}` : sql``}
    ORDER BY d.id LIMIT 1`);
  return row ? { ...row, deviceId: Number(row.deviceId), locationId: Number(row.locationId) } : null;
}
