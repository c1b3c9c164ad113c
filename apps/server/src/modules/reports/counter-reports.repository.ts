import { sql, type SQL } from 'drizzle-orm';
import type { MeterFlagKind } from '@pagewatch/contracts/meter-flags';
import { METER_NAMES, METER_PARTS, METER_QUALITY_FLAGS, meterField, type Meter, type MeterQualityFlag } from '@pagewatch/contracts/meter-reads';
import type { PagesByMonth } from '@pagewatch/contracts/reports';
import type { Db } from '../../db/client.ts';
import { METER_COLUMN } from '../../db/schema/meter-corrections.ts';
import { DEVICE, deviceConditions, monthsPerDevice, periodDays, wholeMonths, type ReportQuery } from './report-query.repository.ts';

/*
 * The reports that bill pages (DEVICE_COUNTERS, METER_READS) and the counters chart: pages as
 * the forward steps of the day meters with the meter corrections in force, or, over whole
 * months, from the months the database rolled up.
 */

/**
 * Each meter of a day of the history (dm_device_days `dd`), with the meter corrections in force
 * that day added where the period has any (`o`, see `correctionOffsets`): the reports bill the
 * corrected figures, the history itself is never rewritten. 102 is total + large; prints are
 * total − copies − fax.
 */
const STORED_COLUMN: Record<Exclude<Meter, 'totalLargeTwice' | 'prints'>, string> = METER_COLUMN;
const quoted = (name: string) => sql.raw(`"${name}"`);
function dayMeters(q: ReportQuery): Record<Meter, SQL> & { totalStart: SQL } {
  const stored = (column: string, meter: string) => (q.corrected ? sql`(dd.${sql.raw(column)} + coalesce(o.${quoted(meter)}, 0))` : sql`dd.${sql.raw(column)}`);
  const m = Object.fromEntries(Object.entries(STORED_COLUMN).map(([meter, column]) => [meter, stored(column, meter)])) as Record<keyof typeof STORED_COLUMN, SQL>;
  return {
    ...m,
    totalLargeTwice: sql`(${m.total} + ${m.a3})`,
    prints: sql`(${m.total} - ${m.copies} - coalesce(${m.fax}, 0))`,
    totalStart: stored('total_start', 'total'),
  };
}

/** The offsets of the corrections in force on the day `dd`, one column per stored meter (joined only when the period has corrections). */
const correctionOffsets = sql`LEFT JOIN LATERAL (SELECT ${sql.join(
  Object.keys(STORED_COLUMN).map((meter) => sql`sum(mc.offset_pages) FILTER (WHERE mc.meter = ${meter}) AS ${quoted(meter)}`),
  sql`, `,
)} FROM meter_corrections mc WHERE mc.device_id = dd.device_id AND mc.from_date <= dd.fact_date AND mc.withdrawn_at IS NULL) o ON true`;

/**
 * The query with `corrected` set when a correction in force by the period's end is on a device
 * of the area: then the days are read with their corrections, and not from the months rolled up
 * (which hold the figures as read).
 */
export async function withCorrections(db: Db, q: ReportQuery): Promise<ReportQuery> {
  const { to } = periodDays(q);
  const res = await db.execute<{ corrected: unknown }>(sql`SELECT EXISTS (SELECT 1 FROM meter_corrections mc JOIN devices d ON d.id = mc.device_id
    WHERE mc.withdrawn_at IS NULL AND mc.from_date <= ${to}::date AND ${deviceConditions(q, sql`d.location_id`)}) AS corrected`);
  return { ...q, corrected: Boolean(res.rows[0]!.corrected) };
}

/** The counters the counters report reads, by the names of its columns. */
const COUNTERS = { bw: 'mono', color: 'color', total: 'total', a3: 'a3', a4: 'a4', copy: 'copies', scan: 'scans' } as const satisfies Record<string, Meter>;
type Counter = keyof typeof COUNTERS;
const NAMES = Object.keys(COUNTERS) as Counter[];
const counterMeters = (q: ReportQuery) => {
  const m = dayMeters(q);
  return Object.fromEntries(NAMES.map((c) => [c, m[COUNTERS[c]]])) as Record<Counter, SQL>;
};
const step = (c: string) => quoted(`${c}_step`);
const col = quoted;

/**
 * The daily history of the devices of the area now, in the period, from day to day: the last
 * day read before the period (`base`) and each day of it, with each meter (by the names of
 * `meters`) and its step from the day before (null on a device's first day). A new device's
 * first day steps from its first total of that day.
 */
function steppedDays(q: ReportQuery, meters: Record<string, SQL>) {
  const { from, to } = periodDays(q);
  const names = Object.keys(meters);
  const columns = sql.join([sql`${dayMeters(q).totalStart} AS total_start`, ...names.map((c) => sql`${meters[c]} AS ${col(c)}`)], sql`, `);
  const offsets = q.corrected ? correctionOffsets : sql``;
  const steps = sql.join(
    names.map((c) =>
      c === 'total'
        ? sql`CASE WHEN lag(total) OVER w IS NULL THEN CASE WHEN NOT base THEN total - total_start END ELSE total - lag(total) OVER w END AS total_step`
        : sql`${col(c)} - lag(${col(c)}) OVER w AS ${step(c)}`,
    ),
    sql`, `,
  );
  return sql`picked AS (SELECT d.id FROM devices d WHERE ${deviceConditions(q, sql`d.location_id`)}),
    series AS (
      SELECT b.* FROM picked p CROSS JOIN LATERAL (
        SELECT dd.device_id, dd.fact_date, true AS base, ${columns} FROM dm_device_days dd ${offsets}
        WHERE dd.device_id = p.id AND dd.fact_date < ${from}::date ORDER BY dd.fact_date DESC LIMIT 1) b
      UNION ALL
      SELECT dd.device_id, dd.fact_date, false, ${columns} FROM dm_device_days dd JOIN picked p ON p.id = dd.device_id ${offsets}
      WHERE dd.fact_date BETWEEN ${from}::date AND ${to}::date),
    stepped AS (SELECT series.*, ${steps} FROM series WINDOW w AS (PARTITION BY device_id ORDER BY fact_date))`;
}

/** A meter's first known value of the stepped days (the base day's when it has one), and its last. */
const firstOf = (c: string) => sql`(array_agg(${col(c)} ORDER BY fact_date) FILTER (WHERE ${col(c)} IS NOT NULL))[1]`;
const lastOf = (c: string) => sql`(array_agg(${col(c)} ORDER BY fact_date DESC) FILTER (WHERE ${col(c)} IS NOT NULL))[1]`;
/** The total at the start: the base day's, else the first total of the period's first day read. */
const totalStartOf = sql`coalesce((array_agg(total ORDER BY fact_date) FILTER (WHERE base))[1], (array_agg(total_start ORDER BY fact_date) FILTER (WHERE total_start IS NOT NULL))[1])`;
/** A meter's pages: the sum of its forward steps; none when the device did not report it in the period; a day alone is no pages. */
const pagesOf = (c: string) => sql`CASE WHEN count(${col(c)}) FILTER (WHERE NOT base) = 0 THEN NULL ELSE coalesce(sum(greatest(${step(c)}, 0)), 0) END`;

/**
 * Per device of the area now, from the daily history: each counter at the start of the period
 * (the end of the last day read before it; without one, the first day of the period, its first
 * total for the total), at its end, and the pages between as the sum of the forward steps from
 * day to day. A step back (a reset) adds nothing and names the counter in `reason`. A device
 * not read in the period has no figures.
 */
export function deviceCounters(q: ReportQuery): SQL {
  const months = wholeMonths(q);
  if (months) return deviceCountersByMonth(q, months);
  return sql`
    WITH ${steppedDays(q, counterMeters(q))},
    per_device AS (
      SELECT device_id,
        ${firstOf('bw')} AS bw_start, ${lastOf('bw')} AS bw_end, ${pagesOf('bw')} AS bw_diff,
        ${firstOf('color')} AS color_start, ${lastOf('color')} AS color_end, ${pagesOf('color')} AS color_diff,
        ${totalStartOf} AS total_start, ${lastOf('total')} AS total_end, ${pagesOf('total')} AS total_diff,
        ${pagesOf('a3')} AS a3_diff, ${pagesOf('a4')} AS a4_diff, ${pagesOf('copy')} AS copy_diff, ${pagesOf('scan')} AS scan_diff,
        nullif(concat_ws(',', ${sql.join(NAMES.map((c) => sql`CASE WHEN bool_or(${step(c)} < 0) THEN ${c} END`), sql`, `)}), '') AS reason
      FROM stepped GROUP BY device_id HAVING bool_or(NOT base))
    SELECT ${DEVICE}, c.bw_start AS "bwStart", c.bw_end AS "bwEnd", c.bw_diff AS "bwDiff", c.color_start AS "colorStart", c.color_end AS "colorEnd",
      c.color_diff AS "colorDiff", c.total_start AS "totalStart", c.total_end AS "totalEnd", c.total_diff AS "totalDiff", c.a3_diff AS "a3Diff",
      c.a4_diff AS "a4Diff", c.copy_diff AS "copyDiff", c.scan_diff AS "scanDiff", c.reason
    FROM picked p JOIN devices d ON d.id = p.id JOIN locations loc ON loc.id = d.location_id LEFT JOIN per_device c ON c.device_id = p.id
    ORDER BY loc.name, d.model_code, d.serial_number, d.id`;
}

/** A meter's day of its first and last known value (YYYY-MM-DD). */
const firstDayOf = (c: string) => sql`to_char((array_agg(fact_date ORDER BY fact_date) FILTER (WHERE ${col(c)} IS NOT NULL))[1], 'YYYY-MM-DD')`;
const lastDayOf = (c: string) => sql`to_char((array_agg(fact_date ORDER BY fact_date DESC) FILTER (WHERE ${col(c)} IS NOT NULL))[1], 'YYYY-MM-DD')`;
const totalStartDay = sql`to_char(coalesce((array_agg(fact_date ORDER BY fact_date) FILTER (WHERE base AND total IS NOT NULL))[1], (array_agg(fact_date ORDER BY fact_date) FILTER (WHERE total_start IS NOT NULL))[1]), 'YYYY-MM-DD')`;

/**
 * Each data-quality flag of a meter read (METER_QUALITY_FLAGS), as a condition on the device's
 * figures of the period (`c`, per_device) or the device (`d`), one fault under one name: the
 * plausibility check's flags (meter_flags, written at ingest) of a reading in the period, and
 * for BACKWARDS and SPLIT the period's days too (a meter stepping back, black-and-white plus
 * colour not the total), which ingest may not have flagged (history read before the check).
 */
function qualityFlags(q: ReportQuery): Record<MeterQualityFlag, SQL> {
  const { from, to } = periodDays(q);
  const flagged = (kind: MeterFlagKind, also = sql``) => sql`EXISTS (SELECT 1 FROM meter_flags f WHERE f.device_id = d.id AND f.kind = ${kind}
    AND f.at >= (${from}::date)::timestamp AT TIME ZONE 'UTC' AND f.at < (${to}::date + 1)::timestamp AT TIME ZONE 'UTC' ${also})`;
  // A meter going back on the day of a counter reset is the board swap the reset carries over (CORRECTED says so).
  const notReset = sql`AND NOT EXISTS (SELECT 1 FROM meter_corrections mc WHERE mc.device_id = f.device_id AND mc.reset_id IS NOT NULL
    AND mc.withdrawn_at IS NULL AND mc.from_date = (f.at AT TIME ZONE 'UTC')::date)`;
  return {
    JUMP: flagged('JUMP'),
    BACKWARDS: sql`(c.went_back OR ${flagged('BACKWARDS', notReset)})`,
    SPLIT: sql`(c.split_mismatch OR ${flagged('SPLIT')})`,
    CORRECTED: sql`EXISTS (SELECT 1 FROM meter_corrections mc WHERE mc.device_id = d.id AND mc.withdrawn_at IS NULL AND mc.from_date BETWEEN ${from}::date AND ${to}::date)`,
  };
}

/**
 * Meter reads (issue 41): per device of the area now and the period, each meter's first and
 * last read with their days and its pages, the same stepped days as the counters report (forward
 * steps only, corrections applied), and the period's data-quality flags.
 */
export function meterReads(q: ReportQuery): SQL {
  const { from, to } = periodDays(q);
  const meters = dayMeters(q);
  const figures = METER_NAMES.flatMap((m) => [
    sql`${m === 'total' ? totalStartOf : firstOf(m)} AS ${quoted(meterField(m, 'First'))}`,
    sql`${m === 'total' ? totalStartDay : firstDayOf(m)} AS ${quoted(meterField(m, 'FirstDate'))}`,
    sql`${lastOf(m)} AS ${quoted(meterField(m, 'Last'))}`,
    sql`${lastDayOf(m)} AS ${quoted(meterField(m, 'LastDate'))}`,
    sql`${pagesOf(m)} AS ${quoted(meterField(m, 'Pages'))}`,
  ]);
  const flags = qualityFlags(q);
  return sql`
    WITH ${steppedDays(q, Object.fromEntries(METER_NAMES.map((m) => [m, meters[m]])))},
    per_device AS (
      SELECT device_id, ${sql.join(figures, sql`, `)},
        bool_or(NOT base AND mono + color <> total) AS split_mismatch,
        bool_or(${sql.join(METER_NAMES.map((m) => sql`${step(m)} < 0`), sql` OR `)}) AS went_back
      FROM stepped GROUP BY device_id HAVING bool_or(NOT base))
    SELECT ${DEVICE}, ${from}::text AS "periodFrom", ${to}::text AS "periodTo",
      ${sql.join(METER_NAMES.flatMap((m) => METER_PARTS.map((p) => sql`c.${quoted(meterField(m, p))}`)), sql`, `)},
      CASE WHEN d.vendor_total_count IS NOT NULL THEN 'VENDOR' WHEN d.marker_total_count IS NOT NULL THEN 'PRINTER_MIB' END AS "billedTotal",
      CASE WHEN d.vendor_total_count IS NOT NULL THEN d.marker_total_count END AS "otherTotal",
      nullif(concat_ws(',', ${sql.join(METER_QUALITY_FLAGS.map((f) => sql`CASE WHEN ${flags[f]} THEN ${f} END`), sql`, `)}), '') AS "dataQuality"
    FROM picked p JOIN devices d ON d.id = p.id JOIN locations loc ON loc.id = d.location_id LEFT JOIN per_device c ON c.device_id = p.id
    ORDER BY loc.name, d.model_code, d.serial_number, d.id`;
}

/** The steps' bits in dm_device_months.back_mask (migration 0017). */
const BACK_BIT: Record<Counter, number> = { bw: 1, color: 2, total: 4, a3: 8, a4: 16, copy: 32, scan: 64 };
const MONTH_COLUMN: Record<Counter, string> = { bw: 'mono', color: 'color', total: 'total', a3: 'a3', a4: 'a4', copy: 'copy', scan: 'scan' };

/** The counters report over whole months: the same figures from the months rolled up. */
function deviceCountersByMonth(q: ReportQuery, months: { first: string; last: string }): SQL {
  const m = (c: Counter, what: 'open' | 'first' | 'last' | 'steps') => sql.raw(`m.${MONTH_COLUMN[c]}_${what}`);
  const start = (c: 'bw' | 'color' | 'total') =>
    sql`coalesce((array_agg(${m(c, 'open')} ORDER BY m.month))[1], (array_agg(${m(c, 'first')} ORDER BY m.month) FILTER (WHERE ${m(c, 'first')} IS NOT NULL))[1])`;
  const end = (c: 'bw' | 'color' | 'total') => sql`(array_agg(${m(c, 'last')} ORDER BY m.month DESC) FILTER (WHERE ${m(c, 'last')} IS NOT NULL))[1]`;
  // One month (the usual period) is one row per device; more are summed.
  const perDevice = monthsPerDevice(q, months,
    sql`${sql.join((['bw', 'color', 'total'] as const).map((c) => sql`coalesce(${m(c, 'open')}, ${m(c, 'first')}) AS ${sql.raw(`${c}_start`)}, ${m(c, 'last')} AS ${sql.raw(`${c}_end`)}`), sql`, `)},
        ${sql.join(NAMES.map((c) => sql`${m(c, 'steps')} AS ${sql.raw(`${c}_diff`)}`), sql`, `)}, m.back_mask`,
    sql`${sql.join((['bw', 'color', 'total'] as const).map((c) => sql`${start(c)} AS ${sql.raw(`${c}_start`)}, ${end(c)} AS ${sql.raw(`${c}_end`)}`), sql`, `)},
        ${sql.join(NAMES.map((c) => sql`sum(${m(c, 'steps')}) AS ${sql.raw(`${c}_diff`)}`), sql`, `)}, bit_or(m.back_mask) AS back_mask`);
  return sql`
    WITH per_device AS (${perDevice})
    SELECT ${DEVICE}, c.bw_start AS "bwStart", c.bw_end AS "bwEnd", c.bw_diff AS "bwDiff", c.color_start AS "colorStart", c.color_end AS "colorEnd",
      c.color_diff AS "colorDiff", c.total_start AS "totalStart", c.total_end AS "totalEnd", c.total_diff AS "totalDiff", c.a3_diff AS "a3Diff",
      c.a4_diff AS "a4Diff", c.copy_diff AS "copyDiff", c.scan_diff AS "scanDiff",
      nullif(concat_ws(',', ${sql.join(NAMES.map((c) => sql`CASE WHEN c.back_mask & ${sql.raw(String(BACK_BIT[c]))} <> 0 THEN ${c} END`), sql`, `)}), '') AS reason
    FROM devices d JOIN locations loc ON loc.id = d.location_id LEFT JOIN per_device c ON c.device_id = d.id
    WHERE ${deviceConditions(q, sql`d.location_id`)}
    ORDER BY loc.name, d.model_code, d.serial_number, d.id`;
}

/**
 * The counters report's chart: black-and-white and colour pages per location (where the
 * devices are now) and month of the period, the same forward steps the rows sum.
 */
export async function pagesByLocationMonth(db: Db, query: ReportQuery): Promise<PagesByMonth[]> {
  const q = await withCorrections(db, query);
  const months = wholeMonths(q);
  const res = await db.execute(months ? sql`
    WITH picked AS (SELECT d.id FROM devices d WHERE ${deviceConditions(q, sql`d.location_id`)})
    SELECT loc.name AS location, to_char(m.month, 'YYYY-MM') AS month, coalesce(sum(m.mono_steps), 0) AS bw, coalesce(sum(m.color_steps), 0) AS color
    FROM dm_device_months m JOIN picked p ON p.id = m.device_id JOIN devices d ON d.id = m.device_id JOIN locations loc ON loc.id = d.location_id
    WHERE m.month BETWEEN ${months.first}::date AND ${months.last}::date
    GROUP BY loc.name, m.month ORDER BY m.month, loc.name` : sql`
    WITH ${steppedDays(q, counterMeters(q))}
    SELECT loc.name AS location, to_char(s.fact_date, 'YYYY-MM') AS month,
      coalesce(sum(greatest(s.bw_step, 0)), 0) AS bw, coalesce(sum(greatest(s.color_step, 0)), 0) AS color
    FROM stepped s JOIN devices d ON d.id = s.device_id JOIN locations loc ON loc.id = d.location_id
    WHERE NOT s.base
    GROUP BY loc.name, month ORDER BY month, loc.name`);
  return res.rows.map((r) => ({ location: String(r.location), month: String(r.month), bw: Number(r.bw), color: Number(r.color) }));
}

