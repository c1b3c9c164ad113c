import { cutText } from '@pagewatch/contracts/fields';
import type { CounterField } from '@pagewatch/contracts/models-pack';
import { COUNTER_RULES, COUNTER_TEXT_MAX } from '@pagewatch/contracts/reading';
import type { CounterRule, DerivedCounter, ReadingCounter, ReadingCounters, SourcedCounter } from '@pagewatch/contracts/reading';
import type { ResolvedProfile } from '../profiles/profile-registry.ts';
import type { MibData } from './mib-data.ts';
import type { Varbind } from '../snmp/varbind.ts';
import { COUNTER_UNITS, PRT } from './printer-mib.ts';
import { readRecords } from './vendor-records.ts';

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

/** A row index with the arc of its paper size replaced by the size's name as the device gives it, lower-case. */
function rowWithSizeName(data: MibData, row: string, sizeNames: { column: string; part: number }): string | null {
  const arcs = row.split('.');
  const arc = arcs[sizeNames.part - 1];
  if (arc === undefined) return null;
  const name = data.text(`${sizeNames.column}.${arc}`, 'paper size name');
  if (!name) return null;
  arcs[sizeNames.part - 1] = name.trim().toLowerCase().replace(/\./g, ' ');
  return arcs.join('.');
}

const SOURCE_MAX = COUNTER_TEXT_MAX.source;
const LIFE_COUNT_SOURCE = 'Printer-MIB: prtMarkerLifeCount';

/**
 * Page counters: the Printer-MIB life count, plus the profile's vendor counters (scalars, typed
 * records, tables) mapped to the normalised fields (rows that feed one field are summed, e.g.
 * Ricoh's two colour copy types). Each field records where it came from in `sources`.
 */
export function readCounters(data: MibData, profile: ResolvedProfile): ReadingCounters {
  const sums = new Map<CounterField, number>();
  const from = new Map<CounterField, string[]>();
  // A record string is the device's own summary (Brother's brInfoCounter): a field it gives wins over table rows.
  const recordSums = new Map<CounterField, number>();
  const recordFrom = new Map<CounterField, string[]>();
  const vendor: ReadingCounter[] = [];
  const add = (field: CounterField | readonly CounterField[] | undefined, key: string, name: string, oid: string, value: number, rule: string, record = false): void => {
    const fields: readonly CounterField[] = field === undefined ? [] : typeof field === 'string' ? [field] : field;
    if (vendor.length < 500) vendor.push({ key: fields[0] ?? key, name, oid, value });
    const [s, f] = record ? [recordSums, recordFrom] : [sums, from];
    for (const k of fields) {
      s.set(k, (s.get(k) ?? 0) + value);
      f.set(k, [...(f.get(k) ?? []), `${oid} (${profile.id}: ${rule})`]);
    }
  };

  const scalar = (c: ResolvedProfile['counters'][number]): void => {
    const value = c.pattern ? numberInText(data, c.oid, c.pattern) : nonNegative(data, c.oid, c.name);
    if (value !== null) add(c.field, slug(c.name), c.name, c.oid, value, c.fallback ? `${c.name}, as no other counter gives it` : c.name);
  };
  for (const c of profile.counters) if (!c.fallback) scalar(c);

  for (const rc of profile.recordCounters) {
    const records = readRecords(data, rc.oid, rc.name, rc.lengthAt);
    if (!records) continue;
    for (const r of records) {
      const code = rc.codes[r.code];
      if (code) add(code.field, slug(code.name), code.name, rc.oid, r.value, `${rc.name}, record ${r.code} ${code.name}`, true);
    }
  }

  for (const table of profile.counterTables) {
    const names = table.nameColumn ? data.column(table.nameColumn) : null;
    const typeColumns = (table.typeColumns ?? (table.typeColumn ? [table.typeColumn] : [])).map((c) => data.column(c));
    // Keys match case-insensitively, so a size's name matches however the device writes it.
    const rows = new Map(Object.entries(table.rows).map(([k, v]) => [k.toLowerCase(), v]));
    const wildcards = [...rows.keys()].filter((k) => k.includes('*')).map((k) => ({ parts: k.split('.'), key: k }));
    for (const row of data.column(table.valueColumn).keys()) {
      const oid = `${table.valueColumn}.${row}`;
      const types = typeColumns.map((column) => typeValue(data, column.get(row)));
      if (types.some((t) => t === null)) continue;
      const typeKey = types.length ? types.join('.') : null;
      const sized = table.sizeNames ? rowWithSizeName(data, row, table.sizeNames) : null;
      if (table.sizeNames && sized === null) continue; // a size the device does not name is no size we can count
      const key = (typeKey ?? sized ?? row).toLowerCase();
      const keys = [...(rows.has(key) ? [key] : []), ...wildcards.filter((w) => matches(w.parts, key)).map((w) => w.key)];
      const field = keys.length ? [...new Set(keys.flatMap((k) => rows.get(k) ?? []))] : undefined;
      const value = nonNegative(data, oid, 'vendor counter');
      if (value === null) continue;
      const nameVb = names?.get(row);
      const name = (nameVb && data.varbindText(nameVb, 'vendor counter name')) || (typeKey ? `type ${typeKey}` : `counter ${sized ?? row}`);
      add(field, slug(name), name, oid, value, `row ${keys[0] ?? key}${nameVb ? ` "${name}"` : ''}`);
    }
  }

  const fed = (c: ResolvedProfile['counters'][number]): boolean => [c.field ?? []].flat().some((f) => sums.has(f) || recordSums.has(f));
  for (const c of profile.counters) if (c.fallback && !fed(c)) scalar(c);
  for (const [k, v] of recordSums) {
    sums.set(k, v);
    from.set(k, recordFrom.get(k) ?? []);
  }

  const marker = firstMarkerRow(data);
  const lifeOid = marker ? `${PRT.markerLifeCount}.${marker}` : null;
  const life = lifeOid ? nonNegative(data, lifeOid, 'prtMarkerLifeCount') : null;
  const powerOn = marker ? nonNegative(data, `${PRT.markerPowerOnCount}.${marker}`, 'prtMarkerPowerOnCount') : null;
  const unitCode = marker ? data.int(`${PRT.markerCounterUnit}.${marker}`, 'prtMarkerCounterUnit') : null;
  const field = (f: CounterField): number | null => sums.get(f) ?? null;
  // Where the maker's black and colour counters count an A3 page as two, the pages are those less the A3 pages once.
  const pages = (whole: CounterField, a3: CounterField): number | null => {
    const n = field(whole);
    const large = field(a3);
    return profile.a3CountedTwice && n !== null && large !== null && large <= n ? n - large : n;
  };
  const sources: Partial<Record<SourcedCounter, string>> = {};
  for (const [f, list] of from) sources[f] = cut(list.join(' + '));
  if (profile.a3CountedTwice) {
    for (const [whole, a3] of [['mono', 'a3Bw'], ['color', 'a3Color']] as const) {
      if (sources[whole] && sums.has(a3)) sources[whole] = cut(`${sources[whole]} − ${a3} once (A3 counted twice)`);
    }
  }
  // The billing total is the vendor's own where the device has one; the marker's life count is kept beside it.
  const vendorTotal = field('total');
  const total = vendorTotal ?? life;
  if (vendorTotal === null && life !== null && lifeOid) sources.total = `${lifeOid} (${LIFE_COUNT_SOURCE})`;
  if (powerOn !== null && marker) sources.powerOn = `${PRT.markerPowerOnCount}.${marker} (Printer-MIB: prtMarkerPowerOnCount)`;
  const counters = completeCounters({
    total,
    totalUnit: vendorTotal === null && life !== null && unitCode !== null ? (COUNTER_UNITS[unitCode] ?? null) : null,
    markerTotal: life,
    vendorTotal,
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
    sources,
    splitMismatch: null,
  });
  return { ...counters, splitMismatch: splitMismatch(counters) };
}

const cut = (text: string): string => (text.length > SOURCE_MAX ? `${text.slice(0, SOURCE_MAX - 1)}…` : text);

/** Black-and-white and colour, both read, that do not add up to the billing total: the reading says so with both figures. */
function splitMismatch(c: ReadingCounters): ReadingCounters['splitMismatch'] {
  if (c.total === null || c.mono === null || c.color === null) return null;
  if (c.derived.includes('mono') || c.derived.includes('color')) return null;
  return c.mono + c.color === c.total ? null : { total: c.total, monoPlusColor: c.mono + c.color };
}

/**
 * A monochrome device's black-and-white pages are its pages: its total, and its A3 and A4 pages,
 * each marked as derived, where the device gives no black-and-white count of its own.
 */
export function monoDeviceCounters(c: ReadingCounters, colorType: 'MONO' | 'COLOR' | null): ReadingCounters {
  if (colorType !== 'MONO') return c;
  const out: ReadingCounters = { ...c, derived: [...c.derived], sources: { ...c.sources } };
  const same = (field: 'mono' | 'a3Bw' | 'a4Bw', whole: number | null, rule: CounterRule) => {
    if (out[field] !== null || whole === null) return;
    out[field] = whole;
    out.derived.push(field);
    out.sources[field] = COUNTER_RULES[rule];
  };
  same('mono', c.total, 'monoDevice');
  same('a3Bw', c.a3, 'monoDeviceA3');
  same('a4Bw', c.a4, 'monoDeviceA4');
  return out;
}

/**
 * The counters a device did not report but its others imply: a size's pages as the sum of its
 * black-and-white and colour pages (exact), and, marked as derived, colour as total − black
 * (or black as total − colour) and A4 as total − A3. A difference that would be negative is no
 * counter: the device counts in other units (sides, A3 as two), and the field stays unknown.
 */
export function completeCounters(c: ReadingCounters): ReadingCounters {
  const out: ReadingCounters = { ...c, derived: [...c.derived], sources: { ...c.sources } };
  const sum = (field: 'a3' | 'a4', a: number | null, b: number | null, how: string) => {
    if (out[field] !== null || a === null || b === null) return;
    out[field] = a + b;
    out.sources[field] = how;
  };
  sum('a3', c.a3Bw, c.a3Color, COUNTER_RULES.a3FromParts);
  sum('a4', c.a4Bw, c.a4Color, COUNTER_RULES.a4FromParts);
  const derive = (field: DerivedCounter, whole: number | null, part: number | null, how: string) => {
    if (out[field] !== null || whole === null || part === null || part > whole) return;
    out[field] = whole - part;
    out.derived.push(field);
    out.sources[field] = how;
  };
  derive('color', out.total, out.mono, COUNTER_RULES.totalLessMono);
  derive('mono', out.total, out.color, COUNTER_RULES.totalLessColor);
  derive('a4Bw', out.mono, out.a3Bw, COUNTER_RULES.monoLessA3);
  derive('a4Color', out.color, out.a3Color, COUNTER_RULES.colorLessA3);
  // A4 as its two parts where they are known (derived if either is), else as total − A3.
  if (out.a4 === null && out.a4Bw !== null && out.a4Color !== null) {
    out.a4 = out.a4Bw + out.a4Color;
    const derived = out.derived.includes('a4Bw') || out.derived.includes('a4Color');
    if (derived) out.derived.push('a4');
    out.sources.a4 = derived ? COUNTER_RULES.a4FromDerivedParts : COUNTER_RULES.a4FromParts;
  }
  derive('a4', out.total, out.a3, COUNTER_RULES.totalLessA3);
  return out;
}
