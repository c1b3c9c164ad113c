import type { TextSource } from '@pagewatch/contracts/models-pack';
import type { ResolvedProfile } from '../profiles/profile-registry.ts';
import type { MibData } from './mib-data.ts';
import { HR, IF_PHYS_ADDRESS, SYS } from './printer-mib.ts';
import { cleanText, ieee1284Value, macFromBytes } from './text-decode.ts';

export type Identity = {
  sysObjectID: string | null;
  sysDescr: string | null;
  vendor: string | null;
  model: string | null;
  serialNumber: string | null;
  macAddress: string | null;
  firmware: string | null;
  hostName: string | null;
  location: string | null;
};

export type TextContext = { sysDescr: string | null; sysName: string | null; hrDeviceDescr: string | null };

const regexCache = new Map<string, RegExp>();
function cachedRegex(source: string, flags: string): RegExp {
  const key = `${flags}/${source}`;
  let r = regexCache.get(key);
  if (!r) {
    r = new RegExp(source, flags);
    regexCache.set(key, r);
  }
  return r;
}

/** Placeholders devices send instead of a value. */
const EMPTY_VALUES = /^(?:unknown|none|n\/a|null|-+|0+|\?+|<private>)$/i;

/** The first source that gives a usable value (one `accept` takes, if given), following the profile's order. */
export function readTextSources(data: MibData, sources: TextSource[], ctx: TextContext, accept?: (value: string) => boolean): string | null {
  for (const source of sources) {
    let value = source.oid !== undefined ? data.text(source.oid, 'text value') : ctx[source.from ?? 'sysDescr'];
    if (!value) continue;
    if (source.ieee1284) value = ieee1284Value(value, source.ieee1284);
    if (value && source.pattern) {
      const m = cachedRegex(source.pattern, 'i').exec(value);
      value = m ? (m[1] ?? m[0]) : null;
    }
    if (value && source.strip) value = value.replace(cachedRegex(source.strip, 'gi'), '');
    value = value ? cleanText(value) : null;
    if (value && !EMPTY_VALUES.test(value) && (!accept || accept(value))) return value;
  }
  return null;
}

const alnum = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');

/**
 * Whether a text has the shape of a serial number: one word of letters, digits and a few
 * separators, with a digit in it, and not the device's model (a Sharp MFP gives its model name
 * at the OID its vendor documents for the serial).
 */
export function looksLikeSerial(value: string, model: string | null): boolean {
  if (!/^[A-Za-z0-9][A-Za-z0-9._/#-]{2,}$/.test(value) || !/\d/.test(value)) return false;
  return !model || alnum(value) !== alnum(model);
}

/** hrDeviceDescr of the printer in hrDeviceTable (the first row when no row says printer). */
export function printerDeviceIndex(data: MibData): string | null {
  const types = data.column(HR.deviceType);
  for (const [index, vb] of types) if (vb.type === 'oid' && vb.value === HR.typePrinter) return index;
  const descr = data.column(HR.deviceDescr);
  return descr.keys().next().value ?? types.keys().next().value ?? null;
}

function firstMac(data: MibData): string | null {
  for (const vb of data.column(IF_PHYS_ADDRESS).values()) {
    if (vb.type === 'octets' && vb.value instanceof Uint8Array) {
      const mac = macFromBytes(vb.value);
      if (mac) return mac;
    }
  }
  return null;
}

function stripVendor(model: string | null, vendor: string | null): string | null {
  if (!model || !vendor) return model;
  const lower = model.toLowerCase();
  const v = vendor.toLowerCase();
  const stripped = lower.startsWith(v + ' ') ? model.slice(vendor.length).trim() : model;
  return stripped || model;
}

export function readIdentity(data: MibData, profile: ResolvedProfile): { identity: Identity; ctx: TextContext } {
  const sysDescr = data.text(SYS.descr, 'sysDescr');
  const sysObjectIdVb = data.get(SYS.objectId);
  let sysObjectID: string | null = null;
  if (sysObjectIdVb) {
    if (sysObjectIdVb.type === 'oid' && typeof sysObjectIdVb.value === 'string') sysObjectID = sysObjectIdVb.value.replace(/^\./, '');
    else data.problem(`sysObjectID is not an OID (${sysObjectIdVb.type})`);
  }
  const sysName = data.text(SYS.name, 'sysName');
  const printerIndex = printerDeviceIndex(data);
  const hrDeviceDescr = printerIndex === null ? null : data.text(`${HR.deviceDescr}.${printerIndex}`, 'hrDeviceDescr');
  const ctx: TextContext = { sysDescr, sysName, hrDeviceDescr };
  const vendor = profile.vendor;
  const model = stripVendor(readTextSources(data, profile.model, ctx), vendor);
  const identity: Identity = {
    sysObjectID,
    sysDescr,
    vendor,
    model,
    // A source whose text is no serial gives way to the next (the Printer MIB's in the end).
    serialNumber: readTextSources(data, profile.serialNumber, ctx, (v) => looksLikeSerial(v, model)),
    macAddress: firstMac(data),
    firmware: readTextSources(data, profile.firmware, ctx),
    hostName: readTextSources(data, profile.hostName, ctx) ?? (sysName && !EMPTY_VALUES.test(sysName) ? sysName : null),
    location: data.text(SYS.location, 'sysLocation'),
  };
  return { identity, ctx };
}
