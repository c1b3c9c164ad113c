import { sql, type SQL } from 'drizzle-orm';
import { locationIn } from '../../db/scope.ts';

/*
 * What every report's statement shares: the query (area, device kinds, period), the device
 * conditions and columns, the period's days, and the months the database rolled up.
 */

/** What a report reads: its locations (null: every location), device kinds, and a period [from, to) in time. */
export type ReportQuery = {
  area: ReadonlySet<number> | null;
  printerType: string[];
  colorType: string[];
  paperFormat: string[];
  from?: Date;
  to?: Date;
  /** A meter correction is in force in the period on a device of the area (`withCorrections`). */
  corrected?: boolean;
};

export const oneOf = (column: SQL, values: string[]) => (values.length ? sql`${column} IN (${sql.join(values.map((v) => sql`${v}`), sql`, `)})` : sql`true`);

/** The device conditions every report shares: where, and which kinds of device. */
export function deviceConditions(q: ReportQuery, location: SQL): SQL {
  return sql.join(
    [q.area ? locationIn(q.area, location) : sql`true`, oneOf(sql`d.device_type`, q.printerType), oneOf(sql`d.color_type`, q.colorType), oneOf(sql`d.paper_format`, q.paperFormat)],
    sql` AND `,
  );
}

export const DEVICE = sql`d.serial_number AS "serialNumber", d.inventory_number AS "inventoryNumber", d.ip, d.model_code AS "modelCode", d.host_name AS hostname,
  loc.name AS location, loc.id AS "locationId", d.device_type AS "deviceType", d.color_type AS "colorType", d.paper_format AS "paperFormat"`;
export const ISO = (column: SQL) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;


export const DAY = 86_400_000;
export const dayOf = (d: Date) => d.toISOString().slice(0, 10);

/** The period's first and last days (YYYY-MM-DD); with `upToToday`, the last is at most today. */
export function periodDays(q: ReportQuery, upToToday = false): { from: string; to: string } {
  const from = dayOf(q.from ?? new Date(Date.now() - 30 * DAY));
  const last = dayOf(new Date((q.to ?? new Date(Date.now() + DAY)).getTime() - 1));
  const today = dayOf(new Date());
  return { from, to: upToToday && last > today ? today : last };
}

/**
 * Each device's row of the months rolled up in the period, for the devices of the area: one
 * month (the usual period) is the month's own row (`one`: no grouping, so a location's devices
 * are joined to their rows alone); more are grouped per device (`several`), and then the rows
 * are those of the area's devices only when the query narrows the fleet (issue 53: one
 * location grouped every device's months and kept 1 in 20).
 */
export function monthsPerDevice(q: ReportQuery, months: { first: string; last: string }, one: SQL, several: SQL): SQL {
  if (months.first === months.last) return sql`SELECT m.device_id, ${one} FROM dm_device_months m WHERE m.month = ${months.first}::date`;
  const narrowed = q.area || q.printerType.length || q.colorType.length || q.paperFormat.length;
  return sql`SELECT m.device_id, ${several} FROM dm_device_months m
    ${narrowed ? sql`JOIN devices d ON d.id = m.device_id AND ${deviceConditions(q, sql`d.location_id`)}` : sql``}
    WHERE m.month BETWEEN ${months.first}::date AND ${months.last}::date GROUP BY m.device_id`;
}

/**
 * The period as whole months, when it is: from the first day of a month to the last day of one
 * (or to today, a month not over yet, as no day after today is written). Then the reports read
 * the months the database rolled up (dm_device_months) instead of every day.
 */
export function wholeMonths(q: ReportQuery): { first: string; last: string } | null {
  const { from, to } = periodDays(q);
  const next = dayOf(new Date(Date.parse(`${to}T00:00:00Z`) + DAY));
  // The months hold the figures as read: corrections are applied to the days.
  if (q.corrected || !from.endsWith('-01') || to < from || !(next.endsWith('-01') || to >= dayOf(new Date()))) return null;
  return { first: from, last: `${to.slice(0, 7)}-01` };
}

