import { sql } from 'drizzle-orm';
import { HOME_LIST_ROWS } from '@pagewatch/contracts/home';
import { UNREAD_RUNS } from '@pagewatch/contracts/agents';
import type { DeviceFailureReason } from '@pagewatch/contracts/agent-api';
import type { Db } from '../../db/client.ts';
import { attentionSql, iso, placedDevice } from '../devices/index.ts';
export { meterFlagDevices, meterFlagsByLocation, type LocationMeterFlags, type MeterFlagDevice } from '../devices/index.ts';
export { addressFlaps, identityPairs, pairsSeenBy, type AddressFlap, type PairDevice, type StoredPair } from '../devices/index.ts';

/**
 * Home's figures per location, for every location at once: one pass over devices, supplies,
 * months and agents, grouped by location. The service keeps the result and adds up the
 * caller's locations from it, so a request costs no query.
 */

const int = (v: unknown) => Number(v ?? 0);

export type LocationDevices = {
  locationId: number;
  locationName: string;
  total: number;
  ok: number;
  warning: number;
  error: number;
  notAvailable: number;
  unknown: number;
  maintenance: number;
  attention: number;
  backwards: number;
  noProfile: number;
};

export async function devicesByLocation(db: Db): Promise<LocationDevices[]> {
  const res = await db.execute(sql`
    SELECT d.location_id, l.name,
      count(*) AS total,
      count(*) FILTER (WHERE d.status_code = 'OK') AS ok,
      count(*) FILTER (WHERE d.status_code = 'WARNING') AS warning,
      count(*) FILTER (WHERE d.status_code = 'ERROR') AS error,
      count(*) FILTER (WHERE d.status_code = 'NOT_AVAILABLE') AS not_available,
      count(*) FILTER (WHERE d.status_code = 'UNKNOWN') AS unknown,
      count(*) FILTER (WHERE d.managed_flag) AS maintenance,
      count(*) FILTER (WHERE ${attentionSql('d')}) AS attention,
      count(*) FILTER (WHERE d.counter_backwards_at IS NOT NULL) AS backwards,
      count(*) FILTER (WHERE d.profile_id IS NULL) AS no_profile
    FROM devices d JOIN locations l ON l.id = d.location_id
    GROUP BY d.location_id, l.name`);
  return res.rows.map((r) => ({
    locationId: int(r.location_id),
    locationName: String(r.name),
    total: int(r.total),
    ok: int(r.ok),
    warning: int(r.warning),
    error: int(r.error),
    notAvailable: int(r.not_available),
    unknown: int(r.unknown),
    maintenance: int(r.maintenance),
    attention: int(r.attention),
    backwards: int(r.backwards),
    noProfile: int(r.no_profile),
  }));
}

export type LocationSupplies = { locationId: number; within7: number; within14: number; empty: number };

/** Supplies running out, as the consumables grid filters them (days left, level 0). */
export async function suppliesByLocation(db: Db): Promise<LocationSupplies[]> {
  const res = await db.execute(sql`
    SELECT location_id,
      count(*) FILTER (WHERE days_left <= 7) AS within7,
      count(*) FILTER (WHERE days_left <= 14) AS within14,
      count(*) FILTER (WHERE level = 0) AS empty
    FROM consumables
    WHERE days_left <= 14 OR level = 0
    GROUP BY location_id`);
  return res.rows.map((r) => ({ locationId: int(r.location_id), within7: int(r.within7), within14: int(r.within14), empty: int(r.empty) }));
}

export type AttentionRow = {
  id: number;
  modelCode: string | null;
  serialNumber: string | null;
  ip: string;
  locationId: number;
  locationName: string;
  statusCode: string;
  problems: string[];
  since: string | null;
};

/**
 * Each location's devices that need attention, the longest first (HOME_LIST_ROWS of them): since
 * the last change of their status, or since they were first seen.
 */
export async function attentionByLocation(db: Db): Promise<AttentionRow[]> {
  const res = await db.execute(sql`
    SELECT * FROM (
      SELECT d.id, d.model_code, d.serial_number, d.ip, d.location_id, l.name AS location_name, d.status_code, d.error_bits,
        coalesce(s.since, d.created_at) AS since,
        row_number() OVER (PARTITION BY d.location_id ORDER BY coalesce(s.since, d.created_at), d.id) AS rn
      FROM devices d
      JOIN locations l ON l.id = d.location_id
      LEFT JOIN LATERAL (
        SELECT max(e.event_at) AS since FROM device_events e
        WHERE e.device_id = d.id AND e.type IN ('STATUS_CHANGE', 'NOT_AVAILABLE', 'BACK_ONLINE', 'NEW_DEVICE')
      ) s ON true
      WHERE ${attentionSql('d')}
    ) x WHERE rn <= ${HOME_LIST_ROWS}`);
  return res.rows.map((r) => ({
    ...placedDevice(r),
    statusCode: String(r.status_code),
    problems: (typeof r.error_bits === 'string' ? JSON.parse(r.error_bits) : r.error_bits) as string[],
    since: iso(r.since),
  }));
}

export type Pages = { bw: number; color: number; total: number };
export type LocationPages = { locationId: number; thisMonth: Pages; lastMonth: Pages };
/** The days home compares (YYYY-MM-DD, UTC): this month so far, and the same days of last month. */
export type PageSpan = { thisFrom: string; thisTo: string; lastFrom: string; lastTo: string };

/**
 * Home's comparison (issue 54): this month from its first day to today against the same days of
 * last month (to its last day when it is shorter), not one day of December against all of November.
 */
export function pageSpan(now: Date): PageSpan {
  const [y, m, d] = [now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()];
  const day = (month: number, date: number) => new Date(Date.UTC(y, month, date)).toISOString().slice(0, 10);
  const lastLength = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return { thisFrom: day(m, 1), thisTo: day(m, d), lastFrom: day(m - 1, 1), lastTo: day(m - 1, Math.min(d, lastLength)) };
}

/** A day's forward step of a counter of dm_device_days `dd` from the device's day before (in the rows read). */
const stepOf = (column: string) => sql.raw(`greatest(dd.${column} - lag(dd.${column}) OVER w, 0)`);
/** Days read before a span for its first day's step: a device read less often than that adds none that day. */
const LOOKBACK_DAYS = 14;

/**
 * Pages per location (the device's location now) of this month so far, from the months rollup,
 * and of the same days of last month, from the days: the forward steps of the counters either
 * way, so a reset or a replaced board adds no pages.
 */
export async function pagesByLocation(db: Db, span: PageSpan): Promise<LocationPages[]> {
  const byLocation = new Map<number, LocationPages>();
  const zero = (): Pages => ({ bw: 0, color: 0, total: 0 });
  const put = (rows: Record<string, unknown>[], key: 'thisMonth' | 'lastMonth') => {
    for (const r of rows) {
      const id = int(r.location_id);
      let entry = byLocation.get(id);
      if (!entry) byLocation.set(id, (entry = { locationId: id, thisMonth: zero(), lastMonth: zero() }));
      entry[key] = { bw: int(r.bw), color: int(r.color), total: int(r.total) };
    }
  };
  const now = await db.execute(sql`
    SELECT d.location_id, sum(m.mono_steps) AS bw, sum(m.color_steps) AS color,
      sum(coalesce(m.total_steps, coalesce(m.mono_steps, 0) + coalesce(m.color_steps, 0))) AS total
    FROM dm_device_months m JOIN devices d ON d.id = m.device_id
    WHERE m.month = ${span.thisFrom}::date
    GROUP BY 1`);
  put(now.rows, 'thisMonth');
  const before = await db.execute(sql`
    WITH steps AS (
      SELECT dd.device_id, dd.fact_date, ${stepOf('mono_count')} AS bw, ${stepOf('color_count')} AS color, ${stepOf('total_count')} AS total
      FROM dm_device_days dd
      WHERE dd.fact_date BETWEEN ${span.lastFrom}::date - ${LOOKBACK_DAYS}::int AND ${span.lastTo}::date
      WINDOW w AS (PARTITION BY dd.device_id ORDER BY dd.fact_date))
    SELECT d.location_id, sum(s.bw) AS bw, sum(s.color) AS color, sum(coalesce(s.total, coalesce(s.bw, 0) + coalesce(s.color, 0))) AS total
    FROM steps s JOIN devices d ON d.id = s.device_id
    WHERE s.fact_date >= ${span.lastFrom}::date
    GROUP BY 1`);
  put(before.rows, 'lastMonth');
  return [...byLocation.values()];
}

export type AgentRow = { id: number; name: string; locationId: number; locationName: string; lastContactAt: string | null; createdAt: string };

export async function agentsForHome(db: Db): Promise<AgentRow[]> {
  const res = await db.execute(sql`
    SELECT a.id, a.name, a.location_id, l.name AS location_name, a.last_contact_at, a.created_at
    FROM agents a JOIN locations l ON l.id = a.location_id ORDER BY a.last_contact_at NULLS FIRST, a.id`);
  return res.rows.map((r) => ({
    id: int(r.id),
    name: String(r.name),
    locationId: int(r.location_id),
    locationName: String(r.location_name),
    lastContactAt: iso(r.last_contact_at),
    createdAt: iso(r.created_at)!,
  }));
}

export type NotReadRow = { agentId: number; agentName: string; ip: string; reason: DeviceFailureReason | null; failuresInRow: number; lastOkAt: string | null };
export type LocationNotRead = { locationId: number; count: number; rows: NotReadRow[] };

/**
 * Devices of agents' ranges not read for UNREAD_RUNS runs in a row (issue 44), per agent's
 * location: how many, and the first HOME_LIST_ROWS (the most runs first). A device that never
 * answered as a printer (NO_PRINTER_MIB, never read) is a scanner or a switch, not a lost printer.
 */
export async function notReadByLocation(db: Db): Promise<LocationNotRead[]> {
  const res = await db.execute<Record<string, unknown>>(sql`
    SELECT * FROM (
      SELECT a.location_id, s.agent_id, a.name AS agent_name, s.ip, s.last_failure_reason, s.failures_in_row, s.last_ok_at,
             count(*) OVER (PARTITION BY a.location_id) AS total,
             row_number() OVER (PARTITION BY a.location_id ORDER BY s.failures_in_row DESC, s.last_ok_at NULLS FIRST, s.agent_id, s.ip) AS n
      FROM agent_device_status s JOIN agents a ON a.id = s.agent_id
      WHERE s.failures_in_row >= ${UNREAD_RUNS} AND (s.last_ok_at IS NOT NULL OR s.last_failure_reason <> 'NO_PRINTER_MIB')
    ) x WHERE n <= ${HOME_LIST_ROWS} ORDER BY location_id, n`);
  const byLocation = new Map<number, LocationNotRead>();
  for (const r of res.rows) {
    const locationId = int(r.location_id);
    let entry = byLocation.get(locationId);
    if (!entry) byLocation.set(locationId, (entry = { locationId, count: int(r.total), rows: [] }));
    entry.rows.push({ agentId: int(r.agent_id), agentName: String(r.agent_name), ip: String(r.ip), reason: (r.last_failure_reason ?? null) as DeviceFailureReason | null, failuresInRow: int(r.failures_in_row), lastOkAt: iso(r.last_ok_at) });
  }
  return [...byLocation.values()];
}

export async function rangesByLocation(db: Db): Promise<Map<number, number>> {
  const res = await db.execute(sql`SELECT location_id, count(*) AS n FROM network_ranges GROUP BY location_id`);
  return new Map(res.rows.map((r) => [int(r.location_id), int(r.n)]));
}
