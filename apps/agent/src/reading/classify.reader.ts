import { RATED_PPM_MAX, type ReadingCounters, type ReadingSupply } from '@pagewatch/contracts/reading';
import type { ResolvedProfile } from '../profiles/profile-registry.ts';
import type { Identity } from './identity.reader.ts';
import type { MibData } from './mib-data.ts';
import { HR, PRT } from './printer-mib.ts';
import { decodeRecords } from './vendor-records.ts';
import { paperFormatFromTrays, type PaperFormat } from './trays.reader.ts';

export type DeviceType = 'PRINTER' | 'MFP';
export type ColorType = 'MONO' | 'COLOR';

/** Printer MIB or an hrPrinter row is proof; a matched vendor profile is strong evidence. */
export function isPrinter(data: MibData, profile: ResolvedProfile, matched: boolean, identity: Identity): boolean {
  const text = `${identity.sysDescr ?? ''} ${identity.model ?? ''}`;
  if (profile.notPrinterPattern?.test(text)) return false;
  if (data.hasSubtree(PRT.root) || data.hasSubtree('1.3.6.1.2.1.25.3.5')) return true;
  for (const vb of data.column(HR.deviceType).values()) if (vb.value === HR.typePrinter) return true;
  return matched;
}

const MFP_DEVICE_WORDS = /scan|fax|copier|copy/i;

export function deviceType(data: MibData, profile: ResolvedProfile, identity: Identity, counters: ReadingCounters): DeviceType {
  const text = `${identity.model ?? ''} ${identity.sysDescr ?? ''}`;
  if (profile.mfpPattern?.test(text)) return 'MFP';
  for (const vb of data.column(HR.deviceDescr).values()) {
    const descr = data.varbindText(vb, 'hrDeviceDescr');
    if (descr && MFP_DEVICE_WORDS.test(descr)) return 'MFP';
  }
  if ((counters.copies ?? 0) > 0 || (counters.scans ?? 0) > 0 || (counters.fax ?? 0) > 0) return 'MFP';
  return 'PRINTER';
}

const COLOR_WORDS = new Set(['cyan', 'magenta', 'yellow']);

/** A vendor counter record (with a colour code) that has no colour entry: a monochrome device's, null where there is no such record. */
function recordSaysMono(data: MibData, profile: ResolvedProfile): boolean | null {
  for (const rc of profile.recordCounters) {
    const vb = data.get(rc.oid);
    if (!rc.colorCode || vb?.type !== 'octets' || !(vb.value instanceof Uint8Array)) continue;
    const { records } = decodeRecords(vb.value, rc.lengthAt);
    if (records.length) return !records.some((r) => r.code === rc.colorCode);
  }
  return null;
}

/**
 * Colour or monochrome: the Printer-MIB's colorants and supplies, the colour pages; then the
 * model's name as the pack reads it (Brother's C), and the vendor's counter record.
 */
export function colorType(data: MibData, supplies: ReadingSupply[], counters: ReadingCounters, profile: ResolvedProfile, model: string | null): ColorType | null {
  // prtMarkerProcessColorants: the number of colorants the marker uses.
  const colorants = [...data.column(PRT.markerProcessColorants).values()]
    .map((vb) => (typeof vb.value === 'number' ? vb.value : 0));
  if (colorants.some((n) => n >= 2)) return 'COLOR';
  if (supplies.some((s) => s.colorant !== null && COLOR_WORDS.has(s.colorant))) return 'COLOR';
  if ((counters.color ?? 0) > 0) return 'COLOR';
  if (colorants.some((n) => n === 1)) return 'MONO';
  if (supplies.some((s) => /toner|ink/i.test(s.type) && !/waste/i.test(s.type))) return 'MONO';
  if (model && profile.colorModelPattern?.test(model)) return 'COLOR';
  if (model && profile.monoModelPattern?.test(model)) return 'MONO';
  if (recordSaysMono(data, profile)) return 'MONO';
  return null;
}

export function paperFormat(data: MibData, profile: ResolvedProfile, identity: Identity): PaperFormat | null {
  const fromTrays = paperFormatFromTrays(data);
  if (fromTrays) return fromTrays;
  if (profile.a3Pattern && identity.model && profile.a3Pattern.test(identity.model)) return 'A3';
  return null;
}

/** The rated speed the model's name carries (the profile's speedPattern: the first group that matched), or null. */
export function ratedSpeed(profile: ResolvedProfile, identity: Identity): number | null {
  const m = identity.model ? profile.speedPattern?.exec(identity.model) : null;
  const ppm = Number(m?.slice(1).find((g) => g !== undefined));
  return Number.isInteger(ppm) && ppm >= 1 && ppm <= RATED_PPM_MAX ? ppm : null;
}
