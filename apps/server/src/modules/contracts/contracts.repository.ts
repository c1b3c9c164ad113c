import { sql, type SQL } from 'drizzle-orm';
import type { BillingPeriod, ContractDevice, IncludedPagesMode, MeterPrice } from '@pagewatch/contracts/billing';
import type { Meter, MeterQualityFlag } from '@pagewatch/contracts/meter-reads';
import type { Db } from '../../db/client.ts';
import { locationIn } from '../../db/scope.ts';
import { sqlRows } from '../../db/sql-rows.ts';

/** A contract as stored (money in minor units). */
export type ContractRow = {
  id: number;
  locationId: number;
  locationName: string;
  name: string;
  billingDay: number;
  period: BillingPeriod;
  currency: string;
  baseFeeMinor: number;
  includedPages: IncludedPagesMode;
  prices: MeterPrice[];
  startsOn: string;
  endsOn: string | null;
  deviceCount: number;
  createdAt: string;
};
export type ContractValues = Omit<ContractRow, 'id' | 'locationName' | 'deviceCount' | 'createdAt'>;

const ISO = (column: SQL) => sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const DAY = (column: SQL) => sql`to_char(${column}, 'YYYY-MM-DD')`;

const CONTRACT = sql`c.id, c.location_id AS "locationId", loc.name AS "locationName", c.name, c.billing_day AS "billingDay", c.period, c.currency,
  c.base_fee_minor AS "baseFeeMinor", c.included_pages AS "includedPages", c.prices, ${DAY(sql`c.starts_on`)} AS "startsOn", ${DAY(sql`c.ends_on`)} AS "endsOn",
  (SELECT count(*) FROM contract_devices cd WHERE cd.contract_id = c.id)::int AS "deviceCount", ${ISO(sql`c.created_at`)} AS "createdAt"`;
const typed = (r: Record<string, unknown>): ContractRow => ({ ...(r as ContractRow), baseFeeMinor: Number(r.baseFeeMinor), prices: r.prices as MeterPrice[] });

/** The contracts of the locations (null: every one), by location and name. */
export async function contractsOf(db: Db, locations: readonly number[] | null): Promise<ContractRow[]> {
  const rows = await sqlRows(db, sql`SELECT ${CONTRACT} FROM contracts c JOIN locations loc ON loc.id = c.location_id
    WHERE ${locations ? locationIn(locations, sql`c.location_id`) : sql`true`} ORDER BY loc.name, c.name, c.id`);
  return rows.map(typed);
}

export async function contractById(db: Db, id: number): Promise<ContractRow | null> {
  const [r] = await sqlRows(db, sql`SELECT ${CONTRACT} FROM contracts c JOIN locations loc ON loc.id = c.location_id WHERE c.id = ${id}`);
  return r ? typed(r) : null;
}

export async function insertContract(db: Db, v: ContractValues, userId: number): Promise<number> {
  const [r] = await sqlRows<{ id: number }>(db, sql`INSERT INTO contracts (location_id, name, billing_day, period, currency, base_fee_minor, included_pages, prices, starts_on, ends_on, created_by)
    VALUES (${v.locationId}, ${v.name}, ${v.billingDay}, ${v.period}, ${v.currency}, ${v.baseFeeMinor}, ${v.includedPages}, ${JSON.stringify(v.prices)}::jsonb, ${v.startsOn}::date, ${v.endsOn}::date, ${userId})
    RETURNING id`);
  return Number(r!.id);
}

export async function updateContract(db: Db, id: number, v: ContractValues): Promise<void> {
  await db.execute(sql`UPDATE contracts SET location_id = ${v.locationId}, name = ${v.name}, billing_day = ${v.billingDay}, period = ${v.period}, currency = ${v.currency},
    base_fee_minor = ${v.baseFeeMinor}, included_pages = ${v.includedPages}, prices = ${JSON.stringify(v.prices)}::jsonb, starts_on = ${v.startsOn}::date, ends_on = ${v.endsOn}::date WHERE id = ${id}`);
}

/** How many closed runs the contract has (its runs locked, so none closes meanwhile): a contract with any is not deleted. */
export async function closedRunCount(tx: Db, id: number): Promise<number> {
  const rows = await sqlRows<{ state: string }>(tx, sql`SELECT state FROM billing_runs WHERE contract_id = ${id} FOR UPDATE`);
  return rows.filter((r) => r.state === 'CLOSED').length;
}

export async function deleteContract(db: Db, id: number): Promise<void> {
  await db.execute(sql`DELETE FROM contracts WHERE id = ${id}`);
}

/** A device of the locations with this serial (case aside), the one read last: what the serial is now. */
const currentDevice = (locations: readonly number[], serial: SQL) => sql`(SELECT d.id FROM devices d WHERE lower(d.serial_number) = lower(${serial})
  AND ${locationIn(locations, sql`d.location_id`)} ORDER BY d.refreshed_at DESC NULLS LAST, d.id DESC LIMIT 1)`;

/** The contract's devices, each with the device its serial is now in the contract's locations. */
export async function contractDevices(db: Db, contractId: number, locations: readonly number[]): Promise<ContractDevice[]> {
  const rows = await sqlRows<ContractDevice>(db, sql`SELECT cd.id, cd.serial_number AS "serialNumber", cd.equipment_id AS "equipmentId",
      ${DAY(sql`cd.joined_on`)} AS "joinedOn", ${DAY(sql`cd.left_on`)} AS "leftOn", d.id AS "deviceId", d.model_code AS "modelCode", d.ip
    FROM contract_devices cd LEFT JOIN devices d ON d.id = ${currentDevice(locations, sql`cd.serial_number`)}
    WHERE cd.contract_id = ${contractId} ORDER BY cd.serial_number, cd.joined_on, cd.id`);
  return rows.map((r) => ({ ...r, deviceId: r.deviceId === null ? null : Number(r.deviceId) }));
}

/** The id of the device with this serial in the locations, or null. */
export async function deviceOfSerial(db: Db, serial: string, locations: readonly number[]): Promise<number | null> {
  const [r] = await sqlRows<{ id: number | null }>(db, sql`SELECT ${currentDevice(locations, sql`${serial}`)} AS id`);
  return r?.id == null ? null : Number(r.id);
}

export async function insertContractDevice(db: Db, contractId: number, d: { serialNumber: string; equipmentId: string | null; joinedOn: string; leftOn: string | null }): Promise<number | null> {
  const [r] = await sqlRows<{ id: number }>(db, sql`INSERT INTO contract_devices (contract_id, serial_number, equipment_id, joined_on, left_on)
    VALUES (${contractId}, ${d.serialNumber}, ${d.equipmentId}, ${d.joinedOn}::date, ${d.leftOn}::date) ON CONFLICT DO NOTHING RETURNING id`);
  return r ? Number(r.id) : null;
}

/** Many devices at once (the benchmark's and an import's way): one statement. */
export async function insertContractDevices(db: Db, contractId: number, list: { serialNumber: string; equipmentId: string | null; joinedOn: string; leftOn: string | null }[]): Promise<void> {
  await db.execute(sql`INSERT INTO contract_devices (contract_id, serial_number, equipment_id, joined_on, left_on)
    SELECT ${contractId}, x.s, x.e, x.j, x.l FROM jsonb_to_recordset(${JSON.stringify(list.map((d) => ({ s: d.serialNumber, e: d.equipmentId, j: d.joinedOn, l: d.leftOn })))}::jsonb)
      AS x(s varchar, e varchar, j date, l date) ON CONFLICT DO NOTHING`);
}

export async function contractDeviceById(db: Db, id: number): Promise<{ id: number; contractId: number; serialNumber: string; joinedOn: string } | null> {
  const [r] = await sqlRows<{ id: number; contractId: number; serialNumber: string; joinedOn: string }>(db, sql`SELECT id, contract_id AS "contractId", serial_number AS "serialNumber",
    ${DAY(sql`joined_on`)} AS "joinedOn" FROM contract_devices WHERE id = ${id}`);
  return r ? { ...r, contractId: Number(r.contractId) } : null;
}

export async function updateContractDevice(db: Db, id: number, v: { equipmentId: string | null; leftOn: string | null }): Promise<void> {
  await db.execute(sql`UPDATE contract_devices SET equipment_id = ${v.equipmentId}, left_on = ${v.leftOn}::date WHERE id = ${id}`);
}

export async function deleteContractDevice(db: Db, id: number): Promise<void> {
  await db.execute(sql`DELETE FROM contract_devices WHERE id = ${id}`);
}

/** A day's read: its day and each meter, corrections applied. */
export type DayRow = { date: string; meters: Partial<Record<Meter, number | null>> };

/** dm_device_days's stored meters by their names (meter-names.ts). */
const STORED: Record<string, Meter> = {
  total_count: 'total', mono_count: 'mono', color_count: 'color', a3_count: 'a3', a4_count: 'a4', a3_bw_count: 'a3Bw', a4_bw_count: 'a4Bw',
  a3_color_count: 'a3Color', a4_color_count: 'a4Color', copy_count: 'copies', scan_count: 'scans', fax_count: 'fax', duplex_count: 'duplex',
};
const DAY_COLUMNS = sql.raw(Object.keys(STORED).map((c) => `'${c}', dd.${c}`).join(', '));

/** A day of the history as JSON with the meter corrections in force that day (`offsets`, by meter) beside it. */
const dayJson = sql`jsonb_build_object('date', to_char(dd.fact_date, 'YYYY-MM-DD'), ${DAY_COLUMNS},
  'offsets', (SELECT jsonb_object_agg(mc.meter, mc.pages) FROM (SELECT meter, sum(offset_pages) AS pages FROM meter_corrections
    WHERE device_id = dd.device_id AND from_date <= dd.fact_date AND withdrawn_at IS NULL GROUP BY meter) mc))`;

/** A day as JSON into a read: the stored meters with their offsets, then the meters worked out (102, prints). */
function dayRead(j: Record<string, unknown> | null): DayRow | null {
  if (!j) return null;
  const offsets = (j.offsets ?? {}) as Record<string, number>;
  const meters: Partial<Record<Meter, number | null>> = {};
  for (const [column, meter] of Object.entries(STORED)) {
    const v = j[column];
    meters[meter] = v == null ? null : Number(v) + Number(offsets[meter] ?? 0);
  }
  const { total, a3, copies, fax } = meters;
  meters.totalLargeTwice = total != null && a3 != null ? total + a3 : null;
  meters.prints = total != null && copies != null ? total - copies - (fax ?? 0) : null;
  return { date: String(j.date), meters };
}

/** The devices of the wanted row's serial (`w.serial`) in the locations: one serial may be several devices (moved between agents' locations below the contract's). */
const serialDevices = (locations: readonly number[]) => sql`(SELECT d.id FROM devices d WHERE lower(d.serial_number) = lower(w.serial) AND ${locationIn(locations, sql`d.location_id`)})`;

/** How far the reads around a boundary are looked for (days), and the span of a daily rate. */
const SEARCH_DAYS = 400;

/** Per wanted boundary (`k`): the reads around it of the serial's devices in the locations (billing-figures.ts, `Around`). */
export async function readsAround(db: Db, locations: readonly number[], wanted: { k: number; serial: string; boundary: string }[], rateDays: number) {
  const out = new Map<number, { before: DayRow | null; beforeRate: DayRow | null; after: DayRow | null; afterRate: DayRow | null }>();
  if (!wanted.length) return out;
  // Each serial's devices once; then per device the one day wanted (a backward or forward index probe), the latest or earliest of them.
  const history = (cond: SQL, desc: boolean) => {
    const order = desc ? sql`DESC` : sql`ASC`;
    return sql`(SELECT x.* FROM unnest(wd.ids) AS u(id) CROSS JOIN LATERAL (SELECT ${dayJson} AS j, dd.fact_date FROM dm_device_days dd
      WHERE dd.device_id = u.id AND ${cond} ORDER BY dd.fact_date ${order} LIMIT 1) x ORDER BY x.fact_date ${order} LIMIT 1)`;
  };
  const rows = await sqlRows<{ k: number; b: Record<string, unknown> | null; br: Record<string, unknown> | null; a: Record<string, unknown> | null; ar: Record<string, unknown> | null }>(db, sql`
    WITH w AS (SELECT * FROM jsonb_to_recordset(${JSON.stringify(wanted)}::jsonb) AS x(k int, serial varchar, boundary date)),
    wd AS (SELECT w.k, w.boundary, array_agg(d.id) AS ids FROM w JOIN devices d ON lower(d.serial_number) = lower(w.serial) AND ${locationIn(locations, sql`d.location_id`)}
      GROUP BY w.k, w.boundary)
    SELECT wd.k, b.j AS b, br.j AS br, a.j AS a, ar.j AS ar FROM wd
    LEFT JOIN LATERAL ${history(sql`dd.fact_date <= wd.boundary AND dd.fact_date > wd.boundary - ${SEARCH_DAYS}::int`, true)} b ON true
    LEFT JOIN LATERAL ${history(sql`dd.fact_date >= b.fact_date - ${rateDays}::int AND dd.fact_date < b.fact_date`, false)} br ON true
    LEFT JOIN LATERAL ${history(sql`dd.fact_date > wd.boundary AND dd.fact_date <= wd.boundary + ${SEARCH_DAYS}::int`, false)} a ON true
    LEFT JOIN LATERAL ${history(sql`dd.fact_date > a.fact_date AND dd.fact_date <= a.fact_date + ${rateDays}::int`, true)} ar ON true`);
  for (const r of rows) out.set(Number(r.k), { before: dayRead(r.b), beforeRate: dayRead(r.br), after: dayRead(r.a), afterRate: dayRead(r.ar) });
  return out;
}

/**
 * Per wanted window (`k`): the data-quality flags of the serial's devices in it: the plausibility
 * check's (meter_flags), a day whose meter went back or whose black plus colour is not the total,
 * and a meter correction starting in it.
 */
export async function windowFlags(db: Db, locations: readonly number[], wanted: { k: number; serial: string; from: string; to: string }[]): Promise<Map<number, MeterQualityFlag[]>> {
  const out = new Map<number, MeterQualityFlag[]>();
  if (!wanted.length) return out;
  const at = sql`f.at >= w."from"::timestamp AT TIME ZONE 'UTC' AND f.at < (w."to" + 1)::timestamp AT TIME ZONE 'UTC'`;
  const ids = serialDevices(locations);
  const flagged = (kind: string) => sql`EXISTS (SELECT 1 FROM meter_flags f WHERE f.device_id IN ${ids} AND f.kind = ${kind} AND ${at})`;
  const days = (cond: SQL) => sql`EXISTS (SELECT 1 FROM dm_device_days dd WHERE dd.device_id IN ${ids} AND dd.fact_date BETWEEN w."from" AND w."to" AND ${cond})`;
  const rows = await sqlRows<{ k: number; jump: boolean; back: boolean; split: boolean; corrected: boolean }>(db, sql`
    WITH w AS (SELECT * FROM jsonb_to_recordset(${JSON.stringify(wanted)}::jsonb) AS x(k int, serial varchar, "from" date, "to" date))
    SELECT w.k, f.* FROM w CROSS JOIN LATERAL (
      SELECT ${flagged('JUMP')} AS jump, (${flagged('BACKWARDS')} OR ${days(sql`dd.counter_backwards`)}) AS back,
        (${flagged('SPLIT')} OR ${days(sql`dd.mono_count + dd.color_count <> dd.total_count`)}) AS split,
        EXISTS (SELECT 1 FROM meter_corrections mc WHERE mc.device_id IN ${ids} AND mc.withdrawn_at IS NULL AND mc.from_date BETWEEN w."from" AND w."to") AS corrected) f`);
  for (const r of rows) {
    const flags: MeterQualityFlag[] = [];
    if (r.jump) flags.push('JUMP');
    if (r.back) flags.push('BACKWARDS');
    if (r.split) flags.push('SPLIT');
    if (r.corrected) flags.push('CORRECTED');
    out.set(Number(r.k), flags);
  }
  return out;
}

/** A serial's read on or before a day in the locations: the last day read, its meters with corrections. */
export async function readOn(db: Db, locations: readonly number[], serial: string, day: string): Promise<(DayRow & { deviceId: number }) | null> {
  const [r] = await sqlRows<{ j: Record<string, unknown>; device_id: number }>(db, sql`SELECT ${dayJson} AS j, dd.device_id FROM dm_device_days dd
    WHERE dd.device_id IN (SELECT d.id FROM devices d WHERE lower(d.serial_number) = lower(${serial}) AND ${locationIn(locations, sql`d.location_id`)})
      AND dd.fact_date <= ${day}::date ORDER BY dd.fact_date DESC, dd.readings DESC LIMIT 1`);
  return r ? { ...dayRead(r.j)!, deviceId: Number(r.device_id) } : null;
}
