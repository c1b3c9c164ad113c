import { DomainService, type EventLog, part } from '../event-logs/index.ts';
import type { Device, DeviceUpdate } from '@pagewatch/contracts/devices';
import type { ListQuery } from '@pagewatch/contracts/list';
import { AppError, notFound } from '../../lib/app-error.ts';
import type { ListDef } from '../../lib/list-query.ts';
import { runListJson } from '../../lib/list-run.ts';
import { zip } from '../../lib/zip.ts';
import type { Scoped } from '../../db/scope.ts';
import { assertInScope, type Caller } from '../../lib/caller.ts';
import * as repo from './devices.repository.ts';
import { descendantIds } from '../locations/index.ts';
import {
  cardCounters,
  countsBy,
  dayCounters,
  deviceListRow,
  deviceRow,
  iso,
  moveDevice,
  setManaged,
  statistics,
  suppliesOfDevice,
  walksOf,
} from './devices.repository.ts';
import { walkFile, walkFileName } from './walk-file.ts';
import './devices.messages.ts';
import { DEVICE_METER_FLAGS } from '@pagewatch/contracts/meter-flags';
import { deviceMeterFlags } from './meter-flags.repository.ts';
import { addressFlaps, dismissPair, identityPairs, pairsSeenBy } from './device-identity.repository.ts';
import type { Db } from '../../db/client.ts';
import type { Hub } from '../../plugins/realtime.ts';

export type WalkZip = { fileName: string; data: Buffer; count: number };

/** The devices domain's verbs: lists, the card, maintenance, walks and statistics, all scoped to the caller. */
export class DevicesService extends DomainService {
  private readonly hub: Hub;

  constructor(db: Db, log: EventLog, hub: Hub) {
    super(db, log);
    this.hub = hub;
  }

  /** A page of one of the domain's lists (devices.list.ts) as JSON text: `{ pageRows, totalRows }`. */
  async list(caller: Caller, def: ListDef, q: ListQuery): Promise<string> {
    return runListJson(this.db, def, q, caller);
  }

  private own(caller: Caller, id: number) {
    return deviceInScope(this.db, caller, id);
  }

  async get(caller: Caller, id: number): Promise<Device> {
    const { d, agentName, walkRequestedAt } = await this.own(caller, id);
    const [row, supplies, days, pairs, flaps, meterFlags, counters] = await Promise.all([
      deviceListRow(this.db, caller, id),
      suppliesOfDevice(this.db, id),
      dayCounters(this.db, id),
      identityPairs(this.db, id),
      addressFlaps(this.db, id),
      deviceMeterFlags(this.db, id, DEVICE_METER_FLAGS),
      cardCounters(this.db, id),
    ]);
    const identity = pairsSeenBy(pairs, (locationId) => caller.scope.has(locationId));
    // The card's own fields, beyond the list's row.
    return {
      ...row,
      port: d.port,
      printerStatus: d.printerStatus,
      scannerStatus: d.scannerStatus,
      snmpStatusCode: d.snmpStatusCode,
      errorBits: d.errorBits,
      sysObjectId: d.sysObjectId,
      sysDescr: d.sysDescr,
      walkRefreshedAt: iso(d.walkRefreshedAt),
      walkRequestedAt: iso(walkRequestedAt),
      comment: d.comment,
      totalUnit: d.totalUnit,
      ...counters,
      powerOnCount: d.powerOnCount,
      counterSources: d.counterSources,
      markerTotalCount: d.markerTotalCount,
      vendorTotalCount: d.vendorTotalCount,
      splitMismatch: d.splitMismatch,
      meterFlags,
      identity,
      sharedSerialAddresses: flaps[0]?.addresses ?? [],
      agentId: d.agentId,
      agentName: agentName ?? null,
      dayCounters: days,
      supplies,
    };
  }

  async update(caller: Caller, id: number, patch: DeviceUpdate): Promise<Device> {
    const { d } = await this.own(caller, id);
    const set: Parameters<typeof repo.updateDevice>[2] = {};
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
        if (Object.keys(rest).length) await repo.updateDevice(tx, id, rest);
        if (to !== undefined) await moveDevice(tx, id, d.locationId, to);
        await this.log.write({
          group: 'DEVICES', level: 'I', messageCode: 'device.changed', userId: caller.userId, objectClass: 'DeviceDao', objectId: id,
          locationId: set.locationId ?? d.locationId,
          params: { device: d.serialNumber ?? d.ip, fields: Object.keys(set).join(', ') },
        }, tx);
      });
      this.published(id, set.locationId ?? d.locationId, 'EDITED');
    }
    return this.get(caller, id);
  }

  async remove(caller: Caller, id: number) {
    const { d } = await this.own(caller, id);
    await this.db.transaction(async (tx) => {
      await repo.deleteDevice(tx, id);
      await this.log.write({
        group: 'DEVICES', level: 'W', messageCode: 'device.deleted', userId: caller.userId, objectClass: 'DeviceDao', objectId: id,
        locationId: d.locationId, params: { device: `${d.modelCode ?? ''} ${d.serialNumber ?? d.ip}`.trim() },
      }, tx);
    });
    this.published(id, d.locationId, 'DELETED');
  }

  /** Two devices of an identity pair are two after all: the pair is no longer offered for merging. */
  async notSame(caller: Caller, id: number, otherId: number): Promise<void> {
    if (id === otherId) throw new AppError('VALIDATION', { fields: [{ field: 'otherId', key: 'devices.mergeSelf' }] });
    const { d } = await this.own(caller, id);
    const { d: other } = await this.own(caller, otherId);
    const name = (x: typeof d) => `${x.modelCode ?? ''} ${x.serialNumber ?? x.ip}`.trim();
    await this.db.transaction(async (tx) => {
      await dismissPair(tx, otherId, id, caller.userId);
      await this.log.write({
        group: 'DEVICES', level: 'I', messageCode: 'device.notSame', userId: caller.userId, objectClass: 'DeviceDao', objectId: id,
        locationId: d.locationId, params: { device: name(d), other: name(other) },
      }, tx);
    });
    this.published(id, d.locationId, 'EDITED');
  }

  /** Every instance's home and every console's open screens hear of a change to a device, as of a device event. */
  private published(deviceId: number, locationId: number, event: 'EDITED' | 'DELETED' | 'MERGED') {
    this.hub.publish('devices', { type: 'DEVICE_EVENT', deviceId, locationId, event });
  }

  /**
   * Merges device `fromId` into `id` (identity reconciliation), keeping both histories. Both must
   * be the caller's; the caller then sees the merged device where `id` is.
   */
  async merge(caller: Caller, id: number, fromId: number): Promise<number> {
    if (id === fromId) throw new AppError('VALIDATION', { fields: [{ field: 'fromId', key: 'devices.mergeSelf' }] });
    const { d: into } = await this.own(caller, id);
    const { d: from } = await this.own(caller, fromId);
    const name = (d: typeof into) => `${d.modelCode ?? ''} ${d.serialNumber ?? d.ip}`.trim();
    const days = await this.db.transaction(async (tx) => {
      const moved = await repo.mergeDevices(tx, id, fromId);
      await this.log.write({
        group: 'DEVICES', level: 'I', messageCode: 'device.merged', userId: caller.userId, objectClass: 'DeviceDao', objectId: id,
        locationId: into.locationId, params: { from: name(from), into: name(into), days: moved },
      }, tx);
      return moved;
    });
    this.published(id, into.locationId, 'MERGED');
    return days;
  }

  /**
   * Maintenance on or off for the given devices. Every id must be a device the caller sees
   * (one outside is a 403, an unknown one a 404); returns how many changed.
   */
  async changeActivity(caller: Caller, ids: number[], managedFlag: boolean): Promise<number> {
    const unique = [...new Set(ids)];
    const rows = await repo.locationsOfDevices(this.db, unique);
    if (rows.length < unique.length) throw notFound();
    for (const r of rows) assertInScope(caller, r.locationId);
    const changed = await setManaged(this.db, unique, managedFlag, caller);
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
    await repo.requestWalk(this.db, { deviceId: id, agentId: d.agentId, requestedAt, requestedBy: caller.userId });
    await this.log.write({
      group: 'DEVICES', level: 'I', messageCode: 'device.walkRequested', userId: caller.userId, objectClass: 'DeviceDao', objectId: id,
      locationId: d.locationId, params: { device: d.serialNumber ?? d.ip },
    });
    return requestedAt;
  }

  /** Devices an agent should walk in full on its next run: asked for and not walked since. */
  pendingWalks(agentId: number): Promise<{ deviceId: number; ip: string; port: number }[]> {
    return repo.pendingWalks(this.db, agentId);
  }

  /** The stored walks of devices no profile knew, one `.walk` file each, zipped. */
  async walksZip(caller: Caller, ids: number[] | null): Promise<WalkZip> {
    const rows = await walksOf(this.db, caller, ids);
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
    return statistics(this.db, caller);
  }

  /** A location and everything below it that the caller sees, summed. */
  async locationStatistics(caller: Caller, locationId: number) {
    assertInScope(caller, locationId);
    const below: Scoped = { scope: new Set((await descendantIds(this.db, [locationId])).filter((id) => caller.scope.has(id))), allLocations: false };
    const rows = await statistics(this.db, below);
    const self = rows.find((r) => r.locationId === locationId);
    if (!self) throw notFound();
    const sum = (k: keyof typeof self) => rows.reduce((n, r) => n + Number(r[k]), 0);
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
      byStatus: await countsBy(this.db, 'status_code', below),
      byType: await countsBy(this.db, 'device_type', below),
    };
  }
}

/** A device of the caller's locations, or 404; 403 when it lies outside them (every device read and write). */
export async function deviceInScope(db: Db, caller: Caller, id: number) {
  const row = await deviceRow(db, id);
  if (!row) throw notFound();
  assertInScope(caller, row.d.locationId);
  return row;
}
