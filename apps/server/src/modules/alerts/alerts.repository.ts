import { sql } from 'drizzle-orm';
import { AGENT_SILENT_MINUTES } from '@pagewatch/contracts/home';
import { SUPPLY_CLEAR_MARGIN, type Alert, type AlertKind } from '@pagewatch/contracts/alerts';
import type { Db } from '../../db/client.ts';
import { sqlRows } from '../../db/sql-rows.ts';
import { scopeCondition, type Scoped } from '../../db/scope.ts';

const ids = (list: number[]) => sql.join(list.map((i) => sql`${i}`), sql`, `);
const iso = (v: unknown) => (v == null ? null : new Date(v as string).toISOString());

/** A supply that is low: under the threshold, or without a level and saying it is low. A waste container filling up is not. */
const supplyLow = (threshold: number) =>
  sql`c.supply_class IS DISTINCT FROM 'filled' AND (c.level < ${threshold} OR (c.level IS NULL AND c.level_state IN ('LOW', 'EMPTY')))`;

/**
 * Opens and closes the device alerts of the given devices after ingest wrote their state, in
 * ingest's transaction. A device in ERROR has one open DEVICE_ERROR alert (the unique index
 * makes a second start nothing); it closes when the device reads OK or WARNING again, not while
 * it is unreachable (NOT_AVAILABLE says nothing of the error). A supply is SUPPLY_LOW from under
 * `threshold` until SUPPLY_CLEAR_MARGIN points above it. Times are the readings'.
 */
export async function syncDeviceAlerts(tx: Db, deviceIds: number[], threshold: number) {
  if (!deviceIds.length) return;
  // Its start is told by the status event of the same reading when there is one (the dispatcher's
  // event pass); a device first seen in error, or whose status was unknown, has none: the alert tells it.
  await tx.execute(sql`
    INSERT INTO alerts (kind, device_id, started_at, start_mailed, last_notified_at)
    SELECT 'DEVICE_ERROR', d.id, d.refreshed_at, e.told, CASE WHEN e.told THEN now() END
    FROM devices d CROSS JOIN LATERAL (SELECT EXISTS (SELECT 1 FROM device_events e WHERE e.device_id = d.id AND e.event_at = d.refreshed_at
      AND e.type IN ('STATUS_CHANGE', 'BACK_ONLINE')) AS told) e WHERE d.id IN (${ids(deviceIds)}) AND d.status_code = 'ERROR'
    ON CONFLICT DO NOTHING`);
  await tx.execute(sql`
    UPDATE alerts a SET resolved_at = greatest(d.refreshed_at, a.started_at) FROM devices d
    WHERE a.kind = 'DEVICE_ERROR' AND a.resolved_at IS NULL AND d.id = a.device_id AND d.id IN (${ids(deviceIds)}) AND d.status_code IN ('OK', 'WARNING')`);
  // Read again: a device not available is back (issue 54); its alert's end is its "back online" mail.
  await tx.execute(sql`
    UPDATE alerts a SET resolved_at = greatest(d.refreshed_at, a.started_at) FROM devices d
    WHERE a.kind = 'DEVICE_OFFLINE' AND a.resolved_at IS NULL AND d.id = a.device_id AND d.id IN (${ids(deviceIds)}) AND NOT d.not_available_flag`);
  // A supply's mails are each MIN_CONSUMABLE_LEVEL notification's, at its own threshold: the alert is born
  // told, now (its repeat, ALERT_REPEAT_HOURS, counts from here, not from a late reading's time).
  await tx.execute(sql`
    INSERT INTO alerts (kind, device_id, supply_index, started_at, start_mailed, resolve_mailed, last_notified_at)
    SELECT 'SUPPLY_LOW', c.device_id, c.supply_index, c.refreshed_at, true, true, now() FROM consumables c
    WHERE c.device_id IN (${ids(deviceIds)}) AND ${supplyLow(threshold)}
    ON CONFLICT DO NOTHING`);
  await tx.execute(sql`
    UPDATE alerts a SET resolved_at = greatest(a.started_at, coalesce(
      (SELECT c.refreshed_at FROM consumables c WHERE c.device_id = a.device_id AND c.supply_index = a.supply_index), now()))
    WHERE a.kind = 'SUPPLY_LOW' AND a.resolved_at IS NULL AND a.device_id IN (${ids(deviceIds)})
      AND NOT EXISTS (SELECT 1 FROM consumables c WHERE c.device_id = a.device_id AND c.supply_index = a.supply_index AND ${supplyLow(threshold + SUPPLY_CLEAR_MARGIN)})`);
}

/**
 * DEVICE_OFFLINE (issue 54): the devices that just became not available (OFFLINE_MISSED_POLLS
 * missed polls) have one open alert each, from when they were last read. Its start is told by
 * the NOT_AVAILABLE event of the same moment, so it is born told; a second opening (a run
 * finished again after a restart) is nothing, by the unique index of open ones.
 */
export async function openOfflineAlerts(tx: Db, deviceIds: number[]) {
  if (!deviceIds.length) return;
  await tx.execute(sql`
    INSERT INTO alerts (kind, device_id, started_at, start_mailed, last_notified_at)
    SELECT 'DEVICE_OFFLINE', d.id, coalesce(d.refreshed_at, now()), true, now() FROM devices d WHERE d.id IN (${ids(deviceIds)})
    ON CONFLICT DO NOTHING`);
}

/**
 * AGENT_SILENT: an agent heard from before but not for AGENT_SILENT_MINUTES (home's "silent")
 * has one open alert, closed by its next contact. Returns how many opened or closed.
 */
export async function syncAgentAlerts(tx: Db, now: Date): Promise<number> {
  const before = new Date(now.getTime() - AGENT_SILENT_MINUTES * 60_000).toISOString();
  const opened = await tx.execute(sql`
    INSERT INTO alerts (kind, agent_id, started_at)
    SELECT 'AGENT_SILENT', g.id, g.last_contact_at FROM agents g WHERE g.last_contact_at < ${before}::timestamptz
    ON CONFLICT DO NOTHING RETURNING id`);
  const closed = await tx.execute(sql`
    UPDATE alerts a SET resolved_at = greatest(g.last_contact_at, a.started_at) FROM agents g
    WHERE a.kind = 'AGENT_SILENT' AND a.resolved_at IS NULL AND g.id = a.agent_id AND g.last_contact_at >= ${before}::timestamptz RETURNING a.id`);
  return opened.rows.length + closed.rows.length;
}

/** An alert's location: its device's or its agent's, as they are now (a device moved takes its alerts along). */
const ALERT_LOCATION = sql`coalesce(d.location_id, g.location_id)`;

type AlertRow = {
  id: unknown; kind: AlertKind; deviceId: number | null; modelCode: string | null; serialNumber: string | null; ip: string | null;
  supplyIndex: number | null; partName: string | null; level: unknown; agentId: number | null; agentName: string | null;
  locationName: string; startedAt: unknown; resolvedAt: unknown; acknowledgedBy: string | null; acknowledgedAt: unknown;
};

/** The alerts in the caller's locations (one of them: `id`): the open ones, the oldest first, or all, the newest first. */
export async function listAlerts(db: Db, caller: Scoped, open: boolean, limit: number, id?: number): Promise<Alert[]> {
  const scope = scopeCondition(caller, ALERT_LOCATION);
  const rows = await sqlRows<AlertRow>(db, sql`
    SELECT a.id, a.kind, d.id AS "deviceId", d.model_code AS "modelCode", d.serial_number AS "serialNumber", d.ip,
      a.supply_index AS "supplyIndex", coalesce(nullif(c.part_name, ''), c.colorant, c.part_code) AS "partName", c.level,
      g.id AS "agentId", g.name AS "agentName", loc.name AS "locationName", a.started_at AS "startedAt", a.resolved_at AS "resolvedAt",
      u.login AS "acknowledgedBy", a.acknowledged_at AS "acknowledgedAt"
    FROM alerts a
    LEFT JOIN devices d ON d.id = a.device_id
    LEFT JOIN agents g ON g.id = a.agent_id
    LEFT JOIN consumables c ON c.device_id = a.device_id AND c.supply_index = a.supply_index
    LEFT JOIN users u ON u.id = a.acknowledged_by
    JOIN locations loc ON loc.id = ${ALERT_LOCATION}
    WHERE ${open ? sql`a.resolved_at IS NULL` : sql`true`} ${scope ? sql`AND ${scope}` : sql``} ${id !== undefined ? sql`AND a.id = ${id}` : sql``}
    ORDER BY ${open ? sql`a.started_at, a.id` : sql`a.started_at DESC, a.id DESC`} LIMIT ${limit}`);
  return rows.map((r) => ({
    id: Number(r.id),
    kind: r.kind,
    device: r.deviceId != null ? { id: Number(r.deviceId), modelCode: r.modelCode, serialNumber: r.serialNumber, ip: r.ip ?? '' } : null,
    supply: r.supplyIndex != null ? { index: Number(r.supplyIndex), name: r.partName, level: r.level == null ? null : Number(r.level) } : null,
    agent: r.agentId != null ? { id: Number(r.agentId), name: r.agentName ?? '' } : null,
    locationName: r.locationName,
    startedAt: iso(r.startedAt)!,
    resolvedAt: iso(r.resolvedAt),
    acknowledgedBy: r.acknowledgedBy,
    acknowledgedAt: iso(r.acknowledgedAt),
  }));
}

/** Marks an open alert acknowledged by a user; a second acknowledgement keeps the first. */
export async function acknowledge(db: Db, id: number, userId: number, at: Date) {
  await db.execute(sql`UPDATE alerts SET acknowledged_by = ${userId}, acknowledged_at = ${at.toISOString()}::timestamptz
    WHERE id = ${id} AND acknowledged_at IS NULL AND resolved_at IS NULL`);
}
