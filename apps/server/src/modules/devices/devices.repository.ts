import { and, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Device, DeviceListRow, DeviceSupply, StatisticsRow } from '@pagewatch/contracts/devices';
import type { PageResponse } from '@pagewatch/contracts/list';
import type { Db } from '../../db/client.ts';
import { scopeCondition, type Scoped } from '../../db/scope.ts';
import { locations } from '../../db/schema/locations.ts';
import { agents } from '../../db/schema/agents.ts';
import { devices, deviceWalks } from '../../db/schema/devices.ts';
import { consumables } from '../../db/schema/consumables.ts';
import { deviceWalkRequests } from '../../db/schema/device-activity.ts';
import { notFound } from '../../lib/app-error.ts';
import type { ListDef } from '../../lib/list-query.ts';
import { runListJson } from '../../lib/list-run.ts';
import { correctedCounterSql, devicesListSql } from './devices.list.ts';

/** Drivers differ: int8 as string (pg) or bigint (PGlite); timestamps and dates as Date or string. */
export const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
export const iso = (v: unknown) => {
  if (v === null || v === undefined) return null;
  // PostgreSQL's own text in UTC ('2026-11-22 03:33:16.668+00') needs no Date to become ISO.
  if (typeof v === 'string' && v.length >= 22 && v.endsWith('+00') && v[10] === ' ') {
    const frac = v.length > 22 ? v.slice(19, -3).padEnd(4, '0').slice(0, 4) : '.000';
    return `${v.slice(0, 10)}T${v.slice(11, 19)}${frac}Z`;
  }
  return (v instanceof Date ? v : new Date(String(v))).toISOString();
};
/** A `date` column as YYYY-MM-DD, whatever the driver made of it. */
export const day = (v: unknown): string => {
  if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v)) return v;
  const d = v instanceof Date ? v : new Date(String(v));
  // A Date from a `date` column is midnight, UTC or local depending on the driver.
  return d.getUTCHours() === 0 ? d.toISOString().slice(0, 10) : `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

export async function deviceRow(db: Db, id: number) {
  const [row] = await db
    .select({ d: devices, locationName: locations.name, agentName: agents.name, walkRequestedAt: deviceWalkRequests.requestedAt })
    .from(devices)
    .leftJoin(locations, eq(locations.id, devices.locationId))
    .leftJoin(agents, eq(agents.id, devices.agentId))
    .leftJoin(deviceWalkRequests, eq(deviceWalkRequests.deviceId, devices.id))
    .where(eq(devices.id, id));
  return row ?? null;
}

/** The card's counters beyond the list's (fax, duplex), corrected as the list's are. */
export async function cardCounters(db: Db, id: number): Promise<{ faxCount: number | null; duplexCount: number | null }> {
  const res = await db.execute(sql`SELECT ${correctedCounterSql('fax')} AS fax, ${correctedCounterSql('duplex')} AS duplex FROM devices d WHERE d.id = ${id}`);
  const r = res.rows[0] ?? {};
  return { faxCount: num(r.fax), duplexCount: num(r.duplex) };
}

export async function hasWalk(db: Db, id: number): Promise<boolean> {
  const [w] = await db.select({ id: deviceWalks.deviceId }).from(deviceWalks).where(eq(deviceWalks.deviceId, id));
  return !!w;
}

export async function suppliesOfDevice(db: Db, id: number): Promise<DeviceSupply[]> {
  const rows = await db.select().from(consumables).where(eq(consumables.deviceId, id)).orderBy(consumables.supplyIndex);
  return rows.map((s) => ({
    supplyIndex: s.supplyIndex,
    partCode: s.partCode,
    partName: s.partName,
    colorant: s.colorant,
    partModelCode: s.partModelCode,
    partSerialNumber: s.partSerialNumber,
    level: s.level,
    levelState: s.levelState as DeviceSupply['levelState'],
    levelSource: s.levelSource,
    installedAt: iso(s.installedAt),
    refreshedAt: iso(s.refreshedAt)!,
    daysLeft: s.daysLeft,
    pagesLeft: s.pagesLeft,
    runsOutOn: s.runsOutOn,
    forecastReason: s.forecastReason as DeviceSupply['forecastReason'],
  }));
}

/** Pages of the device's newest day: counters minus those of the day before (or the day's first total). */
export async function dayCounters(db: Db, id: number): Promise<Device['dayCounters']> {
  const res = await db.execute(sql`
    SELECT dd.fact_date, dd.total_count - COALESCE(p.total_count, dd.total_start) AS total,
      dd.mono_count - p.mono_count AS mono, dd.color_count - p.color_count AS color,
      dd.copy_count - p.copy_count AS copies, dd.scan_count - p.scan_count AS scans
    FROM (SELECT * FROM dm_device_days WHERE device_id = ${id} ORDER BY fact_date DESC LIMIT 1) dd
    LEFT JOIN LATERAL (SELECT * FROM dm_device_days x WHERE x.device_id = dd.device_id AND x.fact_date < dd.fact_date ORDER BY x.fact_date DESC LIMIT 1) p ON true`);
  const r = res.rows[0];
  if (!r) return null;
  const pos = (v: unknown) => (v === null || v === undefined ? null : Math.max(0, Number(v)));
  return { factDate: day(r.fact_date), total: pos(r.total), mono: pos(r.mono), color: pos(r.color), copies: pos(r.copies), scans: pos(r.scans) };
}

const visible = (caller: Scoped) => scopeCondition(caller, devices.locationId) ?? undefined;

/** Maintenance on or off for those of the devices in the caller's locations; returns the ids changed. */
export async function setManaged(db: Db, ids: number[], managedFlag: boolean, caller: Scoped): Promise<number[]> {
  if (!ids.length) return [];
  const rows = await db
    .update(devices)
    .set({ managedFlag })
    .where(and(inArray(devices.id, ids), visible(caller), sql`${devices.managedFlag} <> ${managedFlag}`))
    .returning({ id: devices.id });
  return rows.map((r) => r.id);
}

/** Ends maintenance of every device in the caller's locations; returns their ids. */
export async function clearManaged(db: Db, caller: Scoped): Promise<number[]> {
  const rows = await db.update(devices).set({ managedFlag: false }).where(and(visible(caller), eq(devices.managedFlag, true))).returning({ id: devices.id });
  return rows.map((r) => r.id);
}

/** Devices in scope whose serial (case-insensitive) is one of `serials`. */
export async function devicesBySerial(db: Db, serials: string[], caller: Scoped) {
  if (!serials.length) return [];
  return db
    .select({ id: devices.id, serialNumber: devices.serialNumber, managedFlag: devices.managedFlag })
    .from(devices)
    .where(and(sql`lower(${devices.serialNumber}) IN (${sql.join(serials.map((s) => sql`${s.toLowerCase()}`), sql`, `)})`, visible(caller)));
}

export async function walksOf(db: Db, caller: Scoped, ids: number[] | null) {
  return db
    .select({
      id: devices.id,
      ip: devices.ip,
      serialNumber: devices.serialNumber,
      modelCode: devices.modelCode,
      walkedAt: deviceWalks.walkedAt,
      rows: deviceWalks.rows,
    })
    .from(deviceWalks)
    .innerJoin(devices, eq(devices.id, deviceWalks.deviceId))
    .where(and(visible(caller), ids ? inArray(devices.id, ids) : undefined))
    .orderBy(devices.id);
}

/** Per location of the caller's: device counts by flag and the pages of the last 30 days. */
export async function statistics(db: Db, caller: Scoped): Promise<StatisticsRow[]> {
  const res = await db.execute(sql`
    SELECT loc.id AS location_id, loc.code, loc.name,
      count(d.id)::int AS all_count,
      count(d.id) FILTER (WHERE d.managed_flag)::int AS active_count,
      count(d.id) FILTER (WHERE d.not_available_flag)::int AS not_available,
      count(d.id) FILTER (WHERE d.need_attention_flag)::int AS attention,
      count(d.id) FILTER (WHERE d.mat_replacement_required_flag)::int AS replacement,
      count(d.id) FILTER (WHERE d.new_device30_flag)::int AS new_count,
      count(d.id) FILTER (WHERE EXISTS (SELECT 1 FROM consumables s WHERE s.device_id = d.id AND s.level < 10))::int AS low_supply,
      COALESCE((SELECT sum(GREATEST(0, dd.total_count - dd.total_start)) FROM dm_device_days dd
        WHERE dd.location_id = loc.id AND dd.fact_date > current_date - 30), 0)::float8 AS pages30
    FROM locations loc LEFT JOIN devices d ON d.location_id = loc.id
    WHERE ${scopeCondition(caller, sql`loc.id`) ?? sql`true`}
    GROUP BY loc.id, loc.code, loc.name
    ORDER BY loc.name, loc.id`);
  return res.rows.map((r) => ({
    locationId: Number(r.location_id),
    locationCode: String(r.code),
    locationName: String(r.name),
    allDeviceCount: Number(r.all_count),
    activeDeviceCount: Number(r.active_count),
    notAvailableCount: Number(r.not_available),
    attentionCount: Number(r.attention),
    replacementCount: Number(r.replacement),
    newDeviceCount: Number(r.new_count),
    lowSupplyCount: Number(r.low_supply),
    pages30: Number(r.pages30),
  }));
}

/** Devices in the caller's locations counted by status or by type. */
export async function countsBy(db: Db, column: 'status_code' | 'device_type', caller: Scoped): Promise<Record<string, number>> {
  const res = await db.execute<{ k: string; n: number }>(sql`SELECT COALESCE(${sql.raw(column)}, '') AS k, count(*)::int AS n FROM devices d WHERE ${scopeCondition(caller, sql`d.location_id`) ?? sql`true`} GROUP BY 1`);
  return Object.fromEntries(res.rows.map((r) => [r.k, Number(r.n)]));
}

/**
 * Moves a device to another location with its history: the rows that carry a location of
 * their own (days, print users' days, events and their event log records) follow it, so that
 * the old location's users no longer see its past and the new one's see all of it. Supplies
 * follow by the trigger of migration 0010. Run it in the transaction that moves the device.
 */
type DeviceValues = Partial<Omit<typeof devices.$inferInsert, 'id'>>;

export async function updateDevice(db: Db, id: number, set: DeviceValues) {
  await db.update(devices).set(set).where(eq(devices.id, id));
}

export async function deleteDevice(db: Db, id: number) {
  await db.delete(devices).where(eq(devices.id, id));
}

/**
 * Moves the history of device `from` into device `into` and deletes `from` (identity
 * reconciliation: a board swap, or one printer that became two rows). Days, supply days and user
 * days move where `into` has none of its own that day; events, addresses, meter flags, meter
 * corrections and the walk move;
 * `into` keeps its current state and gains the earlier first-seen time. The months rollup of
 * `into` is rebuilt by the days' triggers. Returns the days moved.
 */
export async function mergeDevices(tx: Db, into: number, from: number): Promise<number> {
  await tx.execute(sql`SELECT id FROM devices WHERE id IN (${into}, ${from}) ORDER BY id FOR UPDATE`);
  const moved = await tx.execute(sql`
    UPDATE dm_device_days f SET device_id = ${into}
    WHERE f.device_id = ${from} AND NOT EXISTS (SELECT 1 FROM dm_device_days t WHERE t.device_id = ${into} AND t.fact_date = f.fact_date)
    RETURNING f.fact_date`);
  await tx.execute(sql`
    UPDATE dm_device_part_days f SET device_id = ${into}
    WHERE f.device_id = ${from}
      AND NOT EXISTS (SELECT 1 FROM dm_device_part_days t WHERE t.device_id = ${into} AND t.fact_date = f.fact_date AND t.supply_index = f.supply_index)`);
  await tx.execute(sql`
    UPDATE dm_device_user_days f SET device_id = ${into}
    WHERE f.device_id = ${from}
      AND NOT EXISTS (SELECT 1 FROM dm_device_user_days t WHERE t.device_id = ${into} AND t.fact_date = f.fact_date AND t.username = f.username)`);
  await tx.execute(sql`UPDATE device_events SET device_id = ${into} WHERE device_id = ${from}`);
  await tx.execute(sql`UPDATE device_ip_history SET device_id = ${into} WHERE device_id = ${from}`);
  await tx.execute(sql`UPDATE meter_flags SET device_id = ${into} WHERE device_id = ${from}`);
  // Meter corrections are never lost (issue 41): they go with the days they correct.
  await tx.execute(sql`UPDATE meter_corrections SET device_id = ${into} WHERE device_id = ${from}`);
  await tx.execute(sql`
    INSERT INTO device_walks (device_id, walked_at, sys_object_id, sys_descr, row_count, rows)
    SELECT ${into}, walked_at, sys_object_id, sys_descr, row_count, rows FROM device_walks WHERE device_id = ${from}
    ON CONFLICT (device_id) DO NOTHING`);
  await tx.execute(sql`
    UPDATE devices i SET created_at = least(i.created_at, f.created_at),
      inventory_number = coalesce(i.inventory_number, f.inventory_number), comment = coalesce(i.comment, f.comment)
    FROM devices f WHERE i.id = ${into} AND f.id = ${from}`);
  await tx.delete(devices).where(eq(devices.id, from));
  return moved.rows.length;
}

/** The location of each of the devices that exist. */
export function locationsOfDevices(db: Db, ids: number[]): Promise<{ id: number; locationId: number }[]> {
  if (!ids.length) return Promise.resolve([]);
  return db.select({ id: devices.id, locationId: devices.locationId }).from(devices).where(inArray(devices.id, ids));
}

/** Asks for a fresh walk of the device by its agent (one standing request per device). */
export async function requestWalk(db: Db, r: { deviceId: number; agentId: number | null; requestedAt: Date; requestedBy: number }) {
  await db
    .insert(deviceWalkRequests)
    .values(r)
    .onConflictDoUpdate({ target: deviceWalkRequests.deviceId, set: { agentId: r.agentId, requestedAt: r.requestedAt, requestedBy: r.requestedBy } });
}

/** Devices an agent should walk in full on its next run: asked for and not walked since. */
export function pendingWalks(db: Db, agentId: number): Promise<{ deviceId: number; ip: string; port: number }[]> {
  return db
    .select({ deviceId: devices.id, ip: devices.ip, port: devices.port })
    .from(deviceWalkRequests)
    .innerJoin(devices, eq(devices.id, deviceWalkRequests.deviceId))
    .where(and(eq(devices.agentId, agentId), or(isNull(devices.walkRefreshedAt), gt(deviceWalkRequests.requestedAt, devices.walkRefreshedAt))));
}

export async function moveDevice(tx: Db, id: number, from: number, to: number) {
  await tx.update(devices).set({ locationId: to }).where(eq(devices.id, id));
  await tx.execute(sql`UPDATE dm_device_days SET location_id = ${to} WHERE device_id = ${id} AND location_id <> ${to}`);
  await tx.execute(sql`UPDATE dm_device_user_days SET location_id = ${to} WHERE device_id = ${id} AND location_id <> ${to}`);
  await tx.execute(sql`UPDATE device_events SET location_id = ${to} WHERE device_id = ${id} AND location_id <> ${to}`);
  // Event log records about the device are found within the old location (its index), not by
  // a scan of the whole log.
  await tx.execute(sql`UPDATE event_logs SET location_id = ${to} WHERE location_id = ${from} AND object_class = 'DeviceDao' AND object_id = ${id}`);
}

/**
 * The device's row of the devices list (DEVICE_FIELDS): the card reads the fields and the
 * derived values the grid shows through the same list, so each is defined and computed once.
 * The id is the request's own condition (`base`), so a card's statement is not kept among the
 * grid's pages. `list`: the devices list of another set of fields (the test that adds a column).
 */
export async function deviceListRow<R = DeviceListRow>(db: Db, caller: Scoped, id: number, list: ListDef = devicesListSql): Promise<R> {
  const page = JSON.parse(await runListJson(db, list, { page: '1,1' }, caller, sql`d.id = ${id}::int`)) as PageResponse<R>;
  const row = page.pageRows[0];
  if (!row) throw notFound();
  return row;
}
