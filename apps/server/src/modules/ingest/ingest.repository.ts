import { and, eq, getTableColumns, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { bulk } from '../../db/bulk.ts';
import { deleteInBatches } from '../../db/batched-delete.ts';
import type { Db, Tx } from '../../db/client.ts';
import { insertLogs } from '../event-logs/index.ts';
import {
  deviceEvents,
  deviceIpHistory,
  devices,
  deviceWalks,
  dmDevicePartDays,
  dmDeviceDays,
  ingestedReadings,
} from '../../db/schema/devices.ts';
import { meterFlags } from '../../db/schema/meter-flags.ts';
import { consumables } from '../../db/schema/consumables.ts';
import { agents } from '../../db/schema/agents.ts';
import { networkRanges } from '../../db/schema/network-ranges.ts';
import { DAY_COUNTER_FIELDS, type DeviceState, type SupplyState } from './derive.ts';

/** Takes the reading ids not stored yet; a concurrent copy of the batch waits here, then finds them taken. */
export async function claimReadings(tx: Tx, ids: string[], agentId: number): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const res = await tx.execute<{ reading_id: string }>(sql`
    INSERT INTO ingested_readings (reading_id, agent_id)
    SELECT r::uuid, ${agentId}::int FROM jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb) AS r
    ON CONFLICT DO NOTHING RETURNING reading_id`);
  return new Set(res.rows.map((r) => r.reading_id));
}

/** Forgets the ids of readings received before `before`. */
export function pruneIngestedReadings(db: Db, before: Date, batchSize: number): Promise<number> {
  return deleteInBatches(db, ingestedReadings, lt(ingestedReadings.receivedAt, before), batchSize);
}

const inJson = (values: string[]) => sql`(SELECT jsonb_array_elements_text(${JSON.stringify(values)}::jsonb))`;
const inInts = (values: number[]) => sql`(SELECT jsonb_array_elements_text(${JSON.stringify(values)}::jsonb)::int)`;

/** Rows of `devices` as the ORM maps them (raw SQL gives column names and text dates). */
function deviceOf(r: Record<string, unknown>): DeviceState {
  const out: Record<string, unknown> = {};
  for (const [key, col] of Object.entries(getTableColumns(devices)) as [string, PgColumn][]) {
    const v = r[col.name];
    out[key] = v === null || v === undefined ? null : col.mapFromDriverValue ? col.mapFromDriverValue(v) : v;
  }
  return out as DeviceState;
}

/**
 * Devices a batch may match: by serial or MAC within the agent's locations, by IP among this
 * agent's devices there. A device of another location is never a candidate (security.md,
 * invariant 4). Callers hold `lockAgentDevices`, so batches of one agent apply one after the
 * other without row locks.
 */
export async function candidateDevices(tx: Db, agentId: number, scope: number[], serials: string[], macs: string[], ips: string[]): Promise<DeviceState[]> {
  const conds: SQL[] = [];
  if (serials.length) conds.push(sql`lower(serial_number) IN ${inJson(serials)}`);
  if (macs.length) conds.push(sql`mac_address IN ${inJson(macs)}`);
  if (ips.length) conds.push(sql`(ip IN ${inJson(ips)} AND agent_id = ${agentId})`);
  if (!conds.length || !scope.length) return [];
  const res = await tx.execute(sql`SELECT * FROM devices WHERE location_id IN ${inInts(scope)} AND (${sql.join(conds, sql` OR `)})`);
  return res.rows.map(deviceOf);
}

/** Which of the (lower-case) serials a device outside the scope has; nothing else about it. */
export async function serialsElsewhere(tx: Db, scope: number[], serials: string[]): Promise<Set<string>> {
  if (!serials.length) return new Set();
  const res = await tx.execute<{ serial: string }>(sql`
    SELECT DISTINCT lower(serial_number) AS serial FROM devices
    WHERE lower(serial_number) IN ${inJson(serials)} AND location_id NOT IN ${inInts(scope)}`);
  return new Set(res.rows.map((r) => r.serial));
}

/** First key of the ingest's advisory locks (the second is the agent id). */
const INGEST_LOCK = 5005;

/** Serialises the writes about one agent's devices (batches, missed polls) until the transaction ends. */
export async function lockAgentDevices(tx: Tx, agentId: number) {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${INGEST_LOCK}::int, ${agentId}::int)`);
}

export async function suppliesOf(tx: Db, deviceIds: number[]): Promise<SupplyState[]> {
  if (!deviceIds.length) return [];
  return tx.select().from(consumables).where(inArray(consumables.deviceId, deviceIds));
}

/** Ids for new devices, taken from the sequence in one call (unused ones leave gaps). */
export async function newDeviceIds(tx: Db, count: number): Promise<number[]> {
  const res = await tx.execute<{ id: number }>(sql`SELECT nextval(pg_get_serial_sequence('devices', 'id'))::int AS id FROM generate_series(1, ${count}::int)`);
  return res.rows.map((r) => Number(r.id));
}

/** Console-owned fields (inventory number, comment, managed, location) are never overwritten by a reading. */
const DEVICE_KEPT = ['id', 'createdAt', 'inventoryNumber', 'comment', 'managedFlag', 'locationId', 'matReplacementRequiredFlag', 'walkRefreshedAt'];

export async function upsertDevices(tx: Db, rows: DeviceState[]) {
  await bulk(tx, devices, rows, { conflict: ['id'], updateAllBut: DEVICE_KEPT });
}

const FORECAST_COLUMNS = ['pagesLeft', 'daysLeft', 'runsOutOn', 'forecastReason', 'forecastAt', 'levelStep'];

export async function upsertSupplies(tx: Db, rows: SupplyState[]) {
  // The device's location and model are the triggers' to fill (migration 0010), the forecast the forecast job's.
  await bulk(tx, consumables, rows, { omit: ['locationId', 'modelCode', ...FORECAST_COLUMNS], conflict: ['deviceId', 'supplyIndex'], updateAllBut: [] });
}

export type DayRow = typeof dmDeviceDays.$inferInsert;
export type PartDayRow = typeof dmDevicePartDays.$inferInsert;

/** A later reading of the same day replaces the counters; the day's first total stays. */
export async function upsertDays(tx: Db, rows: DayRow[]) {
  const pick = (col: string) => `CASE WHEN excluded.updated_at >= dm_device_days.updated_at THEN excluded.${col} ELSE dm_device_days.${col} END`;
  await bulk(tx, dmDeviceDays, rows, {
    conflict: ['factDate', 'deviceId'],
    set: {
      ...Object.fromEntries(DAY_COUNTER_FIELDS.map(([, column]) => [column, pick(dmDeviceDays[column].name)])),
      statusCode: pick('status_code'),
      locationId: 'excluded.location_id',
      totalStart: 'LEAST(dm_device_days.total_start, excluded.total_start)',
      readings: 'dm_device_days.readings + excluded.readings',
      counterBackwards: 'dm_device_days.counter_backwards OR excluded.counter_backwards',
      updatedAt: 'GREATEST(dm_device_days.updated_at, excluded.updated_at)',
    },
  });
}

export async function upsertPartDays(tx: Db, rows: PartDayRow[]) {
  await bulk(tx, dmDevicePartDays, rows, {
    conflict: ['factDate', 'deviceId', 'supplyIndex'],
    set: {
      partCode: 'excluded.part_code',
      colorant: 'excluded.colorant',
      partModelCode: 'excluded.part_model_code',
      partSerialNumber: 'excluded.part_serial_number',
      rawLevel: 'excluded.raw_level',
      levelState: 'excluded.level_state',
      level: 'excluded.level',
      minLevel: 'LEAST(dm_device_part_days.min_level, excluded.min_level)',
      replaced: 'dm_device_part_days.replaced OR excluded.replaced',
    },
  });
}

export async function insertIpHistory(tx: Db, rows: (typeof deviceIpHistory.$inferInsert)[]) {
  await bulk(tx, deviceIpHistory, rows, { omit: ['id'] });
}

/** The batch's implausible meter reads (plausibility.ts), one statement; none costs nothing. */
export async function insertMeterFlags(tx: Db, rows: (typeof meterFlags.$inferInsert)[]) {
  await bulk(tx, meterFlags, rows, { omit: ['id'] });
}

export async function upsertWalks(tx: Db, rows: (typeof deviceWalks.$inferInsert)[]) {
  await bulk(tx, deviceWalks, rows, { conflict: ['deviceId'], updateAllBut: [] });
  for (const row of rows) await tx.execute(sql`UPDATE devices SET walk_refreshed_at = ${row.walkedAt.toISOString()}::timestamptz WHERE id = ${row.deviceId}`);
}

export type EventRow = Omit<typeof deviceEvents.$inferInsert, 'logId'> & { message: string; params: Record<string, unknown>; level: 'I' | 'W' | 'E' };
export type StoredEvent = { id: number; deviceId: number; locationId: number; type: string };

/**
 * Writes the events to the event log (group DEVICES) and to device_events, in bulk; each
 * device_events row gets the id of its own log record (insertLogs returns them in row order).
 */
export async function insertEvents(tx: Db, groupId: number, rows: EventRow[]): Promise<StoredEvent[]> {
  if (!rows.length) return [];
  const logIds = await insertLogs(
    tx,
    rows.map((e) => ({
      eventGroupId: groupId,
      logLevel: e.level,
      message: e.message.slice(0, 10_000),
      messageCode: `device.${e.type}`,
      messageParams: e.params,
      locationId: e.locationId,
      objectClass: 'DeviceDao',
      objectId: e.deviceId,
      logDatetime: e.eventAt,
    })),
  );
  const inserted = await bulk(
    tx,
    deviceEvents,
    rows.map(({ message: _m, params: _p, level: _l, ...e }, i) => ({ ...e, logId: logIds[i], processed: false })),
    { omit: ['id', 'processedAt'], returning: 'id, device_id, location_id, type' },
  );
  return inserted.map((r) => ({ id: Number(r.id), deviceId: Number(r.device_id), locationId: Number(r.location_id), type: String(r.type) }));
}

export type NoteRow = { deviceId: number; locationId: number; at: Date; serial: string; ip: string; message: string };

/**
 * Data-quality notes of the ingest: a warning in the event log (group DEVICES) at the new
 * device's location. Only the serial is named: the other location is not the reader's to know.
 */
export async function insertSerialNotes(tx: Db, groupId: number, rows: NoteRow[]) {
  await insertLogs(
    tx,
    rows.map((n) => ({
      eventGroupId: groupId, logLevel: 'W', message: n.message, messageParams: { serial: n.serial, ip: n.ip },
      messageCode: 'device.serialElsewhere',
      locationId: n.locationId, objectClass: 'DeviceDao', objectId: n.deviceId, logDatetime: n.at,
    })),
  );
}

/** The agent's location and its network ranges' locations: where its readings may land. */
export async function agentPlaces(tx: Db, agentId: number) {
  const [agent] = await tx.select({ locationId: agents.locationId }).from(agents).where(eq(agents.id, agentId));
  const ranges = await tx.select({ id: networkRanges.id, locationId: networkRanges.locationId }).from(networkRanges).where(eq(networkRanges.agentId, agentId));
  return { agent, ranges };
}

/**
 * A missed poll for each available device of the agent's ranges, in `scope`, not read since
 * `before`; returns those devices as they are now.
 */
export function countMissedPoll(tx: Db, m: { agentId: number; rangeIds: number[]; scope: number[]; before: Date }) {
  return tx
    .update(devices)
    .set({ missedPolls: sql`${devices.missedPolls} + 1` })
    .where(and(eq(devices.agentId, m.agentId), inArray(devices.rangeId, m.rangeIds), inArray(devices.locationId, m.scope), lt(devices.refreshedAt, m.before), eq(devices.notAvailableFlag, false)))
    .returning();
}

export async function markNotAvailable(tx: Db, ids: number[]) {
  await tx.update(devices).set({ notAvailableFlag: true, statusCode: 'NOT_AVAILABLE' }).where(inArray(devices.id, ids));
}
