import { sql } from 'drizzle-orm';
import { DEFAULT_LEAD_DAYS, DEFAULT_MARGIN_DAYS, type SupplyOrder, type SupplyOrderSettings, type SupplySuggestion } from '@pagewatch/contracts/supply-orders';
import { DEFAULT_SUPPLY_THRESHOLD } from '@pagewatch/contracts/device-events';
import type { Db } from '../../db/client.ts';
import { sqlRows } from '../../db/sql-rows.ts';
import { locationIn } from '../../db/scope.ts';
import { bulk } from '../../db/bulk.ts';
import { notificationMessages } from '../../db/schema/notifications.ts';
import type { PacedMail } from './supply-orders.mail.ts';

const OPEN = sql`('ORDERED', 'SHIPPED')`;

/**
 * The what-to-order list of the given locations (null: every one): each supply forecast to run
 * out within its location's lead time plus margin, or already below the low threshold, without
 * an open order; grouped by location and part model code. Each location is read on the
 * supplies' own (location, day) and (location, level) indexes, so one location costs its own
 * supplies only.
 */
export async function suggestions(db: Db, locationIds: number[] | null): Promise<SupplySuggestion[]> {
  return sqlRows<SupplySuggestion>(db, suggestionsSql(locationIds));
}

/**
 * The same list as one JSON array text, written by PostgreSQL in the schema's types and sent as
 * it is (issue 53): every location's 68,000 supplies were parsed into objects, checked against
 * the response schema and written out again, most of the list's time on a busy server.
 */
export async function suggestionsJson(db: Db, locationIds: number[] | null): Promise<string> {
  const [r] = await sqlRows<{ json: string }>(db, sql`SELECT '[' || coalesce(string_agg(row_to_json(r)::text, ',' ORDER BY r."locationName", r."partModelCode" NULLS LAST, r."partCode"), '') || ']' AS json
    FROM (${suggestionsSql(locationIds)}) r`);
  return String(r!.json);
}

function suggestionsSql(locationIds: number[] | null) {
  const where = locationIds ? locationIn(locationIds, sql`l.id`) : sql`true`;
  return sql`
    WITH locs AS (
      SELECT l.id, l.name, coalesce(st.lead_days, ${DEFAULT_LEAD_DAYS}) + coalesce(st.margin_days, ${DEFAULT_MARGIN_DAYS}) AS horizon
      FROM locations l LEFT JOIN supply_order_settings st ON st.location_id = l.id WHERE ${where}
    ), due AS (
      SELECT locs.id AS location_id, locs.name AS location_name, c.*
      FROM locs CROSS JOIN LATERAL (
        SELECT s.device_id, s.supply_index, s.part_code, s.part_name, s.part_model_code, s.level, s.runs_out_on
        FROM consumables s WHERE s.location_id = locs.id AND s.runs_out_on <= current_date + locs.horizon
        UNION
        SELECT s.device_id, s.supply_index, s.part_code, s.part_name, s.part_model_code, s.level, s.runs_out_on
        FROM consumables s WHERE s.location_id = locs.id AND s.level < ${DEFAULT_SUPPLY_THRESHOLD}
        UNION
        SELECT s.device_id, s.supply_index, s.part_code, s.part_name, s.part_model_code, s.level, s.runs_out_on
        FROM consumables s WHERE s.location_id = locs.id AND s.level IS NULL AND s.level_state IN ('LOW', 'EMPTY')
      ) c
      WHERE NOT EXISTS (SELECT 1 FROM supply_orders o WHERE o.device_id = c.device_id AND o.supply_index = c.supply_index AND o.state IN ${OPEN})
    )
    SELECT due.location_id || ':' || coalesce(due.part_model_code, '') || ':' || due.part_code AS id,
      due.location_id AS "locationId", min(due.location_name) AS "locationName", due.part_model_code AS "partModelCode", due.part_code AS "partCode",
      count(*)::int AS count, to_char(min(due.runs_out_on), 'YYYY-MM-DD') AS earliest,
      json_agg(json_build_object('deviceId', due.device_id, 'supplyIndex', due.supply_index, 'serialNumber', d.serial_number, 'ip', d.ip,
        'partName', due.part_name, 'level', due.level, 'runsOutOn', to_char(due.runs_out_on, 'YYYY-MM-DD'))
        ORDER BY due.runs_out_on NULLS FIRST, due.device_id, due.supply_index) AS supplies
    FROM due JOIN devices d ON d.id = due.device_id
    GROUP BY due.location_id, due.part_model_code, due.part_code
    ORDER BY min(due.location_name), due.part_model_code NULLS LAST, due.part_code`;
}

const orderColumns = sql`
  o.id, o.device_id AS "deviceId", o.supply_index AS "supplyIndex", d.location_id AS "locationId", l.name AS "locationName",
  d.serial_number AS "serialNumber", o.part_name AS "partName", o.part_model_code AS "partModelCode", o.state, o.reference,
  ob.login AS "orderedBy", o.ordered_at AS "orderedAt", o.shipped_at AS "shippedAt", o.installed_at AS "installedAt",
  o.cancelled_at AS "cancelledAt", cb.login AS "closedBy"`;
const orderFrom = sql`supply_orders o JOIN devices d ON d.id = o.device_id JOIN locations l ON l.id = d.location_id
  LEFT JOIN users ob ON ob.id = o.ordered_by LEFT JOIN users cb ON cb.id = o.closed_by`;

const iso = (v: unknown) => (v == null ? null : v instanceof Date ? v.toISOString() : new Date(String(v)).toISOString());
const toOrder = (r: Record<string, unknown>): SupplyOrder => ({
  ...(r as SupplyOrder),
  id: Number(r.id), deviceId: Number(r.deviceId), supplyIndex: Number(r.supplyIndex), locationId: Number(r.locationId),
  orderedAt: iso(r.orderedAt)!, shippedAt: iso(r.shippedAt), installedAt: iso(r.installedAt), cancelledAt: iso(r.cancelledAt),
});

/** Orders of the given locations (null: all), of one device if given: the open ones, or the latest 500 of any state. */
export async function ordersOf(db: Db, locationIds: number[] | null, opts: { deviceId?: number; open: boolean }): Promise<SupplyOrder[]> {
  const conds = [locationIds ? locationIn(locationIds, sql`d.location_id`) : sql`true`];
  if (opts.deviceId) conds.push(sql`o.device_id = ${opts.deviceId}`);
  if (opts.open) conds.push(sql`o.state IN ${OPEN}`);
  return (await sqlRows<Record<string, unknown>>(db, sql`SELECT ${orderColumns} FROM ${orderFrom} WHERE ${sql.join(conds, sql` AND `)} ORDER BY o.ordered_at DESC, o.id DESC LIMIT 500`)).map(toOrder);
}

export async function orderById(db: Db, id: number): Promise<SupplyOrder | null> {
  const [r] = await sqlRows<Record<string, unknown>>(db, sql`SELECT ${orderColumns} FROM ${orderFrom} WHERE o.id = ${id}`);
  return r ? toOrder(r) : null;
}

/** The devices' locations (for the scope check), by device id. */
export async function deviceLocations(db: Db, deviceIds: number[]): Promise<Map<number, number>> {
  if (!deviceIds.length) return new Map();
  const found = await sqlRows<{ id: number; location_id: number }>(db, sql`SELECT id, location_id FROM devices WHERE ${locationIn(deviceIds, sql`id`)}`);
  return new Map(found.map((r) => [Number(r.id), Number(r.location_id)]));
}

/**
 * One ORDERED order per supply that exists and has no open order; returns the ids made. A
 * supply with an open order is skipped: the unique index makes a parallel order of the same
 * supply wait for this one and then skip it, so one of the two wins.
 */
export async function insertOrders(db: Db, supplies: { deviceId: number; supplyIndex: number }[], reference: string | null, userId: number): Promise<number[]> {
  const made = await sqlRows<{ id: number }>(db, sql`
    INSERT INTO supply_orders (device_id, supply_index, part_code, part_name, part_model_code, state, reference, ordered_by)
    SELECT c.device_id, c.supply_index, c.part_code, c.part_name, c.part_model_code, 'ORDERED', ${reference}, ${userId}
    FROM json_to_recordset(${JSON.stringify(supplies)}::json) AS v("deviceId" integer, "supplyIndex" integer)
    JOIN consumables c ON c.device_id = v."deviceId" AND c.supply_index = v."supplyIndex"
    ORDER BY c.device_id, c.supply_index
    ON CONFLICT (device_id, supply_index) WHERE state IN ('ORDERED', 'SHIPPED') DO NOTHING
    RETURNING id`);
  return made.map((r) => Number(r.id));
}

/** Moves an order from one of `from` to `to` (SHIPPED or CANCELLED) by `userId`; false when it is in none of them. */
export async function moveOrder(db: Db, id: number, from: string[], to: 'SHIPPED' | 'CANCELLED', userId: number): Promise<boolean> {
  const stamp = to === 'SHIPPED' ? sql`shipped_at = now()` : sql`cancelled_at = now()`;
  const done = await sqlRows(db, sql`
    UPDATE supply_orders SET state = ${to}, ${stamp}, closed_by = ${userId}
    WHERE id = ${id} AND state IN (${sql.join(from.map((s) => sql`${s}`), sql`, `)}) RETURNING id`);
  return done.length > 0;
}

export type Installed = { id: number; deviceId: number; supplyIndex: number; locationId: number; serialNumber: string | null; ip: string | null; partName: string | null; at: string };

/** Closes the open orders of the supplies replaced (their SUPPLY_REPLACED events) as INSTALLED at the event's time. */
export async function installReplaced(db: Db, replaced: { deviceId: number; supplyIndex: number; at: Date }[]): Promise<Installed[]> {
  if (!replaced.length) return [];
  const done = await sqlRows<Record<string, unknown>>(db, sql`
    UPDATE supply_orders o SET state = 'INSTALLED', installed_at = v.at
    FROM json_to_recordset(${JSON.stringify(replaced)}::json) AS v("deviceId" integer, "supplyIndex" integer, at timestamptz), devices d
    WHERE o.device_id = v."deviceId" AND o.supply_index = v."supplyIndex" AND o.state IN ${OPEN} AND d.id = o.device_id
    RETURNING o.id, o.device_id, o.supply_index, d.location_id, d.serial_number, d.ip, o.part_name, v.at`);
  return done.map((r) => ({
    id: Number(r.id), deviceId: Number(r.device_id), supplyIndex: Number(r.supply_index), locationId: Number(r.location_id),
    serialNumber: (r.serial_number as string | null) ?? null, ip: (r.ip as string | null) ?? null, partName: (r.part_name as string | null) ?? null, at: iso(r.at)!,
  }));
}

/** The ordering settings of the given locations (null: all), each with its supplier or its nearest parent's. */
export async function settingsOf(db: Db, locationIds: number[] | null): Promise<SupplyOrderSettings[]> {
  const where = locationIds ? locationIn(locationIds, sql`l.id`) : sql`true`;
  const found = await sqlRows<Record<string, unknown>>(db, sql`
    SELECT l.id AS "locationId", l.name AS "locationName", coalesce(st.lead_days, ${DEFAULT_LEAD_DAYS}) AS "leadDays",
      coalesce(st.margin_days, ${DEFAULT_MARGIN_DAYS}) AS "marginDays", st.supplier_email AS "supplierEmail",
      (WITH RECURSIVE up AS (
         SELECT l.id, l.parent_id, 0 AS depth
         UNION ALL SELECT p.id, p.parent_id, up.depth + 1 FROM locations p JOIN up ON p.id = up.parent_id WHERE up.depth < 50)
       SELECT s2.supplier_email FROM up JOIN supply_order_settings s2 ON s2.location_id = up.id
       WHERE s2.supplier_email IS NOT NULL ORDER BY up.depth LIMIT 1) AS "effectiveEmail"
    FROM locations l LEFT JOIN supply_order_settings st ON st.location_id = l.id
    WHERE ${where} ORDER BY l.name, l.id`);
  return found.map((r) => ({ ...(r as SupplyOrderSettings), locationId: Number(r.locationId), leadDays: Number(r.leadDays), marginDays: Number(r.marginDays) }));
}

export async function saveSettings(db: Db, locationId: number, s: { leadDays: number; marginDays: number; supplierEmail: string | null }): Promise<void> {
  await db.execute(sql`
    INSERT INTO supply_order_settings (location_id, lead_days, margin_days, supplier_email) VALUES (${locationId}, ${s.leadDays}, ${s.marginDays}, ${s.supplierEmail})
    ON CONFLICT (location_id) DO UPDATE SET lead_days = excluded.lead_days, margin_days = excluded.margin_days, supplier_email = excluded.supplier_email`);
}

/** Writes e-mails to the outbox, which the notifications' sender delivers (with its retries). */
export async function queueMails(db: Db, mails: PacedMail[]): Promise<void> {
  if (!mails.length) return;
  const now = new Date();
  await bulk(db, notificationMessages, mails.map((m) => ({ ...m, notificationId: null, createdAt: now, attempts: 0 })), {
    omit: ['id', 'leaseUntil', 'sentAt', 'failedAt', 'lastError', 'logId'],
  });
}
