import type { ReadingSupply } from '@pagewatch/contracts/reading';
import type { ResolvedProfile } from '../profiles/profile-registry.ts';
import type { MibData } from './mib-data.ts';
import { readRecords } from './vendor-records.ts';

/** A supply the record gives the level of, before it is matched to a Printer-MIB row. */
type RecordLevel = { code: string; name: string; type: string; colorant: string | null; percent: number; source: string };

/** Supply types that are one thing under two names (a toner and its cartridge). */
const FAMILY: Record<string, string> = { tonerCartridge: 'toner', ink: 'inkCartridge' };
const family = (type: string): string => FAMILY[type] ?? type;

/** Where a supply read from a record, without a Printer-MIB row of its own, is numbered: past any row's index. */
export const RECORD_SUPPLY_INDEX_BASE = 1000;

function recordLevels(data: MibData, profile: ResolvedProfile, model: string | null): RecordLevel[] {
  const levels: RecordLevel[] = [];
  for (const rs of profile.recordSupplies) {
    if (rs.model && !new RegExp(rs.model, 'i').test(model ?? '')) continue;
    const records = readRecords(data, rs.oid, rs.name, rs.lengthAt) ?? [];
    for (const r of records) {
      const code = rs.codes[r.code];
      if (!code) continue;
      const percent = Math.round(r.value / code.scale);
      if (percent > 100) {
        data.problem(`${rs.name} (${rs.oid}): record ${r.code} ${code.name} is ${r.value}, more than 100 %`);
        continue;
      }
      const source = `${rs.oid} (${profile.id}: ${rs.name}, record ${r.code} ${code.name})`;
      levels.push({ code: r.code, name: code.name, type: code.type, colorant: code.colorant ?? null, percent, source });
    }
  }
  return levels;
}

/**
 * The levels of the profile's record supplies (Brother's maintenance record) laid over the
 * Printer-MIB supplies: a row of the record supply's type and colorant takes the record's
 * percentage and says so in `source` (a row without a colorant, where its type has none on any
 * row, takes the lowest of its type's records: one drum unit with a drum per colour is as worn
 * as its most worn drum). A record supply with no row is added, numbered past the rows.
 */
export function withRecordSupplies(data: MibData, profile: ResolvedProfile, model: string | null, supplies: ReadingSupply[]): ReadingSupply[] {
  const levels = recordLevels(data, profile, model);
  if (!levels.length) return supplies;
  const used = new Set<RecordLevel>();
  const out = supplies.map((s) => {
    const sameType = supplies.filter((o) => family(o.type) === family(s.type));
    const anyColorant = sameType.some((o) => o.colorant !== null);
    const matched = levels.filter((l) => family(l.type) === family(s.type) && (l.colorant === s.colorant || (!anyColorant && s.colorant === null)));
    if (!matched.length) return s;
    for (const l of matched) used.add(l);
    const lowest = matched.reduce((a, b) => (b.percent < a.percent ? b : a));
    return { ...s, percent: lowest.percent, levelState: null, source: lowest.source };
  });
  for (const l of [...levels].sort((a, b) => a.code.localeCompare(b.code))) {
    if (used.has(l)) continue;
    out.push({
      index: RECORD_SUPPLY_INDEX_BASE + parseInt(l.code, 16),
      type: l.type,
      typeInferred: false,
      supplyClass: 'consumed',
      description: l.name,
      colorant: l.colorant,
      partNumber: null,
      partSerialNumber: null,
      unit: 'percent',
      level: l.percent,
      maxCapacity: 100,
      levelState: null,
      percent: l.percent,
      source: l.source,
    });
  }
  return out;
}
