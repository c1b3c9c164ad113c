import { sql } from 'drizzle-orm';
import { HOME_LIST_ROWS } from '@pagewatch/contracts/home';
import { METER_FLAG_HOME_DAYS, type MeterFlag, type MeterFlagKind } from '@pagewatch/contracts/meter-flags';
import type { Db } from '../../db/client.ts';
import type { MeterFlagDetail } from '../../db/schema/meter-flags.ts';
import { iso } from './devices.repository.ts';
import { placedDevice, type PairDevice } from './device-identity.repository.ts';

/** Reading meter_flags (migration 0042, written by ingest's plausibility.ts) for the card, home and reports. */

const int = (v: unknown) => Number(v ?? 0);
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

const COLUMNS = sql`f.device_id, f.at, f.kind, f.meter, f.previous_value, f.value, f.detail`;

function flagOf(r: Record<string, unknown>): MeterFlag {
  const detail = (typeof r.detail === 'string' ? JSON.parse(r.detail) : r.detail) as MeterFlagDetail;
  return {
    at: iso(r.at)!,
    kind: r.kind as MeterFlagKind,
    meter: String(r.meter),
    previousValue: num(r.previous_value),
    value: num(r.value),
    minutes: detail.minutes ?? null,
    limit: detail.limit ?? null,
    monoPlusColor: detail.monoPlusColor ?? null,
    others: detail.others ?? [],
  };
}

/** The device's newest `limit` flags, the newest first (the card). */
export async function deviceMeterFlags(db: Db, deviceId: number, limit: number): Promise<MeterFlag[]> {
  const res = await db.execute(sql`SELECT ${COLUMNS} FROM meter_flags f WHERE f.device_id = ${deviceId} ORDER BY f.at DESC, f.id DESC LIMIT ${limit}`);
  return res.rows.map(flagOf);
}

/**
 * The flags of the given devices from the start of day `from` to the end of day `to` (YYYY-MM-DD,
 * UTC days, as the daily history's), by device id, each device's in time order; a device without
 * flags is absent. For the reports' data quality column; the caller has scoped the devices.
 */
export async function meterFlagsInPeriod(db: Db, deviceIds: number[], from: string, to: string): Promise<Map<number, MeterFlag[]>> {
  const byDevice = new Map<number, MeterFlag[]>();
  if (!deviceIds.length) return byDevice;
  const res = await db.execute(sql`
    SELECT ${COLUMNS} FROM meter_flags f
    WHERE f.device_id = ANY(${`{${deviceIds.map(Number).join(',')}}`}::int[])
      AND f.at >= (${from}::date)::timestamp AT TIME ZONE 'UTC' AND f.at < (${to}::date + 1)::timestamp AT TIME ZONE 'UTC'
    ORDER BY f.device_id, f.at, f.id`);
  for (const r of res.rows) {
    const id = int(r.device_id);
    let list = byDevice.get(id);
    if (!list) byDevice.set(id, (list = []));
    list.push(flagOf(r));
  }
  return byDevice;
}

/** Devices flagged in the last METER_FLAG_HOME_DAYS days per location: how many, with each kind. */
export type LocationMeterFlags = { locationId: number; devices: number; byKind: Record<MeterFlagKind, number> };
/** A flagged device of home's list. */
export type MeterFlagDevice = PairDevice & { kinds: MeterFlagKind[]; lastAt: string };

const recent = sql`f.at > now() - make_interval(days => ${METER_FLAG_HOME_DAYS})`;

/** Home's counts, per location (the device's location now), for every location at once. */
export async function meterFlagsByLocation(db: Db): Promise<LocationMeterFlags[]> {
  const res = await db.execute(sql`
    SELECT d.location_id, count(DISTINCT d.id) AS devices,
      count(DISTINCT d.id) FILTER (WHERE f.kind = 'JUMP') AS jump,
      count(DISTINCT d.id) FILTER (WHERE f.kind = 'BACKWARDS') AS backwards,
      count(DISTINCT d.id) FILTER (WHERE f.kind = 'SPLIT') AS split
    FROM meter_flags f JOIN devices d ON d.id = f.device_id
    WHERE ${recent}
    GROUP BY d.location_id`);
  return res.rows.map((r) => ({
    locationId: int(r.location_id),
    devices: int(r.devices),
    byKind: { JUMP: int(r.jump), BACKWARDS: int(r.backwards), SPLIT: int(r.split) },
  }));
}

/** Each location's most recently flagged devices (HOME_LIST_ROWS of them), for home's list. */
export async function meterFlagDevices(db: Db): Promise<MeterFlagDevice[]> {
  const res = await db.execute(sql`
    SELECT * FROM (
      SELECT d.id, d.model_code, d.serial_number, d.ip, d.location_id, l.name AS location_name, x.kinds, x.last_at,
        row_number() OVER (PARTITION BY d.location_id ORDER BY x.last_at DESC, d.id) AS rn
      FROM (
        SELECT f.device_id, array_agg(DISTINCT f.kind ORDER BY f.kind) AS kinds, max(f.at) AS last_at
        FROM meter_flags f WHERE ${recent} GROUP BY f.device_id
      ) x
      JOIN devices d ON d.id = x.device_id JOIN locations l ON l.id = d.location_id
    ) y WHERE rn <= ${HOME_LIST_ROWS}`);
  return res.rows.map((r) => ({
    ...placedDevice(r),
    kinds: (typeof r.kinds === 'string' ? String(r.kinds).replace(/[{}]/g, '').split(',').filter(Boolean) : (r.kinds as string[])) as MeterFlagKind[],
    lastAt: iso(r.last_at)!,
  }));
}
