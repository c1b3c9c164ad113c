import type { Reading, ReadingSupply } from '@pagewatch/contracts/reading';
import { DEVICE_FIELDS, PAGE_COUNTERS, TONER_FIELDS, TONERS, type CounterColumn, type DeviceField, type ReadingText, type TonerField } from '@pagewatch/contracts/devices';
import type { CounterField } from '@pagewatch/contracts/models-pack';
import {
  DEFAULT_SUPPLY_THRESHOLD,
  DEVICE_STATUS_CODES,
  REPLACEMENT_JUMP,
  type DeviceEventType,
  type DeviceStatusCode,
} from '@pagewatch/contracts/device-events';
import type { devices } from '../../db/schema/devices.ts';
import type { consumables } from '../../db/schema/consumables.ts';
import { part as logPart, renderLog } from '../event-logs/index.ts';

/**
 * What one reading does to a device's current state, and which events it raises. Pure: the
 * service loads the state, calls `applyReading` for each reading in order, and writes back.
 */
export type DeviceState = typeof devices.$inferSelect;
/** A supply as ingest keeps it; the device's location and model on it are the triggers' to fill. */
/** A supply as a reading leaves it: the device's location and model are the triggers', the forecast the forecast job's. */
export type SupplyState = Omit<typeof consumables.$inferSelect, 'locationId' | 'modelCode' | 'pagesLeft' | 'daysLeft' | 'runsOutOn' | 'forecastReason' | 'forecastAt' | 'levelStep'>;

export type DerivedEvent = {
  type: DeviceEventType;
  at: Date;
  supply?: SupplyState;
  oldValue: string | null;
  newValue: string | null;
};

/** Error bits that stop the device; any other bit set is a warning. */
const STOPPING_ERRORS = new Set([
  'noPaper', 'noToner', 'doorOpen', 'jammed', 'offline', 'serviceRequested', 'inputTrayMissing',
  'outputTrayMissing', 'markerSupplyMissing', 'outputFull',
]);

export function statusOf(r: Reading): DeviceStatusCode {
  const { deviceStatus, printerStatus, errors } = r.status;
  if (deviceStatus === 'down' || errors.some((e) => STOPPING_ERRORS.has(e))) return 'ERROR';
  if (deviceStatus === 'warning' || errors.length > 0) return 'WARNING';
  if (deviceStatus === null && printerStatus === null) return 'UNKNOWN';
  return 'OK';
}

/** "00-11-22-aa-bb-cc", "0011.22aa.bbcc" → "00:11:22:aa:bb:cc"; all-zero or malformed → null. */
export function normaliseMac(mac: string | null): string | null {
  if (!mac) return null;
  const hex = mac.toLowerCase().replace(/[^0-9a-f]/g, '');
  if (hex.length !== 12 || /^0+$/.test(hex) || /^f+$/.test(hex)) return null;
  return hex.match(/../g)!.join(':');
}

/** A reading's counters and the device's fields they go to, from their one definition. */
export const COUNTER_FIELDS = Object.entries(PAGE_COUNTERS) as [CounterField, CounterColumn][];
/** The device fields a reading fills as they are, from the row definition (DEVICE_FIELDS' `reading`). */
type ReadField = { [F in DeviceField]: (typeof DEVICE_FIELDS)[F] extends { reading: ReadingText } ? F : never }[DeviceField];
export const READ_FIELDS = Object.entries(DEVICE_FIELDS).flatMap(([field, def]) =>
  'reading' in def ? [[field, def.reading] as [ReadField, ReadingText]] : []);

/** The counters the daily history keeps: every one but the power-on count. */
export type DayCounterColumn = Exclude<CounterColumn, 'powerOnCount'>;
export const DAY_COUNTER_FIELDS = COUNTER_FIELDS.filter((f): f is [CounterField, DayCounterColumn] => f[0] !== 'powerOn');
/** A reading's counters as its day's columns. */
export const dayCounters = (k: Reading['counters']) =>
  Object.fromEntries(DAY_COUNTER_FIELDS.map(([field, column]) => [column, k[field]])) as Record<DayCounterColumn, number | null>;
/** Counters whose going backwards is an event (the others are often reset by firmware). */
const WATCHED_COUNTERS = new Set(['total', 'mono', 'color']);

const isLow = (level: number | null, state: string | null, threshold: number) =>
  level !== null ? level < threshold : state === 'LOW' || state === 'EMPTY';

const TONER_TYPES = new Set(['toner', 'tonerCartridge', 'ink', 'inkCartridge', 'solidWax', 'ribbonWax']);

function supplyLabel(s: { partName: string; colorant: string | null; partCode: string }) {
  return s.partName || [s.colorant, s.partCode].filter(Boolean).join(' ');
}

export type ApplyContext = { threshold?: number; isNew: boolean };

/**
 * Applies a reading that is newer than the device's state. `supplies` is the device's supply
 * map (by index), updated in place. Returns the events, in a fixed order.
 */
export function applyReading(
  d: DeviceState,
  supplies: Map<number, SupplyState>,
  r: Reading,
  meta: { ip: string; port: number; at: Date; runId: string | null; agentId: number; rangeId: number | null },
  ctx: ApplyContext,
): DerivedEvent[] {
  const threshold = ctx.threshold ?? DEFAULT_SUPPLY_THRESHOLD;
  const at = meta.at;
  const events: DerivedEvent[] = [];
  const ev = (type: DeviceEventType, oldValue: string | null, newValue: string | null, supply?: SupplyState) =>
    events.push({ type, at, oldValue, newValue, supply });

  if (ctx.isNew) ev('NEW_DEVICE', null, meta.ip);
  if (!ctx.isNew && d.ip !== meta.ip) ev('IP_CHANGE', d.ip, meta.ip);
  const wasUnavailable = d.notAvailableFlag;
  if (wasUnavailable) ev('BACK_ONLINE', 'NOT_AVAILABLE', statusOf(r));

  const status = statusOf(r);
  if (!ctx.isNew && !wasUnavailable && d.statusCode !== 'UNKNOWN' && d.statusCode !== status) {
    ev('STATUS_CHANGE', describeStatus(d.statusCode, d.errorBits), describeStatus(status, r.status.errors));
  }

  // Counters: a value going backwards is kept (the device says so) but flagged.
  const backwards: string[] = [];
  let counterMovedBack = false;
  for (const [field, column] of COUNTER_FIELDS) {
    const next = r.counters[field];
    const prev = d[column];
    if (next !== null && prev !== null && next < prev) {
      if (WATCHED_COUNTERS.has(field)) backwards.push(`${field} ${prev} → ${next}`);
      counterMovedBack = true;
    }
  }
  const totalPrev = d.totalCount ?? d.monoCount;
  const totalNext = r.counters.total ?? r.counters.mono;
  const countersForward = !counterMovedBack && !(totalPrev !== null && totalNext !== null && totalNext < totalPrev);
  if (backwards.length) {
    ev('COUNTER_BACKWARDS', backwards.map((b) => b.split(' → ')[0]).join('; '), backwards.join('; '));
    d.needAttentionFlag = true;
    d.counterBackwardsAt = at;
  }

  // Supplies.
  for (const s of r.supplies) applySupply(d, supplies, s, at, threshold, countersForward, ev);

  // Current state.
  d.ip = meta.ip;
  d.port = meta.port;
  d.agentId = meta.agentId;
  if (meta.rangeId !== null) d.rangeId = meta.rangeId;
  d.lastRunId = meta.runId;
  d.refreshedAt = at;
  d.missedPolls = 0;
  d.notAvailableFlag = false;
  d.statusCode = status;
  d.snmpStatusCode = r.status.deviceStatus;
  d.printerStatus = r.status.printerStatus;
  d.errorBits = r.status.errors;
  d.errorStateHex = r.status.errorStateHex;
  for (const [field, from] of READ_FIELDS) d[field] = r[from] ?? d[field];
  d.profileId = r.profileId;
  d.macAddress = normaliseMac(r.macAddress) ?? d.macAddress;
  // Kept for the models pack's matching and the walks, not listed: not in the row definition.
  d.sysObjectId = r.sysObjectID ?? d.sysObjectId;
  d.sysDescr = r.sysDescr ?? d.sysDescr;
  for (const [field, column] of COUNTER_FIELDS) {
    const v = r.counters[field];
    if (v !== null) d[column] = v;
  }
  d.totalUnit = r.counters.totalUnit ?? d.totalUnit;
  d.derivedCounters = r.counters.derived.join(',');
  // An agent before issue 41 sends no sources nor totals apart: what the device had is kept, not wiped.
  if (Object.keys(r.counters.sources).length) d.counterSources = r.counters.sources;
  d.markerTotalCount = r.counters.markerTotal ?? d.markerTotalCount;
  d.vendorTotalCount = r.counters.vendorTotal ?? d.vendorTotalCount;
  d.splitMismatch = r.counters.splitMismatch;
  if (r.counters.vendor.length) d.vendorCounters = r.counters.vendor.map(({ key, name, oid, value }) => ({ key, name, oid, value }));
  // What the agent cut to the contract's limits comes first, so it is never the part left out.
  const trimmed = (r.trimmed ?? []).map((t) =>
    t.action === 'repaired' ? `${t.field}: broken characters replaced by the server` : `${t.field}: ${t.action} by the agent (past the limit)`);
  d.problems = [...trimmed, ...r.problems].slice(0, 50);
  d.trays = r.trays;
  d.newDevice30Flag = at.getTime() - d.createdAt.getTime() < 30 * 86_400_000;
  for (const column of TONERS) d[column] = null;
  for (const s of supplies.values()) {
    const column = s.colorant ? TONER_FIELDS[s.colorant.toLowerCase() as keyof typeof TONER_FIELDS] : undefined;
    if (column && TONER_TYPES.has(s.partCode) && s.level !== null) d[column] = s.level;
  }
  return events;
}

function applySupply(
  d: DeviceState,
  supplies: Map<number, SupplyState>,
  s: ReadingSupply,
  at: Date,
  threshold: number,
  countersForward: boolean,
  ev: (type: DeviceEventType, oldValue: string | null, newValue: string | null, supply?: SupplyState) => void,
) {
  const old = supplies.get(s.index);
  // The reading (agent protocol v1) names the percentage `percent` and the printer's raw value `level`.
  const pct = s.percent;
  const next: SupplyState = {
    deviceId: d.id,
    supplyIndex: s.index,
    partCode: s.type.slice(0, 50),
    partName: s.description.slice(0, 500),
    colorant: s.colorant?.slice(0, 50) ?? null,
    supplyClass: s.supplyClass,
    partModelCode: s.partNumber?.slice(0, 100) ?? null,
    partSerialNumber: s.partSerialNumber?.slice(0, 100) ?? null,
    unit: s.unit?.slice(0, 30) ?? null,
    rawLevel: s.level,
    maxCapacity: s.maxCapacity,
    levelState: s.levelState,
    level: pct,
    levelSource: s.source?.slice(0, 300) ?? null,
    previousLevel: old?.level ?? null,
    installedAt: old?.installedAt ?? null,
    refreshedAt: at,
  };
  // A waste container fills up: its "low" is not a supply running out.
  const consumed = s.supplyClass !== 'filled';
  if (consumed) {
    const wasLow = old ? isLow(old.level, old.levelState, threshold) : false;
    if (isLow(pct, s.levelState, threshold) && !wasLow) {
      ev('SUPPLY_LOW', old?.level != null ? String(old.level) : old?.levelState ?? null, pct !== null ? String(pct) : s.levelState, next);
    }
    if (old && isReplacement(old, next, threshold, countersForward)) {
      next.installedAt = at;
      ev('SUPPLY_REPLACED', old.level !== null ? String(old.level) : old.levelState, pct !== null ? String(pct) : s.levelState, next);
    }
  }
  supplies.set(s.index, next);
}

/**
 * A replacement: the level jumps up by REPLACEMENT_JUMP points, or goes from low to high, or a
 * new part serial appears with a higher level, while the page counters keep moving forward.
 * Not a replacement: a one-reading dip that comes back (80 → 20 → 80), or a jump that comes with
 * counters going backwards (another device answering on the address, or a reset).
 */
export function isReplacement(old: SupplyState, next: SupplyState, threshold: number, countersForward: boolean): boolean {
  if (!countersForward) return false;
  const before = old.level;
  const after = next.level;
  if (after === null) return false;
  const wasLow = isLow(before, old.levelState, threshold);
  const serialChanged = !!old.partSerialNumber && !!next.partSerialNumber && old.partSerialNumber !== next.partSerialNumber;
  if (before === null) return wasLow && after > 50;
  const jump = after - before >= REPLACEMENT_JUMP || (wasLow && after > 50) || (serialChanged && after > before);
  if (!jump) return false;
  const dipBack = old.previousLevel !== null && old.previousLevel - before >= REPLACEMENT_JUMP && Math.abs(after - old.previousLevel) <= 5;
  return serialChanged || !dipBack;
}

function describeStatus(code: string, errors: string[]): string {
  return errors.length ? `${code} (${errors.join(', ')})` : code;
}

/** A new device's state before its first reading is applied. */
export function blankDevice(id: number, locationId: number, ip: string, createdAt: Date): DeviceState {
  return {
    id, modelCode: null, modelVendorCode: null, profileId: null, serialNumber: null, inventoryNumber: null,
    snmpLocation: null, hostName: null, locationId, agentId: null, rangeId: null, ip, port: 161, macAddress: null,
    firmware: null, sysObjectId: null, sysDescr: null, deviceType: null, colorType: null, paperFormat: null,
    statusCode: 'UNKNOWN', snmpStatusCode: null, printerStatus: null, scannerStatus: null, errorStateHex: null,
    errorBits: [], createdAt, refreshedAt: createdAt, walkRefreshedAt: null, managedFlag: true, comment: null,
    ...(Object.fromEntries(COUNTER_FIELDS.map(([, column]) => [column, null])) as Record<CounterColumn, null>),
    totalUnit: null, derivedCounters: '', vendorCounters: [], counterSources: {}, markerTotalCount: null, vendorTotalCount: null, splitMismatch: null,
    ...(Object.fromEntries(TONERS.map((f) => [f, null])) as Record<TonerField, null>), newDevice30Flag: true,
    notAvailableFlag: false, matReplacementRequiredFlag: false, needAttentionFlag: false, counterBackwardsAt: null,
    missedPolls: 0, lastRunId: null, problems: [], trays: [],
  };
}

/** The event's English message, as stored in the event log (see eventParams). */
export function eventMessage(type: DeviceEventType, d: DeviceState, e: DerivedEvent): string {
  return renderLog('en', `device.${type}`, eventParams(type, d, e));
}

/** A status as describeStatus wrote it ("ERROR (jammed, noPaper)"), with its code translatable. */
function statusParam(v: string | null) {
  const m = v?.match(/^([A-Z_]+)(?: \((.*)\))?$/);
  if (!m || !(DEVICE_STATUS_CODES as readonly string[]).includes(m[1])) return v;
  const status = logPart(`status.${m[1]}`);
  return m[2] ? logPart('status', { status, errors: m[2] }) : status;
}

/** The params of the event's log message `log.device.<type>` (event-logs.messages.ts). */
export function eventParams(type: DeviceEventType, d: DeviceState, e: DerivedEvent): Record<string, unknown> {
  const model = [d.modelVendorCode, d.modelCode].filter(Boolean).join(' ') || logPart('unknownModel');
  const device = d.serialNumber ? logPart('deviceSn', { model, sn: d.serialNumber, ip: d.ip }) : logPart('device', { model, ip: d.ip });
  const part = e.supply ? supplyLabel(e.supply) : '';
  switch (type) {
    case 'NEW_DEVICE': case 'NOT_AVAILABLE': case 'BACK_ONLINE': return { device };
    case 'STATUS_CHANGE': return { device, from: statusParam(e.oldValue), to: statusParam(e.newValue) };
    case 'IP_CHANGE': return { device, from: e.oldValue, to: e.newValue };
    case 'SUPPLY_LOW': return { device, part, level: `${e.newValue}${/^\d+$/.test(e.newValue ?? '') ? '%' : ''}` };
    case 'SUPPLY_REPLACED': return { device, part, from: e.oldValue, to: e.newValue };
    case 'COUNTER_BACKWARDS': return { device, value: e.newValue };
  }
}

export const EVENT_LEVEL: Record<DeviceEventType, 'I' | 'W' | 'E'> = {
  NEW_DEVICE: 'I', NOT_AVAILABLE: 'W', BACK_ONLINE: 'I', STATUS_CHANGE: 'I', IP_CHANGE: 'I',
  SUPPLY_LOW: 'W', SUPPLY_REPLACED: 'I', COUNTER_BACKWARDS: 'W',
};
