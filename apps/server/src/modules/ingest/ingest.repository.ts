import { getTableColumns, inArray, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client.ts';
import { eventLogs } from '../../db/schema.ts';
import {
  deviceEvents,
  deviceIpHistory,
  devices,
  deviceSupplies,
  deviceWalks,
  dmDevicePartDays,
  dmDeviceDays,
  ingestedReadings,
} from '../devices/devices.schema.ts';
import type { DeviceState, SupplyState } from './derive.ts';

/** PostgreSQL takes at most 65,535 parameters per statement; stay well below. */
const MAX_PARAMS = 30_000;

function chunks<T>(rows: T[], columns: number): T[][] {
  const size = Math.max(1, Math.floor(MAX_PARAMS / Math.max(1, columns)));
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

/** `SET col = excluded.col` for every column but the keys and those kept. */
function excludedSet(table: PgTable, keep: string[]): Record<string, SQL> {
  const set: Record<string, SQL> = {};
  for (const [key, col] of Object.entries(getTableColumns(table)) as [string, PgColumn][]) {
    if (!keep.includes(key)) set[key] = sql.raw(`excluded."${col.name}"`);
  }
  return set;
}

const DEVICE_SET = excludedSet(devices, ['id', 'createdAt', 'inventoryNumber', 'comment', 'managedFlag', 'locationId', 'matReplacementRequiredFlag', 'walkRefreshedAt']);
const SUPPLY_SET = excludedSet(deviceSupplies, ['deviceId', 'supplyIndex']);

/** Takes the reading ids not stored yet; a concurrent copy of the batch waits here, then finds them taken. */
export async function claimReadings(tx: Db, ids: string[], agentId: number): Promise<Set<string>> {
  const fresh = new Set<string>();
  for (const part of chunks(ids, 2)) {
    const rows = await tx
      .insert(ingestedReadings)
      .values(part.map((readingId) => ({ readingId, agentId })))
      .onConflictDoNothing()
      .returning({ id: ingestedReadings.readingId });
    for (const r of rows) fresh.add(r.id);
  }
  return fresh;
}

const list = (values: (string | number)[]) => sql.join(values.map((v) => sql`${v}`), sql`, `);

/** Devices a batch may match: by serial or MAC anywhere, by IP among this agent's devices. */
export async function candidateDevices(tx: Db, agentId: number, serials: string[], macs: string[], ips: string[]): Promise<DeviceState[]> {
  const conds: SQL[] = [];
  if (serials.length) conds.push(sql`lower(${devices.serialNumber}) IN (${list(serials)})`);
  if (macs.length) conds.push(sql`${devices.macAddress} IN (${list(macs)})`);
  if (ips.length) conds.push(sql`(${devices.ip} IN (${list(ips)}) AND ${devices.agentId} = ${agentId})`);
  if (!conds.length) return [];
  // FOR UPDATE: two batches about the same device are applied one after the other.
  return tx.select().from(devices).where(sql.join(conds, sql` OR `)).for('update');
}

export async function suppliesOf(tx: Db, deviceIds: number[]): Promise<SupplyState[]> {
  if (!deviceIds.length) return [];
  return tx.select().from(deviceSupplies).where(inArray(deviceSupplies.deviceId, deviceIds));
}

export async function insertDevice(tx: Db, d: DeviceState): Promise<number> {
  const { id: _id, ...rest } = d;
  const [row] = await tx.insert(devices).values(rest).returning({ id: devices.id });
  return row.id;
}

export async function upsertDevices(tx: Db, rows: DeviceState[]) {
  for (const part of chunks(rows, 60)) {
    await tx.insert(devices).values(part).onConflictDoUpdate({ target: devices.id, set: DEVICE_SET });
  }
}

export async function upsertSupplies(tx: Db, rows: SupplyState[]) {
  for (const part of chunks(rows, 16)) {
    await tx.insert(deviceSupplies).values(part).onConflictDoUpdate({ target: [deviceSupplies.deviceId, deviceSupplies.supplyIndex], set: SUPPLY_SET });
  }
}

export type DayRow = typeof dmDeviceDays.$inferInsert;
export type PartDayRow = typeof dmDevicePartDays.$inferInsert;

/** A later reading of the same day replaces the counters; the day's first total stays. */
export async function upsertDays(tx: Db, rows: DayRow[]) {
  const pick = (col: string) => sql.raw(`CASE WHEN excluded.updated_at >= dm_device_days.updated_at THEN excluded.${col} ELSE dm_device_days.${col} END`);
  for (const part of chunks(rows, 17)) {
    await tx.insert(dmDeviceDays).values(part).onConflictDoUpdate({
      target: [dmDeviceDays.factDate, dmDeviceDays.deviceId],
      set: {
        totalCount: pick('total_count'),
        monoCount: pick('mono_count'),
        colorCount: pick('color_count'),
        a3Count: pick('a3_count'),
        a4Count: pick('a4_count'),
        copyCount: pick('copy_count'),
        scanCount: pick('scan_count'),
        faxCount: pick('fax_count'),
        duplexCount: pick('duplex_count'),
        statusCode: pick('status_code'),
        locationId: sql.raw('excluded.location_id'),
        totalStart: sql.raw('LEAST(dm_device_days.total_start, excluded.total_start)'),
        readings: sql.raw('dm_device_days.readings + excluded.readings'),
        counterBackwards: sql.raw('dm_device_days.counter_backwards OR excluded.counter_backwards'),
        updatedAt: sql.raw('GREATEST(dm_device_days.updated_at, excluded.updated_at)'),
      },
    });
  }
}

export async function upsertPartDays(tx: Db, rows: PartDayRow[]) {
  for (const part of chunks(rows, 12)) {
    await tx.insert(dmDevicePartDays).values(part).onConflictDoUpdate({
      target: [dmDevicePartDays.factDate, dmDevicePartDays.deviceId, dmDevicePartDays.supplyIndex],
      set: {
        partCode: sql.raw('excluded.part_code'),
        colorant: sql.raw('excluded.colorant'),
        partModelCode: sql.raw('excluded.part_model_code'),
        partSerialNumber: sql.raw('excluded.part_serial_number'),
        level: sql.raw('excluded.level'),
        levelState: sql.raw('excluded.level_state'),
        percent: sql.raw('excluded.percent'),
        minPercent: sql.raw('LEAST(dm_device_part_days.min_percent, excluded.min_percent)'),
        replaced: sql.raw('dm_device_part_days.replaced OR excluded.replaced'),
      },
    });
  }
}

export async function insertIpHistory(tx: Db, rows: (typeof deviceIpHistory.$inferInsert)[]) {
  for (const part of chunks(rows, 4)) await tx.insert(deviceIpHistory).values(part);
}

export async function upsertWalks(tx: Db, rows: (typeof deviceWalks.$inferInsert)[]) {
  for (const row of rows) {
    await tx.insert(deviceWalks).values(row).onConflictDoUpdate({ target: deviceWalks.deviceId, set: excludedSet(deviceWalks, ['deviceId']) });
    await tx.update(devices).set({ walkRefreshedAt: row.walkedAt }).where(sql`${devices.id} = ${row.deviceId}`);
  }
}

export async function linkReadings(tx: Db, pairs: [string, number][]) {
  for (const part of chunks(pairs, 2)) {
    const values = sql.join(part.map(([r, d]) => sql`(${r}::uuid, ${d}::int)`), sql`, `);
    await tx.execute(sql`UPDATE ingested_readings SET device_id = v.d FROM (VALUES ${values}) AS v(r, d) WHERE reading_id = v.r`);
  }
}

export type EventRow = Omit<typeof deviceEvents.$inferInsert, 'logId'> & { message: string; level: 'I' | 'W' | 'E' };

/** Writes the events to the event log (group DEVICES) and to device_events, in bulk. */
export async function insertEvents(tx: Db, groupId: number, rows: EventRow[]): Promise<(typeof deviceEvents.$inferSelect)[]> {
  const out: (typeof deviceEvents.$inferSelect)[] = [];
  for (const part of chunks(rows, 14)) {
    const logs = await tx
      .insert(eventLogs)
      .values(part.map((e) => ({
        eventGroupId: groupId,
        logLevel: e.level,
        message: e.message.slice(0, 10_000),
        messageCode: `device.${e.type}`,
        locationId: e.locationId,
        objectClass: 'DeviceDao',
        objectId: e.deviceId,
        logDatetime: e.eventAt,
      })))
      .returning({ id: eventLogs.id });
    const inserted = await tx
      .insert(deviceEvents)
      .values(part.map(({ message: _m, level: _l, ...e }, i) => ({ ...e, logId: logs[i].id })))
      .returning();
    out.push(...inserted);
  }
  return out;
}
