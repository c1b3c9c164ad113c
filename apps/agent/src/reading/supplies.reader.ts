import type { ReadingSupply } from '@pagewatch/contracts/reading';
import type { ResolvedProfile } from '../profiles/profile-registry.ts';
import { computeLevel } from './level.ts';
import type { MibData } from './mib-data.ts';
import { COLORANT_WORDS, PRT, SUPPLY_TYPES, SUPPLY_UNITS, TYPE_FROM_DESCRIPTION } from './printer-mib.ts';
import { decodeDescription, splitSupplyDescription } from './text-decode.ts';

const COLUMNS = [PRT.supplyType, PRT.supplyDescription, PRT.supplyMaxCapacity, PRT.supplyLevel];

/** Row indexes "<hrDeviceIndex>.<supplyIndex>" present in any column, in walk order. */
function rowIndexes(data: MibData): string[] {
  const rows = new Set<string>();
  for (const column of COLUMNS) for (const index of data.column(column).keys()) rows.add(index);
  return [...rows].filter((index) => /^\d+\.\d+$/.test(index));
}

function inferType(description: string): string | null {
  return TYPE_FROM_DESCRIPTION.find(([re]) => re.test(description))?.[1] ?? null;
}

function colorantFromWords(description: string): string | null {
  return COLORANT_WORDS.find(([re]) => re.test(description))?.[1] ?? null;
}

function readDescription(data: MibData, row: string, supplyIndex: string, profile: ResolvedProfile): string {
  const vb = data.get(`${PRT.supplyDescription}.${row}`);
  let text = '';
  if (vb?.type === 'octets' && vb.value instanceof Uint8Array) text = decodeDescription(vb.value);
  else if (vb) data.varbindText(vb, `supply ${supplyIndex} description`);
  if (!text && profile.fallbackDescriptionColumn) {
    text = data.text(`${profile.fallbackDescriptionColumn}.${supplyIndex}`, `supply ${supplyIndex} description`) ?? '';
  }
  return text;
}

/** How much of a supply's row the printer filled in: its type, description, capacity and level. */
const filledIn = (data: MibData, row: string) => COLUMNS.filter((column) => data.get(`${column}.${row}`)?.value != null).length;

/**
 * The rows to read, one per supply index. The table is indexed by hrDeviceIndex too, so a walk
 * may hold one supply index under two devices (a second marker, or a stray row); the server
 * keeps one supply per index, so the agent keeps the row the printer filled in most (the first
 * on a tie) and says what it left out.
 */
function supplyRows(data: MibData): string[] {
  const kept = new Map<string, { row: string; filled: number }>();
  for (const row of rowIndexes(data)) {
    const index = row.split('.')[1]!;
    const filled = filledIn(data, row);
    const other = kept.get(index);
    if (!other) kept.set(index, { row, filled });
    else {
      const [keep, drop] = filled > other.filled ? [{ row, filled }, other] : [other, { row, filled }];
      kept.set(index, keep);
      data.problem(`supply ${index} is listed under two devices (${keep.row}, ${drop.row}): ${drop.row} is left out`);
    }
  }
  return [...kept.values()].map((k) => k.row);
}

/** prtMarkerSuppliesTable as supplies, with the profile's level quirks applied. */
export function readSupplies(data: MibData, profile: ResolvedProfile, model: string | null): ReadingSupply[] {
  const useCodes = profile.levelCodes.length > 0 && !(model && profile.levelCodesExceptModel?.test(model));
  const supplies: ReadingSupply[] = [];
  for (const row of supplyRows(data)) {
    const [device, supplyIndexText] = row.split('.') as [string, string];
    const index = Number(supplyIndexText);
    const what = `supply ${index}`;
    const text = readDescription(data, row, supplyIndexText, profile);
    const { description, partNumber, partSerialNumber } = splitSupplyDescription(text, profile.partNumberPattern ?? undefined);

    const typeCode = data.int(`${PRT.supplyType}.${row}`, `${what} type`);
    const deviceType = typeCode === null ? null : (SUPPLY_TYPES[typeCode] ?? null);
    const guessed = deviceType === null || deviceType === 'other' || deviceType === 'unknown' ? inferType(description) : null;
    const type = guessed ?? deviceType ?? 'unknown';

    const classCode = data.int(`${PRT.supplyClass}.${row}`, `${what} class`);
    const unitCode = data.int(`${PRT.supplyUnit}.${row}`, `${what} unit`);
    const maxCapacity = data.int(`${PRT.supplyMaxCapacity}.${row}`, `${what} max capacity`);
    let level = data.int(`${PRT.supplyLevel}.${row}`, `${what} level`);
    let levelOid = `${PRT.supplyLevel}.${row}`;
    // Ricoh-style private level column, used when the Printer-MIB level is missing or 0.
    if ((level === null || level === 0) && profile.fallbackLevelColumn) {
      const fallback = data.int(`${profile.fallbackLevelColumn}.${supplyIndexText}`, `${what} private level`);
      if (fallback !== null) {
        level = fallback;
        levelOid = `${profile.fallbackLevelColumn}.${supplyIndexText}`;
      }
    }

    const code = useCodes ? profile.levelCodes.find((c) => c.level === level) : undefined;
    const rule = levelOid.startsWith(PRT.supplyLevel) ? 'Printer-MIB: prtMarkerSuppliesLevel' : `${profile.id}: private level column`;
    const computed = code
      ? { levelState: code.state, percent: code.percent }
      : computeLevel(level, maxCapacity, true);

    const colorantIndex = data.int(`${PRT.supplyColorantIndex}.${row}`, `${what} colorant index`);
    const colorantText = colorantIndex && colorantIndex > 0 ? data.text(`${PRT.colorantValue}.${device}.${colorantIndex}`, `${what} colorant`) : null;
    const colorant = colorantText?.toLowerCase() ?? colorantFromWords(description);

    if (level === null) data.problem(`${what} (${description || 'no description'}) has no level`);
    supplies.push({
      index,
      type,
      typeInferred: guessed !== null,
      supplyClass: classCode === 3 ? 'consumed' : classCode === 4 ? 'filled' : null,
      description: description || `Supply ${index}`,
      colorant: colorant && colorant !== 'unknown' && colorant !== 'other' ? colorant : null,
      partNumber,
      partSerialNumber,
      unit: unitCode === null ? null : (SUPPLY_UNITS[unitCode] ?? null),
      level,
      maxCapacity,
      levelState: computed.levelState,
      percent: computed.percent,
      source: level === null ? null : `${levelOid} (${code ? `${profile.id}: level code ${level}` : rule})`,
    });
  }
  return supplies;
}
