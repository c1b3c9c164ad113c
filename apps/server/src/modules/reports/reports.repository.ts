import { sql, type SQL } from 'drizzle-orm';
import { INSTALLED_SINCE, REPORTS, type AvailabilityDay, type ReportCode } from '@pagewatch/contracts/reports';
import type { Db } from '../../db/client.ts';
import { everyRowSql } from '../../lib/list-json.ts';
import { readPages, type RowFeed } from '../../lib/row-pages.ts';
import { installedConsumablesListSql } from './reports.list.ts';
import { DEVICE, deviceConditions, ISO, monthsPerDevice, periodDays, wholeMonths, type ReportQuery } from './report-query.repository.ts';
import { deviceCounters, meterReads, withCorrections } from './counter-reports.repository.ts';

/** Each supply replaced in the period, where the device was when it happened. */
function partReplacements(q: ReportQuery): SQL {
  return sql`
    SELECT ${DEVICE}, coalesce(c.part_name, e.part_code) AS "partType", e.part_model_code AS "partModelCode", e.part_serial_number AS "partSerialNumber",
      ${ISO(sql`e.event_at`)} AS "replacementDate"
    FROM device_events e JOIN devices d ON d.id = e.device_id JOIN locations loc ON loc.id = e.location_id
    LEFT JOIN consumables c ON c.device_id = e.device_id AND c.supply_index = e.supply_index
    WHERE e.type = 'SUPPLY_REPLACED' AND ${deviceConditions(q, sql`e.location_id`)}
      ${q.from ? sql`AND e.event_at >= ${q.from.toISOString()}::timestamptz` : sql``}
      ${q.to ? sql`AND e.event_at < ${q.to.toISOString()}::timestamptz` : sql``}
    ORDER BY e.event_at, loc.name, d.serial_number, e.id`;
}

/**
 * Per device of the area now: the period's days up to today, the days it was read, the days it
 * worked (read, and the day ended OK or WARNING), that as a percentage of the days, when it was
 * last read and its status now.
 */
function deviceAvailability(q: ReportQuery): SQL {
  const { from, to } = periodDays(q, true);
  const days = sql`greatest(0, ${to}::date - ${from}::date + 1)`;
  const months = wholeMonths(q);
  if (months) {
    return sql`
      WITH per_device AS (${monthsPerDevice(q, months, sql`m.days_seen AS seen, m.days_up AS up`, sql`sum(m.days_seen) AS seen, sum(m.days_up) AS up`)})
      SELECT ${DEVICE}, ${days} AS "daysCount", coalesce(c.seen, 0) AS "daysSeen", coalesce(c.up, 0) AS "daysAvailable",
        CASE WHEN ${days} > 0 THEN round(coalesce(c.up, 0) * 100.0 / ${days}, 1) ELSE 0 END AS availability,
        ${ISO(sql`d.refreshed_at`)} AS "lastSeen", d.status_code AS status
      FROM devices d JOIN locations loc ON loc.id = d.location_id LEFT JOIN per_device c ON c.device_id = d.id
      WHERE ${deviceConditions(q, sql`d.location_id`)}
      ORDER BY loc.name, d.model_code, d.serial_number, d.id`;
  }
  const available = sql`count(dd.fact_date) FILTER (WHERE dd.readings > 0 AND dd.status_code IN ('OK', 'WARNING'))`;
  return sql`
    SELECT ${DEVICE}, ${days} AS "daysCount", count(dd.fact_date) FILTER (WHERE dd.readings > 0) AS "daysSeen", ${available} AS "daysAvailable",
      CASE WHEN ${days} > 0 THEN round(${available} * 100.0 / ${days}, 1) ELSE 0 END AS availability,
      ${ISO(sql`d.refreshed_at`)} AS "lastSeen", d.status_code AS status
    FROM devices d JOIN locations loc ON loc.id = d.location_id
    LEFT JOIN dm_device_days dd ON dd.device_id = d.id AND dd.fact_date BETWEEN ${from}::date AND ${to}::date
    WHERE ${deviceConditions(q, sql`d.location_id`)}
    GROUP BY d.id, loc.id
    ORDER BY loc.name, d.model_code, d.serial_number, d.id`;
}

/** The availability report's chart: per day of the period up to today, the devices of the area, those read and those working. */
export async function availabilityByDay(db: Db, q: ReportQuery): Promise<AvailabilityDay[]> {
  const { from, to } = periodDays(q, true);
  const res = await db.execute(sql`
    WITH picked AS (SELECT d.id FROM devices d WHERE ${deviceConditions(q, sql`d.location_id`)}),
    days AS (
      SELECT dd.fact_date, count(*) FILTER (WHERE dd.readings > 0) AS seen,
        count(*) FILTER (WHERE dd.readings > 0 AND dd.status_code IN ('OK', 'WARNING')) AS available
      FROM dm_device_days dd JOIN picked p ON p.id = dd.device_id
      WHERE dd.fact_date BETWEEN ${from}::date AND ${to}::date GROUP BY dd.fact_date)
    SELECT to_char(g.day, 'YYYY-MM-DD') AS day, (SELECT count(*) FROM picked) AS devices, coalesce(days.seen, 0) AS seen, coalesce(days.available, 0) AS available
    FROM generate_series(${from}::date, ${to}::date, interval '1 day') g(day) LEFT JOIN days ON days.fact_date = g.day::date
    ORDER BY g.day`);
  return res.rows.map((r) => ({ day: String(r.day), devices: Number(r.devices), seen: Number(r.seen), available: Number(r.available) }));
}

/** The supplies installed now, last seen since INSTALLED_SINCE: the grid's columns (reports.list.ts), every row. */
const installedConsumables = (q: ReportQuery): SQL =>
  everyRowSql(installedConsumablesListSql, installedCondition(q), Object.keys(REPORTS.INSTALLED_CONSUMABLES.list.row.shape));

/** The installed consumables grid's base condition (reports.list.ts): the report's filter, on supplies seen since INSTALLED_SINCE. */
export const installedCondition = (q: ReportQuery): SQL =>
  sql`${deviceConditions(q, sql`c.location_id`)} AND c.refreshed_at >= ${INSTALLED_SINCE}::timestamptz`;

/** Each report's statement, by code: its columns are the row schema's, in the JSON types. */
const REPORT_SQL = {
  DEVICE_AVAILABILITY: deviceAvailability,
  DEVICE_COUNTERS: deviceCounters,
  PART_REPLACEMENTS: partReplacements,
  INSTALLED_CONSUMABLES: installedConsumables,
  METER_READS: meterReads,
} as const satisfies Partial<Record<ReportCode, (q: ReportQuery) => SQL>>;
export type BuiltReport = keyof typeof REPORT_SQL;
export const isBuilt = (code: string): code is BuiltReport => Object.hasOwn(REPORT_SQL, code);

/** The reports that bill pages, and so apply the meter corrections. */
const CORRECTED_REPORTS: ReadonlySet<BuiltReport> = new Set(['DEVICE_COUNTERS', 'METER_READS']);
const statementOf = async (db: Db, code: BuiltReport, q: ReportQuery): Promise<SQL> => REPORT_SQL[code](CORRECTED_REPORTS.has(code) ? await withCorrections(db, q) : q);

/** A report's row as an object of the files: numbers as numbers. */
function typedRow(code: BuiltReport): (r: Record<string, unknown>) => Record<string, unknown> {
  const numbers = REPORTS[code].list.columns.filter((c) => c.type === 'number').map((c) => c.field);
  return (r) => {
    const out: Record<string, unknown> = { ...r, locationId: Number(r.locationId) };
    for (const k of numbers) out[k] = r[k] == null ? null : Number(r[k]);
    return out;
  };
}

/** A report's rows as objects (REPORT notifications): numbers as numbers. */
export async function reportRows(db: Db, code: BuiltReport, q: ReportQuery): Promise<Record<string, unknown>[]> {
  const res = await db.execute(await statementOf(db, code, q));
  return res.rows.map(typedRow(code));
}

/** A report's rows for a file, a page at a time through a cursor (lib/row-pages.ts, issue 39). */
export function reportFeed(db: Db, kind: 'pglite' | 'postgres', code: BuiltReport, q: ReportQuery): RowFeed {
  const typed = typedRow(code);
  return async (emit) => readPages(db, kind, await statementOf(db, code, q), (rows) => emit(rows.map(typed)));
}

/**
 * A report's rows as one JSON array, written by PostgreSQL in the row schema's types (numbers,
 * ISO times, days) and sent as it is: 100,000 rows are never made into objects on the server.
 */
export async function reportJson(db: Db, code: BuiltReport, q: ReportQuery): Promise<string> {
  // string_agg of each row's JSON is a fifth faster than json_agg on 100,000 rows.
  const res = await db.execute<{ json: string }>(sql`SELECT '[' || coalesce(string_agg(row_to_json(r)::text, ','), '') || ']' AS json FROM (${await statementOf(db, code, q)}) r`);
  return String(res.rows[0]!.json);
}
