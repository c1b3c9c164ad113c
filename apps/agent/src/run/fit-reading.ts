import type { AgentReading } from '@pagewatch/contracts/agent-api';
import {
  COUNTER_TEXT_MAX, INT32_MAX, INT32_MIN, MAX_COUNTER, MAX_VENDOR_COUNTER, PROBLEM_TEXT_MAX, READING_LIST_MAX,
  READING_TEXT_MAX, STATUS_TEXT_MAX, SUPPLY_LEVEL_MAX, SUPPLY_LEVEL_MIN, SUPPLY_TEXT_MAX, TRAY_TEXT_MAX,
} from '@pagewatch/contracts/reading';
import type { Reading, ReadingTrim } from '@pagewatch/contracts/reading';
import { LINE_CONTROL_CHARS, LONE_SURROGATE, cutText } from '@pagewatch/contracts/fields';

const WALK_OID_MAX = 256;
const WALK_TYPE_MAX = 32;
const CONTROL_RUNS = new RegExp(`${LINE_CONTROL_CHARS.source}+`, 'g');
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

/**
 * Fits a reading to the contract's limits before it is sent (issue 14): text without control
 * characters and cut to its column, numbers out of range dropped (null, or the list entry left
 * out), lists cut. Each change is listed in `reading.trimmed`, so the server stores the device
 * and shows what was changed, instead of refusing the reading for one value.
 */
export function fitAgentReading(input: AgentReading): AgentReading {
  const trimmed: ReadingTrim[] = [...(input.reading.trimmed ?? [])];
  const note = (field: string, action: ReadingTrim['action']): void => void trimmed.push({ field, action });

  function text(field: string, value: string, max: number): string {
    let v = value;
    if (LINE_CONTROL_CHARS.test(v) || LONE_SURROGATE.test(v)) {
      v = v.replace(LONE_SURROGATES, '\uFFFD').replace(CONTROL_RUNS, ' ').trim();
      note(field, 'cleaned');
    }
    if (v.length > max) {
      v = cutText(v, max);
      note(field, 'cut');
    }
    return v;
  }
  const maybeText = (field: string, value: string | null, max: number): string | null => (value === null ? null : text(field, value, max));
  function num(field: string, value: number | null, min: number, max: number, int = true): number | null {
    if (value === null || (Number.isFinite(value) && value >= min && value <= max && (!int || Number.isInteger(value)))) return value;
    note(field, 'dropped');
    return null;
  }
  const int32 = (field: string, value: number | null): number | null => num(field, value, INT32_MIN, INT32_MAX);
  function list<T>(field: string, items: T[], max: number): T[] {
    if (items.length <= max) return items;
    note(field, 'cut');
    return items.slice(0, max);
  }
  /** Entries whose index does not fit are left out: without an index there is no row to store. */
  const indexed = <T extends { index: number }>(field: string, items: T[]): T[] =>
    items.filter((item, i) => int32(`${field}.${i}.index`, item.index) !== null);

  const r = input.reading;
  const counters = r.counters;
  const count = (key: keyof typeof counters & string, v: number | null) => num(`counters.${key}`, v, 0, MAX_COUNTER);
  const reading: Reading = {
    ...r,
    readAt: text('readAt', r.readAt, READING_TEXT_MAX.readAt),
    profileId: maybeText('profileId', r.profileId, READING_TEXT_MAX.profileId),
    modelsVersion: int32('modelsVersion', r.modelsVersion),
    sysObjectID: maybeText('sysObjectID', r.sysObjectID, READING_TEXT_MAX.sysObjectID),
    sysDescr: maybeText('sysDescr', r.sysDescr, READING_TEXT_MAX.sysDescr),
    vendor: maybeText('vendor', r.vendor, READING_TEXT_MAX.vendor),
    model: maybeText('model', r.model, READING_TEXT_MAX.model),
    serialNumber: maybeText('serialNumber', r.serialNumber, READING_TEXT_MAX.serialNumber),
    macAddress: maybeText('macAddress', r.macAddress, READING_TEXT_MAX.macAddress),
    firmware: maybeText('firmware', r.firmware, READING_TEXT_MAX.firmware),
    hostName: maybeText('hostName', r.hostName, READING_TEXT_MAX.hostName),
    location: maybeText('location', r.location, READING_TEXT_MAX.location),
    status: {
      ...r.status,
      errors: list('status.errors', r.status.errors, READING_LIST_MAX.errors).map((e, i) => text(`status.errors.${i}`, e, STATUS_TEXT_MAX.error)),
      errorStateHex: maybeText('status.errorStateHex', r.status.errorStateHex, STATUS_TEXT_MAX.errorStateHex),
    },
    counters: {
      total: count('total', counters.total),
      markerTotal: count('markerTotal', counters.markerTotal),
      vendorTotal: count('vendorTotal', counters.vendorTotal),
      totalUnit: maybeText('counters.totalUnit', counters.totalUnit, COUNTER_TEXT_MAX.totalUnit),
      powerOn: count('powerOn', counters.powerOn),
      mono: count('mono', counters.mono),
      color: count('color', counters.color),
      a3: count('a3', counters.a3),
      a3Bw: count('a3Bw', counters.a3Bw),
      a3Color: count('a3Color', counters.a3Color),
      a4: count('a4', counters.a4),
      a4Bw: count('a4Bw', counters.a4Bw),
      a4Color: count('a4Color', counters.a4Color),
      copies: count('copies', counters.copies),
      scans: count('scans', counters.scans),
      fax: count('fax', counters.fax),
      duplex: count('duplex', counters.duplex),
      derived: counters.derived,
      vendor: list('counters.vendor', counters.vendor, READING_LIST_MAX.vendorCounters)
        .filter((c, i) => num(`counters.vendor.${i}.value`, c.value, 0, MAX_VENDOR_COUNTER, false) !== null)
        .map((c, i) => ({
          key: text(`counters.vendor.${i}.key`, c.key, COUNTER_TEXT_MAX.key),
          name: text(`counters.vendor.${i}.name`, c.name, COUNTER_TEXT_MAX.name),
          oid: text(`counters.vendor.${i}.oid`, c.oid, COUNTER_TEXT_MAX.oid),
          value: c.value,
        })),
      sources: Object.fromEntries(Object.entries(counters.sources).map(([k, v]) => [k, text(`counters.sources.${k}`, v, COUNTER_TEXT_MAX.source)])),
      splitMismatch: counters.splitMismatch,
    },
    supplies: indexed('supplies', list('supplies', r.supplies, READING_LIST_MAX.supplies)).map((s, i) => ({
      ...s,
      type: text(`supplies.${i}.type`, s.type, SUPPLY_TEXT_MAX.type),
      description: text(`supplies.${i}.description`, s.description, SUPPLY_TEXT_MAX.description),
      colorant: maybeText(`supplies.${i}.colorant`, s.colorant, SUPPLY_TEXT_MAX.colorant),
      partNumber: maybeText(`supplies.${i}.partNumber`, s.partNumber, SUPPLY_TEXT_MAX.partNumber),
      partSerialNumber: maybeText(`supplies.${i}.partSerialNumber`, s.partSerialNumber, SUPPLY_TEXT_MAX.partSerialNumber),
      unit: maybeText(`supplies.${i}.unit`, s.unit, SUPPLY_TEXT_MAX.unit),
      level: num(`supplies.${i}.level`, s.level, SUPPLY_LEVEL_MIN, SUPPLY_LEVEL_MAX),
      maxCapacity: int32(`supplies.${i}.maxCapacity`, s.maxCapacity),
      percent: num(`supplies.${i}.percent`, s.percent, 0, 100),
      source: maybeText(`supplies.${i}.source`, s.source ?? null, SUPPLY_TEXT_MAX.source),
    })),
    trays: indexed('trays', list('trays', r.trays, READING_LIST_MAX.trays)).map((t, i) => ({
      ...t,
      name: text(`trays.${i}.name`, t.name, TRAY_TEXT_MAX.name),
      mediaName: maybeText(`trays.${i}.mediaName`, t.mediaName, TRAY_TEXT_MAX.mediaName),
      level: int32(`trays.${i}.level`, t.level),
      maxCapacity: int32(`trays.${i}.maxCapacity`, t.maxCapacity),
      percent: num(`trays.${i}.percent`, t.percent, 0, 100),
    })),
    problems: list('problems', r.problems, READING_LIST_MAX.problems).map((p, i) => text(`problems.${i}`, p, PROBLEM_TEXT_MAX)),
  };
  // A walk row past the limits is of no use to a profile writer: left out. Half a surrogate
  // pair in a value (PostgreSQL's jsonb refuses it) becomes U+FFFD.
  const kept = input.walk?.filter(([oid, type, value]) => oid.length <= WALK_OID_MAX && type.length <= WALK_TYPE_MAX && !value.includes('\u0000'));
  if (kept && input.walk && kept.length < input.walk.length) note('walk', 'dropped');
  const walk = kept?.map((row): [string, string, string] => (row.some((cell) => LONE_SURROGATE.test(cell)) ? (note('walk', 'cleaned'), row.map((cell) => cell.replace(LONE_SURROGATES, '\uFFFD')) as [string, string, string]) : row));
  if (trimmed.length) reading.trimmed = trimmed.slice(0, READING_LIST_MAX.trimmed);
  return { ...input, reading, ...(input.walk === undefined ? {} : { walk: walk ?? null }) };
}
