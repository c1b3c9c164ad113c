import { sql, type SQL } from 'drizzle-orm';
import { INSTALLED_SINCE, type DeviceAvailabilityRow, type InstalledConsumableRow, type PartReplacementRow } from '@pagewatch/contracts/reports';
import type { Db } from '../../db/client.ts';
import { locationIn } from '../../db/scope.ts';

/** What a report reads: its locations (null: every location), device kinds, and a period [from, to) in time. */
export type ReportQuery = {
  area: ReadonlySet<number> | null;
  printerType: string[];
  colorType: string[];
  paperFormat: string[];
  from?: Date;
  to?: Date;
};

const oneOf = (column: SQL, values: string[]) => (values.length ? sql`${column} IN (${sql.join(values.map((v) => sql`${v}`), sql`, `)})` : sql`true`);

/** The device conditions every report shares: where, and which kinds of device. */
function deviceConditions(q: ReportQuery, location: SQL): SQL {
  return sql.join(
    [q.area ? locationIn(q.area, location) : sql`true`, oneOf(sql`d.device_type`, q.printerType), oneOf(sql`d.color_type`, q.colorType), oneOf(sql`d.paper_format`, q.paperFormat)],
    sql` AND `,
  );
}

const DEVICE = sql`d.serial_number AS "serialNumber", d.inventory_number AS "inventoryNumber", d.ip, d.model_code AS "modelCode", d.host_name AS hostname,
  loc.name AS location, loc.id AS "locationId", d.device_type AS "deviceType", d.color_type AS "colorType", d.paper_format AS "paperFormat"`;
const ISO = (column: SQL) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** Each supply replaced in the period, where the device was when it happened. */
export async function partReplacements(db: Db, q: ReportQuery): Promise<PartReplacementRow[]> {
  const res = await db.execute(sql`
    SELECT ${DEVICE}, coalesce(c.part_name, e.part_code) AS "partType", e.part_model_code AS "partModelCode", e.part_serial_number AS "partSerialNumber",
      ${ISO(sql`e.event_at`)} AS "replacementDate"
    FROM device_events e JOIN devices d ON d.id = e.device_id JOIN locations loc ON loc.id = e.location_id
    LEFT JOIN consumables c ON c.device_id = e.device_id AND c.supply_index = e.supply_index
    WHERE e.type = 'SUPPLY_REPLACED' AND ${deviceConditions(q, sql`e.location_id`)}
      ${q.from ? sql`AND e.event_at >= ${q.from.toISOString()}::timestamptz` : sql``}
      ${q.to ? sql`AND e.event_at < ${q.to.toISOString()}::timestamptz` : sql``}
    ORDER BY e.event_at, loc.name, d.serial_number, e.id`);
  return (res.rows as PartReplacementRow[]).map((r) => ({ ...r, locationId: Number(r.locationId) }));
}

const DAY = 86_400_000;
const dayOf = (d: Date) => d.toISOString().slice(0, 10);

/**
 * Per device of the area now: the period's days up to today, the days it was read, the days it
 * worked (read, and the day ended OK or WARNING), that as a percentage of the days, when it was
 * last read and its status now.
 */
export async function deviceAvailability(db: Db, q: ReportQuery): Promise<DeviceAvailabilityRow[]> {
  const today = dayOf(new Date());
  const from = dayOf(q.from ?? new Date(Date.now() - 30 * DAY));
  const last = dayOf(new Date((q.to ?? new Date(Date.now() + DAY)).getTime() - 1));
  const to = last < today ? last : today;
  const res = await db.execute(sql`
    SELECT ${DEVICE}, greatest(0, ${to}::date - ${from}::date + 1) AS "daysCount",
      count(dd.fact_date) FILTER (WHERE dd.readings > 0) AS "daysSeen",
      count(dd.fact_date) FILTER (WHERE dd.readings > 0 AND dd.status_code IN ('OK', 'WARNING')) AS "daysAvailable",
      ${ISO(sql`d.refreshed_at`)} AS "lastSeen", d.status_code AS status
    FROM devices d JOIN locations loc ON loc.id = d.location_id
    LEFT JOIN dm_device_days dd ON dd.device_id = d.id AND dd.fact_date BETWEEN ${from}::date AND ${to}::date
    WHERE ${deviceConditions(q, sql`d.location_id`)}
    GROUP BY d.id, loc.id
    ORDER BY loc.name, d.model_code, d.serial_number, d.id`);
  return (res.rows as DeviceAvailabilityRow[]).map((r) => {
    const days = Number(r.daysCount);
    const available = Number(r.daysAvailable);
    return { ...r, locationId: Number(r.locationId), daysCount: days, daysSeen: Number(r.daysSeen), daysAvailable: available, availability: days ? Math.round((available * 1000) / days) / 10 : 0 };
  });
}

/** The supplies installed now, last seen since INSTALLED_SINCE. */
export async function installedConsumables(db: Db, q: ReportQuery): Promise<InstalledConsumableRow[]> {
  const res = await db.execute(sql`
    SELECT ${DEVICE}, coalesce(c.part_name, c.part_code) AS "partType", c.part_model_code AS "partModelCode", c.part_serial_number AS "partSerialNumber",
      c.percent AS level, to_char(c.installed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS "installDate", ${ISO(sql`c.refreshed_at`)} AS "refreshDate"
    FROM consumables c JOIN devices d ON d.id = c.device_id JOIN locations loc ON loc.id = d.location_id
    WHERE ${deviceConditions(q, sql`d.location_id`)} AND c.refreshed_at >= ${INSTALLED_SINCE}::timestamptz
    ORDER BY loc.name, d.model_code, d.serial_number, c.device_id, c.supply_index`);
  return (res.rows as InstalledConsumableRow[]).map((r) => ({ ...r, locationId: Number(r.locationId), level: r.level == null ? null : Number(r.level) }));
}

/** The reports that are built, by code: what the API, the downloads and REPORT notifications run. */
export const REPORT_QUERIES = {
  DEVICE_AVAILABILITY: deviceAvailability,
  PART_REPLACEMENTS: partReplacements,
  INSTALLED_CONSUMABLES: installedConsumables,
} as const satisfies Partial<Record<string, (db: Db, q: ReportQuery) => Promise<Record<string, unknown>[]>>>;
export type BuiltReport = keyof typeof REPORT_QUERIES;
export const isBuilt = (code: string): code is BuiltReport => Object.hasOwn(REPORT_QUERIES, code);
