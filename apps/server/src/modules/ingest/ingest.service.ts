import type { AgentReading, BatchResult, ReadingBatchEnvelope } from '@pagewatch/contracts/agent-api';
import { DEFAULT_SUPPLY_THRESHOLD, type DeviceEventType } from '@pagewatch/contracts/device-events';
import { OFFLINE_MISSED_POLLS_DEFAULT } from '@pagewatch/contracts/settings';
import type { Db } from '../../db/client.ts';
import { eventGroupId, renderLog } from '../event-logs/index.ts';
import type { Hub } from '../../plugins/realtime.ts';
import type { Lang } from '../../i18n/messages.ts';
import * as repo from './ingest.repository.ts';
import { descendantIds } from '../locations/index.ts';
import { installReplacedOrders } from '../supply-orders/index.ts';
import {
  applyReading,
  blankDevice,
  dayCounters,
  eventMessage,
  eventParams,
  EVENT_LEVEL,
  normaliseMac,
  type DerivedEvent,
  type DeviceState,
  type SupplyState,
} from './derive.ts';
import {
  candidateDevices,
  claimReadings,
  lockAgentDevices,
  newDeviceIds,
  insertEvents,
  insertIpHistory,
  insertMeterFlags,
  insertSerialNotes,
  serialsElsewhere,
  suppliesOf,
  upsertDays,
  upsertDevices,
  upsertPartDays,
  upsertSupplies,
  upsertWalks,
  type DayRow,
  type EventRow,
  type NoteRow,
  type PartDayRow,
} from './ingest.repository.ts';
import { checkReadings } from './ingest.validate.ts';
import { meterFlagsOf, type MeterFlagRow } from './plausibility.ts';
import { openOfflineAlerts, syncDeviceAlerts } from '../alerts/index.ts';
import { settingValues } from '../settings/index.ts';

type Ctx = {
  tx: Db;
  agentId: number;
  defaultLocationId: number;
  rangeLocations: Map<number, number>;
  state: Map<number, DeviceState>;
  supplies: Map<number, Map<number, SupplyState>>;
  /** Devices by lower-case serial, MAC and IP; entries may be stale, lookups re-check. */
  bySerial: Map<string, Set<DeviceState>>;
  byMac: Map<string, Set<DeviceState>>;
  byIp: Map<string, Set<DeviceState>>;
};

/**
 * The devices a batch's readings may touch, indexed by serial number, MAC and IP, with their
 * supplies: those of the agent's location and the locations below it, plus its ranges'
 * locations (an administrator of both gave it those). `scope` is those locations.
 */
async function deviceContext(tx: Db, agentId: number, readings: AgentReading[]): Promise<{ c: Ctx; scope: number[] }> {
  const { agent, ranges } = await repo.agentPlaces(tx, agentId);
  const serials = [...new Set(readings.map((r) => lowerSerial(r.reading.serialNumber)).filter((s): s is string => !!s))];
  const macs = [...new Set(readings.map((r) => normaliseMac(r.reading.macAddress)).filter((s): s is string => !!s))];
  const ips = [...new Set(readings.map((r) => r.ip))];
  // The agent's location and those below it, plus its ranges' locations (an administrator of
  // both gave it those): the only devices its readings may touch.
  const scope = await descendantIds(tx, [...new Set([agent.locationId, ...ranges.map((r) => r.locationId)])]);
  const found = await candidateDevices(tx, agentId, scope, serials, macs, ips);
  const c: Ctx = {
    tx,
    agentId,
    defaultLocationId: agent.locationId,
    rangeLocations: new Map(ranges.map((r) => [r.id, r.locationId])),
    state: new Map(found.map((d) => [d.id, d])),
    supplies: new Map(),
    bySerial: new Map(),
    byMac: new Map(),
    byIp: new Map(),
  };
  for (const d of found) indexDevice(c, d);
  for (const s of await suppliesOf(tx, found.map((d) => d.id))) {
    if (!c.supplies.has(s.deviceId)) c.supplies.set(s.deviceId, new Map());
    c.supplies.get(s.deviceId)!.set(s.supplyIndex, s);
  }
  return { c, scope };
}

/** A reading into its device's row of the day (counters, readings, status) and its supplies' rows of the day. */
function addDays(days: Map<string, DayRow>, partDays: Map<string, PartDayRow>, reading: AgentReading['reading'], d: DeviceState, at: Date, derived: DerivedEvent[]) {
  const factDate = at.toISOString().slice(0, 10);
  const k = reading.counters;
  const day: DayRow = {
    factDate, deviceId: d.id, locationId: d.locationId,
    ...dayCounters(k), totalStart: k.total, readings: 1, statusCode: d.statusCode,
    counterBackwards: derived.some((e) => e.type === 'COUNTER_BACKWARDS'), updatedAt: at,
  };
  const dayKey = `${factDate}|${d.id}`;
  const prevDay = days.get(dayKey);
  if (prevDay) {
    day.totalStart = prevDay.totalStart ?? day.totalStart;
    day.readings = (prevDay.readings ?? 0) + 1;
    day.counterBackwards = prevDay.counterBackwards || day.counterBackwards;
  }
  days.set(dayKey, day);
  for (const s of reading.supplies) {
    const key = `${factDate}|${d.id}|${s.index}`;
    const prev = partDays.get(key);
    const replaced = derived.some((e) => e.type === 'SUPPLY_REPLACED' && e.supply?.supplyIndex === s.index);
    const mins = [prev?.minLevel, s.percent].filter((p): p is number => typeof p === 'number');
    partDays.set(key, {
      factDate, deviceId: d.id, supplyIndex: s.index, partCode: s.type.slice(0, 50), colorant: s.colorant?.slice(0, 50) ?? null,
      partModelCode: s.partNumber?.slice(0, 100) ?? null, partSerialNumber: s.partSerialNumber?.slice(0, 100) ?? null,
      rawLevel: s.level, levelState: s.levelState, level: s.percent,
      minLevel: mins.length ? Math.min(...mins) : null, replaced: replaced || !!prev?.replaced,
    });
  }
}

const lowerSerial = (s: string | null) => (s ? s.trim().toLowerCase() : null);
const sameVendor = (a: string | null, b: string | null) => !a || !b || a.toLowerCase() === b.toLowerCase();
const compatible = (a: string | null, b: string | null) => !a || !b || a.toLowerCase() === b.toLowerCase();

function addTo(map: Map<string, Set<DeviceState>>, key: string | null, d: DeviceState) {
  if (!key) return;
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(d);
}

function indexDevice(c: Ctx, d: DeviceState) {
  addTo(c.bySerial, lowerSerial(d.serialNumber), d);
  addTo(c.byMac, d.macAddress, d);
  addTo(c.byIp, d.ip, d);
}

/**
 * Serial and vendor, then MAC, then IP (among this agent's devices), never against a known
 * different serial. Every candidate is within the agent's locations (candidateDevices).
 */
function match(c: Ctx, r: AgentReading): DeviceState | null {
  const serial = lowerSerial(r.reading.serialNumber);
  const mac = normaliseMac(r.reading.macAddress);
  const find = (set: Set<DeviceState> | undefined, ok: (x: DeviceState) => boolean) => [...(set ?? [])].find(ok) ?? null;
  if (serial) {
    const d = find(c.bySerial.get(serial), (x) => lowerSerial(x.serialNumber) === serial && sameVendor(x.modelVendorCode, r.reading.vendor));
    if (d) return d;
  }
  if (mac) {
    const d = find(c.byMac.get(mac), (x) => x.macAddress === mac && compatible(x.serialNumber, serial));
    if (d) return d;
  }
  return find(c.byIp.get(r.ip), (x) => x.ip === r.ip && x.agentId === c.agentId && compatible(x.serialNumber, serial) && (!mac || !x.macAddress || x.macAddress === mac));
}

/** New devices whose serial a device outside the agent's locations also has: one note each. */
async function serialNotes(tx: Db, scope: number[], added: DeviceState[]): Promise<NoteRow[]> {
  if (!added.length) return [];
  const elsewhere = await serialsElsewhere(tx, scope, [...new Set(added.map((d) => lowerSerial(d.serialNumber)!))]);
  return added
    .filter((d) => elsewhere.has(lowerSerial(d.serialNumber)!))
    .map((d) => {
      const params = { serial: d.serialNumber!, ip: d.ip };
      return { deviceId: d.id, locationId: d.locationId, at: d.createdAt, ...params, message: renderLog('en', 'device.serialElsewhere', params) };
    });
}

export class IngestService {
  private readonly db: Db;
  private readonly hub: Hub;
  private devicesGroupId: number | null = null;

  /** Told what each batch came to (the metrics), whichever agent sent it. */
  private readonly onIngested: (result: BatchResult) => void;

  constructor(db: Db, hub: Hub, onIngested: (result: BatchResult) => void = () => {}) {
    this.db = db;
    this.hub = hub;
    this.onIngested = onIngested;
  }

  private async groupId(): Promise<number> {
    if (this.devicesGroupId === null) {
      this.devicesGroupId = await eventGroupId(this.db, 'DEVICES');
    }
    return this.devicesGroupId;
  }

  /**
   * Stores a batch's valid readings in one transaction; readings already stored (by id) are
   * skipped, bad ones are named in `rejected` and never stored (the agent does not resend them).
   */
  async ingest(agentId: number, batch: ReadingBatchEnvelope, lang: Lang = 'en'): Promise<BatchResult> {
    const result = await this.store(agentId, batch, lang);
    this.onIngested(result);
    return result;
  }

  private async store(agentId: number, batch: ReadingBatchEnvelope, lang: Lang): Promise<BatchResult> {
    const { valid, rejected, repaired } = checkReadings(batch.readings, lang);
    const said = (result: BatchResult): BatchResult => (repaired.length ? { ...result, repaired } : result);
    if (!valid.length) return said({ stored: 0, duplicates: 0, rejected });
    const groupId = await this.groupId();
    const unique = [...new Map(valid.map((r) => [r.id, r])).values()];
    const published: { deviceId: number; locationId: number; type: DeviceEventType }[] = [];
    const result = await this.db.transaction(async (tx) => {
      await lockAgentDevices(tx, agentId);
      const fresh = await claimReadings(tx, unique.map((r) => r.id), agentId);
      const readings = unique
        .filter((r) => fresh.has(r.id))
        .sort((a, b) => Date.parse(a.reading.readAt) - Date.parse(b.reading.readAt));
      const duplicates = valid.length - readings.length;
      if (!readings.length) return { stored: 0, duplicates, rejected };

      const { c, scope } = await deviceContext(tx, agentId, readings);

      const touched = new Set<number>();
      const days = new Map<string, DayRow>();
      const partDays = new Map<string, PartDayRow>();
      const ipHistory: { deviceId: number; ip: string; oldIp: string | null; changedAt: Date }[] = [];
      const walks: { deviceId: number; walkedAt: Date; sysObjectId: string | null; sysDescr: string | null; rowCount: number; rows: [string, string, string][] }[] = [];
      const events: EventRow[] = [];
      const flags: MeterFlagRow[] = [];

      const freeIds: number[] = [];
      const newWithSerial: DeviceState[] = [];
      for (const [index, r] of readings.entries()) {
        if (!r.reading.isPrinter && !r.walk?.length) continue;
        const at = new Date(Math.min(Date.parse(r.reading.readAt), Date.now()));
        const rangeId = r.rangeId !== null && c.rangeLocations.has(r.rangeId) ? r.rangeId : null;
        let d = match(c, r);
        const isNew = !d;
        if (!d) {
          if (!freeIds.length) freeIds.push(...(await newDeviceIds(tx, readings.length - index)));
          d = blankDevice(freeIds.shift()!, rangeId !== null ? c.rangeLocations.get(rangeId)! : c.defaultLocationId, r.ip, at);
          c.state.set(d.id, d);
          if (r.reading.serialNumber) newWithSerial.push(d);
        }
        if (!c.supplies.has(d.id)) c.supplies.set(d.id, new Map());
        const supplies = c.supplies.get(d.id)!;
        let derived: DerivedEvent[] = [];
        // A reading older than the device's state (a late spool) only goes to the history.
        if (isNew || at >= d.refreshedAt) {
          const oldIp = d.ip;
          // Against the previous reading, which the state holds: before it is applied. A late
          // reading (older than the state) is not judged, as its previous one is not at hand.
          flags.push(...meterFlagsOf(d, r.reading.counters, at, r.reading.ratedPpm));
          derived = applyReading(d, supplies, r.reading, { ip: r.ip, port: r.port, at, runId: r.runId, agentId, rangeId }, { isNew });
          indexDevice(c, d);
          if (isNew || oldIp !== d.ip) ipHistory.push({ deviceId: d.id, ip: d.ip, oldIp: isNew ? null : oldIp, changedAt: at });
          touched.add(d.id);
          for (const e of derived) {
            events.push({
              eventAt: e.at, type: e.type, deviceId: d.id, locationId: d.locationId,
              supplyIndex: e.supply?.supplyIndex ?? null, partCode: e.supply?.partCode ?? null,
              partModelCode: e.supply?.partModelCode ?? null, partSerialNumber: e.supply?.partSerialNumber ?? null,
              oldValue: e.oldValue, newValue: e.newValue, message: eventMessage(e.type, d, e), params: eventParams(e.type, d, e), level: EVENT_LEVEL[e.type],
            });
          }
        }
        addDays(days, partDays, r.reading, d, at, derived);
        if (r.walk?.length) walks.push({ deviceId: d.id, walkedAt: at, sysObjectId: r.reading.sysObjectID, sysDescr: r.reading.sysDescr, rowCount: r.walk.length, rows: r.walk });
      }

      const notes = await serialNotes(tx, scope, newWithSerial);

      const touchedDevices = [...touched].map((id) => c.state.get(id)!);
      await upsertDevices(tx, touchedDevices);
      await upsertSupplies(tx, [...touched].flatMap((id) => [...(c.supplies.get(id)?.values() ?? [])]));
      await upsertDays(tx, [...days.values()]);
      await upsertPartDays(tx, [...partDays.values()]);
      await insertIpHistory(tx, ipHistory);
      await insertMeterFlags(tx, flags);
      await upsertWalks(tx, walks);
      const stored = await insertEvents(tx, groupId, events);
      // A replaced supply's open order is installed by the replacement itself (issue 45).
      await installReplacedOrders(tx, groupId, events.filter((e) => e.type === 'SUPPLY_REPLACED' && e.supplyIndex != null).map((e) => ({ deviceId: e.deviceId, supplyIndex: e.supplyIndex!, at: e.eventAt })));
      // With the state they were judged on, so an alert starts and clears with its readings.
      await syncDeviceAlerts(tx, touchedDevices.map((d) => d.id), DEFAULT_SUPPLY_THRESHOLD);
      await insertSerialNotes(tx, groupId, notes);
      published.push(...stored.map((e) => ({ deviceId: e.deviceId, locationId: e.locationId, type: e.type as DeviceEventType })));
      return { stored: readings.length, duplicates, rejected };
    });
    this.publish(published);
    return said(result);
  }

  private publish(events: { deviceId: number; locationId: number; type: DeviceEventType }[]) {
    for (const e of events) {
      const msg = { type: 'DEVICE_EVENT' as const, deviceId: e.deviceId, locationId: e.locationId, event: e.type };
      this.hub.publish('devices', msg);
      this.hub.publish(`device:${e.deviceId}`, msg);
    }
  }

  /**
   * When a run finishes: known devices of the scanned ranges that were not read since the run
   * started get a missed poll; at OFFLINE_MISSED_POLLS (the setting) they are NOT_AVAILABLE (one
   * event) with a DEVICE_OFFLINE alert open (issue 54), which their next reading resolves.
   */
  async markMissed(agentId: number, startedAt: Date, rangeIds: number[]): Promise<number> {
    if (!rangeIds.length) return 0;
    const groupId = await this.groupId();
    const published: { deviceId: number; locationId: number; type: DeviceEventType }[] = [];
    await this.db.transaction(async (tx) => {
      await lockAgentDevices(tx, agentId);
      const { agent, ranges } = await repo.agentPlaces(tx, agentId);
      const owned = ranges.filter((r) => rangeIds.includes(r.id));
      if (!owned.length) return;
      // A device moved out of the agent's locations in the console is no longer the agent's to mark.
      const scope = await descendantIds(tx, [...new Set([agent.locationId, ...owned.map((r) => r.locationId)])]);
      const missed = await repo.countMissedPoll(tx, { agentId, rangeIds: owned.map((r) => r.id), scope, before: startedAt });
      const after = Number((await settingValues(tx, ['OFFLINE_MISSED_POLLS'])).OFFLINE_MISSED_POLLS ?? OFFLINE_MISSED_POLLS_DEFAULT);
      const gone = missed.filter((d) => d.missedPolls >= after);
      if (!gone.length) return;
      await repo.markNotAvailable(tx, gone.map((d) => d.id));
      await openOfflineAlerts(tx, gone.map((d) => d.id));
      const now = new Date();
      const rows: EventRow[] = gone.map((d) => {
        const e: DerivedEvent = { type: 'NOT_AVAILABLE', at: now, oldValue: d.statusCode, newValue: 'NOT_AVAILABLE' };
        return {
          eventAt: now, type: 'NOT_AVAILABLE', deviceId: d.id, locationId: d.locationId, supplyIndex: null, partCode: null,
          partModelCode: null, partSerialNumber: null, oldValue: e.oldValue, newValue: e.newValue,
          message: eventMessage('NOT_AVAILABLE', d, e), params: eventParams('NOT_AVAILABLE', d, e), level: EVENT_LEVEL.NOT_AVAILABLE,
        };
      });
      const stored = await insertEvents(tx, groupId, rows);
      published.push(...stored.map((e) => ({ deviceId: e.deviceId, locationId: e.locationId, type: e.type as DeviceEventType })));
    });
    this.publish(published);
    return published.length;
  }
}
