import { part } from '../event-logs/event-logs.messages.ts';
import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { Device, DeviceUpdate } from '@pagewatch/contracts/devices';
import type { ListQuery } from '@pagewatch/contracts/list';
import { AppError, notFound } from '../../lib/app-error.ts';
import type { ListDef } from '../../lib/list-query.ts';
import { runListJson } from '../../lib/list-run.ts';
import { zip } from '../../lib/zip.ts';
import { assertInScope, type Caller } from '../auth/caller.ts';
import { devices } from './devices.tables.ts';
import { deviceWalkRequests } from './device-activity.tables.ts';
import {
  countsBy,
  dayCounters,
  deviceRow,
  iso,
  moveDevice,
  setManaged,
  statistics,
  suppliesOfDevice,
  walksOf,
} from './devices.repository.ts';
import { walkFile, walkFileName } from './walk-file.ts';
import { locationIn, scopeCondition } from '../../db/scope.ts';
import './devices.messages.ts';
import { DomainService } from '../event-logs/domain-service.ts';

export type WalkZip = { fileName: string; data: Buffer; count: number };

/** The devices domain's verbs: lists, the card, maintenance, walks and statistics, all scoped to the caller. */
export class DevicesService extends DomainService {
  /** A page of one of the domain's lists (devices.list.ts) as JSON text: `{ pageRows, totalRows }`. */
  async list(caller: Caller, def: ListDef, q: ListQuery): Promise<string> {
    const column = def.scope!;
    // A caller who sees every location needs no scope condition (and the counts get cheaper).
    const scoped = !caller.allLocations;
    const ids = scoped ? [...caller.scope].sort((a, b) => a - b) : [];
    return runListJson(this.db, def, q, scopeCondition(caller, column), { split: scoped ? { column, ids } : undefined, scopeKey: ids.join(',') });
  }

  private visible(caller: Caller) {
    return scopeCondition(caller, devices.locationId);
  }

  /** The device, or 404; 403 when it is outside the caller's locations. */
  private async own(caller: Caller, id: number) {
    const row = await deviceRow(this.db, id);
    if (!row) throw notFound();
    assertInScope(caller, row.d.locationId);
    return row;
  }

  async get(caller: Caller, id: number): Promise<Device> {
    const { d, locationName, agentName, walkRequestedAt } = await this.own(caller, id);
    const [supplies, days] = await Promise.all([suppliesOfDevice(this.db, id), dayCounters(this.db, id)]);
    return {
      id: d.id,
      modelCode: d.modelCode,
      serialNumber: d.serialNumber,
      inventoryNumber: d.inventoryNumber,
      snmpLocation: d.snmpLocation,
      hostName: d.hostName,
      locationId: d.locationId,
      locationName: locationName ?? '',
      ip: d.ip,
      port: d.port,
      macAddress: d.macAddress,
      firmware: d.firmware,
      deviceType: d.deviceType,
      colorType: d.colorType,
      paperFormat: d.paperFormat,
      statusCode: d.statusCode,
      printerStatus: d.printerStatus,
      scannerStatus: d.scannerStatus,
      snmpStatusCode: d.snmpStatusCode,
      errorBits: d.errorBits,
      sysObjectId: d.sysObjectId,
      sysDescr: d.sysDescr,
      createdAt: iso(d.createdAt)!,
      refreshedAt: iso(d.refreshedAt)!,
      walkRefreshedAt: iso(d.walkRefreshedAt),
      walkRequestedAt: iso(walkRequestedAt),
      hasWalk: d.walkRefreshedAt !== null,
      managedFlag: d.managedFlag,
      comment: d.comment,
      totalCount: d.totalCount,
      totalUnit: d.totalUnit,
      monoCount: d.monoCount,
      colorCount: d.colorCount,
      a3Count: d.a3Count,
      a4Count: d.a4Count,
      copyCount: d.copyCount,
      scanCount: d.scanCount,
      faxCount: d.faxCount,
      duplexCount: d.duplexCount,
      powerOnCount: d.powerOnCount,
      tonerBlack: d.tonerBlack,
      tonerCyan: d.tonerCyan,
      tonerMagenta: d.tonerMagenta,
      tonerYellow: d.tonerYellow,
      newDevice30Flag: d.newDevice30Flag,
      notAvailableFlag: d.notAvailableFlag,
      matReplacementRequiredFlag: d.matReplacementRequiredFlag,
      needAttentionFlag: d.needAttentionFlag,
      modelVendorCode: d.modelVendorCode,
      agentId: d.agentId,
      agentName: agentName ?? null,
      dayCounters: days,
      supplies,
    };
  }

  async update(caller: Caller, id: number, patch: DeviceUpdate): Promise<Device> {
    const { d } = await this.own(caller, id);
    const set: Partial<typeof devices.$inferInsert> = {};
    if (patch.inventoryNumber !== undefined) set.inventoryNumber = patch.inventoryNumber || null;
    if (patch.comment !== undefined) set.comment = patch.comment || null;
    if (patch.managedFlag !== undefined) set.managedFlag = patch.managedFlag;
    if (patch.location !== undefined && patch.location.id !== d.locationId) {
      if (!caller.scope.has(patch.location.id)) {
        throw new AppError('VALIDATION', { fields: [{ field: 'location', key: 'devices.locationOutOfScope' }] });
      }
      set.locationId = patch.location.id;
    }
    if (Object.keys(set).length) {
      await this.db.transaction(async (tx) => {
        const { locationId: to, ...rest } = set;
        if (Object.keys(rest).length) await tx.update(devices).set(rest).where(eq(devices.id, id));
        if (to !== undefined) await moveDevice(tx, id, d.locationId, to);
        await this.log.write({
          group: 'DEVICES', level: 'I', messageCode: 'device.changed', userId: caller.userId, objectClass: 'DeviceDao', objectId: id,
          locationId: set.locationId ?? d.locationId,
          params: { device: d.serialNumber ?? d.ip, fields: Object.keys(set).join(', ') },
        }, tx);
      });
    }
    return this.get(caller, id);
  }

  async remove(caller: Caller, id: number) {
    const { d } = await this.own(caller, id);
    await this.db.transaction(async (tx) => {
      await tx.delete(devices).where(eq(devices.id, id));
      await this.log.write({
        group: 'DEVICES', level: 'W', messageCode: 'device.deleted', userId: caller.userId, objectClass: 'DeviceDao', objectId: id,
        locationId: d.locationId, params: { device: `${d.modelCode ?? ''} ${d.serialNumber ?? d.ip}`.trim() },
      }, tx);
    });
  }

  /**
   * Maintenance on or off for the given devices. Every id must be a device the caller sees
   * (one outside is a 403, an unknown one a 404); returns how many changed.
   */
  async changeActivity(caller: Caller, ids: number[], managedFlag: boolean): Promise<number> {
    const unique = [...new Set(ids)];
    const rows = await this.db.select({ id: devices.id, locationId: devices.locationId }).from(devices).where(sql`${devices.id} IN (${sql.join(unique.map((i) => sql`${i}`), sql`, `)})`);
    if (rows.length < unique.length) throw notFound();
    for (const r of rows) assertInScope(caller, r.locationId);
    const changed = await setManaged(this.db, unique, managedFlag, this.visible(caller));
    if (changed.length) await this.logActivity(caller, changed.length, managedFlag, 'device.activity');
    return changed.length;
  }

  async logActivity(caller: Caller, count: number, managedFlag: boolean, messageCode: string) {
    await this.log.write({
      group: 'DEVICES', level: 'I', messageCode, userId: caller.userId,
      params: { state: part(managedFlag ? 'enabled' : 'disabled'), count },
    });
  }

  /** Asks the device's agent for a fresh full walk on its next contact. */
  async requestWalk(caller: Caller, id: number): Promise<Date> {
    const { d } = await this.own(caller, id);
    const requestedAt = new Date();
    await this.db
      .insert(deviceWalkRequests)
      .values({ deviceId: id, agentId: d.agentId, requestedAt, requestedBy: caller.userId })
      .onConflictDoUpdate({ target: deviceWalkRequests.deviceId, set: { agentId: d.agentId, requestedAt, requestedBy: caller.userId } });
    await this.log.write({
      group: 'DEVICES', level: 'I', messageCode: 'device.walkRequested', userId: caller.userId, objectClass: 'DeviceDao', objectId: id,
      locationId: d.locationId, params: { device: d.serialNumber ?? d.ip },
    });
    return requestedAt;
  }

  /** Devices an agent should walk in full on its next run: asked for and not walked since. */
  async pendingWalks(agentId: number): Promise<{ deviceId: number; ip: string; port: number }[]> {
    return this.db
      .select({ deviceId: devices.id, ip: devices.ip, port: devices.port })
      .from(deviceWalkRequests)
      .innerJoin(devices, eq(devices.id, deviceWalkRequests.deviceId))
      .where(and(eq(devices.agentId, agentId), or(isNull(devices.walkRefreshedAt), gt(deviceWalkRequests.requestedAt, devices.walkRefreshedAt))));
  }

  /** The stored walks of devices no profile knew, one `.walk` file each, zipped. */
  async walksZip(caller: Caller, ids: number[] | null): Promise<WalkZip> {
    const rows = await walksOf(this.db, this.visible(caller), ids);
    const names = new Set<string>();
    const entries = rows.map((r) => {
      let name = walkFileName(r);
      while (names.has(name)) name = `_${name}`;
      names.add(name);
      return { name, data: walkFile(r.rows), modified: r.walkedAt };
    });
    const stamp = new Date().toISOString().slice(0, 10);
    return { fileName: `unknown-devices-${stamp}.zip`, data: zip(entries), count: entries.length };
  }

  statistics(caller: Caller) {
    return statistics(this.db, scopeCondition(caller, sql`loc.id`));
  }

  /** A location and everything below it that the caller sees, summed. */
  async locationStatistics(caller: Caller, locationId: number) {
    assertInScope(caller, locationId);
    const below = await this.db.execute(sql`
      WITH RECURSIVE t AS (SELECT id FROM locations WHERE id = ${locationId} UNION ALL SELECT l.id FROM locations l JOIN t ON l.parent_id = t.id)
      SELECT id FROM t`);
    const ids = new Set((below.rows as { id: number }[]).map((r) => Number(r.id)).filter((id) => caller.scope.has(id)));
    const rows = await statistics(this.db, locationIn(ids, sql`loc.id`));
    const self = rows.find((r) => r.locationId === locationId);
    if (!self) throw notFound();
    const sum = (k: keyof typeof self) => rows.reduce((n, r) => n + Number(r[k]), 0);
    const deviceScope = locationIn(ids, sql`d.location_id`);
    return {
      ...self,
      allDeviceCount: sum('allDeviceCount'),
      activeDeviceCount: sum('activeDeviceCount'),
      notAvailableCount: sum('notAvailableCount'),
      attentionCount: sum('attentionCount'),
      replacementCount: sum('replacementCount'),
      newDeviceCount: sum('newDeviceCount'),
      lowSupplyCount: sum('lowSupplyCount'),
      pages30: sum('pages30'),
      byStatus: await countsBy(this.db, 'status_code', deviceScope),
      byType: await countsBy(this.db, 'device_type', deviceScope),
    };
  }

  /** For the service screen: devices in scope by serial number. */
  visibleSql(caller: Caller) {
    return this.visible(caller);
  }
}

