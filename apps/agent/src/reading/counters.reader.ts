import { cutText } from '@pagewatch/contracts/fields';
import type { CounterField } from '@pagewatch/contracts/models-pack';
import type { DerivedCounter, ReadingCounter, ReadingCounters } from '@pagewatch/contracts/reading';
import type { ResolvedProfile } from '../profiles/profile-registry.ts';
import type { MibData } from './mib-data.ts';
import type { Varbind } from '../snmp/varbind.ts';
import { COUNTER_UNITS, PRT } from './printer-mib.ts';

const slug = (name: string): string =>
  name.toLowerCase().replace(/&/g, ' and ').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'counter';

/** Lowest marker row "<hrDeviceIndex>.<markerIndex>": LibreNMS and RFC 3805 use the first. */
function firstMarkerRow(data: MibData): string | null {
  const rows = [...data.column(PRT.markerLifeCount).keys()].filter((r) => /^\d+\.\d+$/.test(r));
  return rows[0] ?? null;
}

function nonNegative(data: MibData, oid: string, what: string): number | null {
  const n = data.int(oid, what);
  if (n !== null && n < 0) {
    data.problem(`${what} (${oid}) is negative: ${n}`);
    return null;
  }
  return n;
}

function numberInText(data: MibData, oid: string, pattern: string): number | null {
  const text = data.text(oid, 'vendor counter');
  if (text === null) return null;
  const m = new RegExp(pattern, 'i').exec(text);
  const n = m ? Number(m[1] ?? m[0]) : NaN;
  if (!Number.isSafeInteger(n) || n < 0) {
    data.problem(`vendor counter (${oid}) has no number in "${cutText(text, 40)}"`);
    return null;
  }
  return n;
}

/** A row's type: a number as its digits, a text trimmed (a paper size's name); null when the row has none. */
function typeValue(data: MibData, vb: Varbind | undefined): string | null {
  if (!vb) return null;
  if (typeof vb.value === 'number') return String(vb.value);
  const text = data.varbindText(vb, 'vendor counter type');
  return text ? text.trim() : null;
}

/** Whether a key with `*` parts ("1.*.2", "*") matches a row's key. */
function matches(parts: string[], key: string): boolean {
  if (parts.length === 1 && parts[0] === '*') return true;
  const have = key.split('.');
  return have.length === parts.length && parts.every((p, i) => p === '*' || p === have[i]);
}

/**
 * Page counters: the Printer-MIB life count, plus the profile's vendor counters mapped to the
 * normalised fields (rows that feed one field are summed, e.g. Ricoh's two colour copy types).
 */
export function readCounters(data: MibData, profile: ResolvedProfile): ReadingCounters {
  const sums = new Map<CounterField, number>();
  const vendor: ReadingCounter[] = [];
  const add = (field: CounterField | readonly CounterField[] | undefined, key: string, name: string, oid: string, value: number): void => {
    const fields: readonly CounterField[] = field === undefined ? [] : typeof field === 'string' ? [field] : field;
    if (vendor.length < 500) vendor.push({ key: fields[0] ?? key, name, oid, value });
    for (const f of fields) sums.set(f, (sums.get(f) ?? 0) + value);
  };

  for (const c of profile.counters) {
    const value = c.pattern ? numberInText(data, c.oid, c.pattern) : nonNegative(data, c.oid, c.name);
    if (value !== null) add(c.field, slug(c.name), c.name, c.oid, value);
  }

  for (const table of profile.counterTables) {
    const names = table.nameColumn ? data.column(table.nameColumn) : null;
    const typeColumns = (table.typeColumns ?? (table.typeColumn ? [table.typeColumn] : [])).map((c) => data.column(c));
    const wildcards = Object.keys(table.rows).filter((k) => k.includes('*')).map((k) => ({ parts: k.split('.'), key: k }));
    for (const row of data.column(table.valueColumn).keys()) {
      const oid = `${table.valueColumn}.${row}`;
      const types = typeColumns.map((column) => typeValue(data, column.get(row)));
      if (types.some((t) => t === null)) continue;
      const typeKey = types.length ? types.join('.') : null;
      const key = typeKey ?? row;
      const keys = [...(table.rows[key] ? [key] : []), ...wildcards.filter((w) => matches(w.parts, key)).map((w) => w.key)];
      const field = keys.length ? [...new Set(keys.flatMap((k) => table.rows[k]))] : undefined;
      const value = nonNegative(data, oid, 'vendor counter');
      if (value === null) continue;
      const nameVb = names?.get(row);
      const name = (nameVb && data.varbindText(nameVb, 'vendor counter name')) || (typeKey ? `type ${typeKey}` : `counter ${row}`);
      add(field, slug(name), name, oid, value);
    }
  }

  const marker = firstMarkerRow(data);
  const life = marker ? nonNegative(data, `${PRT.markerLifeCount}.${marker}`, 'prtMarkerLifeCount') : null;
  const powerOn = marker ? nonNegative(data, `${PRT.markerPowerOnCount}.${marker}`, 'prtMarkerPowerOnCount') : null;
  const unitCode = marker ? data.int(`${PRT.markerCounterUnit}.${marker}`, 'prtMarkerCounterUnit') : null;
  const field = (f: CounterField): number | null => sums.get(f) ?? null;
  // Where the maker's black and colour counters count an A3 page as two, the pages are those less the A3 pages once.
  const pages = (whole: CounterField, a3: CounterField): number | null => {
    const n = field(whole);
    const large = field(a3);
    return profile.a3CountedTwice && n !== null && large !== null && large <= n ? n - large : n;
  };
  return completeCounters({
    total: life ?? field('total'),
    totalUnit: life !== null && unitCode !== null ? (COUNTER_UNITS[unitCode] ?? null) : null,
    powerOn: powerOn ?? field('powerOn'),
    mono: pages('mono', 'a3Bw'),
    color: pages('color', 'a3Color'),
    a3: field('a3'),
    a3Bw: field('a3Bw'),
    a3Color: field('a3Color'),
    a4: field('a4'),
    a4Bw: field('a4Bw'),
    a4Color: field('a4Color'),
    copies: field('copies'),
    scans: field('scans'),
    fax: field('fax'),
    duplex: field('duplex'),
    derived: [],
    vendor,
  });
}

/**
 * The counters a device did not report but its others imply: a size's pages as the sum of its
 * black-and-white and colour pages (exact), and, marked as derived, colour as total − black
 * (or black as total − colour) and A4 as total − A3. A difference that would be negative is no
 * counter: the device counts in other units (sides, A3 as two), and the field stays unknown.
 */
export function completeCounters(c: ReadingCounters): ReadingCounters {
  const out: ReadingCounters = { ...c, derived: [...c.derived] };
  const sum = (a: number | null, b: number | null) => (a !== null && b !== null ? a + b : null);
  out.a3 ??= sum(c.a3Bw, c.a3Color);
  out.a4 ??= sum(c.a4Bw, c.a4Color);
  const derive = (field: DerivedCounter, whole: number | null, part: number | null) => {
    if (out[field] !== null || whole === null || part === null || part > whole) return;
    out[field] = whole - part;
    out.derived.push(field);
  };
  derive('color', out.total, out.mono);
  derive('mono', out.total, out.color);
  derive('a4Bw', out.mono, out.a3Bw);
  derive('a4Color', out.color, out.a3Color);
  // A4 as its two parts where they are known (derived if either is), else as total − A3.
  if (out.a4 === null && out.a4Bw !== null && out.a4Color !== null) {
    out.a4 = out.a4Bw + out.a4Color;
    if (out.derived.includes('a4Bw') || out.derived.includes('a4Color')) out.derived.push('a4');
  }
  derive('a4', out.total, out.a3);
  return out;
}
