import { TAG, encodeVarbind } from '@pagewatch/snmp/ber-codec';
import type { WireValue } from '@pagewatch/snmp/ber-codec';
import { TICK_MS } from './printer-state.ts';
import type { SimPrinter } from './printer-state.ts';
import type { MibSink, VendorMib } from './vendor-mibs.ts';

export type MibEntry = { oid: string; arcs: number[]; encoded: Buffer };

function compareArcs(a: number[], b: number[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return a.length - b.length;
}

export const oidArcs = (oid: string): number[] => oid.replace(/^\./, '').split('.').map(Number);

/** A printer's MIB at one moment: sorted, with every varbind already encoded. */
export class MibView {
  readonly entries: MibEntry[];
  private readonly byOid = new Map<string, MibEntry>();

  constructor(entries: MibEntry[]) {
    this.entries = entries.sort((a, b) => compareArcs(a.arcs, b.arcs));
    for (const e of this.entries) this.byOid.set(e.oid, e);
  }

  get(oid: string): MibEntry | undefined {
    return this.byOid.get(oid);
  }

  /** Index of the first entry strictly after `oid` (entries.length at the end of the MIB). */
  nextIndex(oid: string): number {
    const arcs = oidArcs(oid);
    let lo = 0;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compareArcs(this.entries[mid]!.arcs, arcs) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

const HR_PRINTER = '1.3.6.1.2.1.25.3.1.5';
const HR_OTHER = '1.3.6.1.2.1.25.3.1.1';
const SUPPLY_TYPE = { toner: 3, drum: 9, waste: 4, fuser: 15 } as const;

/** Builds the MIB: RFC 1213 system/interfaces, Host-Resources, Printer-MIB, then the vendor's. */
export function buildView(p: SimPrinter, ip: string, vendor: VendorMib, location: string): MibView {
  const entries: MibEntry[] = [];
  const add: MibSink = (oid: string, tag: number, value: WireValue) => {
    entries.push({ oid, arcs: oidArcs(oid), encoded: encodeVarbind({ oid, tag, value }) });
  };
  const text = (oid: string, value: string): void => add(oid, TAG.octets, value);
  const int = (oid: string, value: number): void => add(oid, TAG.integer, value);
  const m = p.model;
  const name = `${m.vendorName} ${m.model}`;
  const uptime = ((p.bootTicksAgo + p.tick) * TICK_MS) / 10;

  text('1.3.6.1.2.1.1.1.0', vendor.sysDescr(p));
  add('1.3.6.1.2.1.1.2.0', TAG.oid, vendor.sysObjectID);
  add('1.3.6.1.2.1.1.3.0', TAG.timeticks, uptime);
  text('1.3.6.1.2.1.1.4.0', 'it-support@example.com');
  text('1.3.6.1.2.1.1.5.0', p.hostName);
  text('1.3.6.1.2.1.1.6.0', location);
  int('1.3.6.1.2.1.1.7.0', 72);
  int('1.3.6.1.2.1.2.1.0', 1);
  int('1.3.6.1.2.1.2.2.1.1.1', 1);
  text('1.3.6.1.2.1.2.2.1.2.1', 'eth0');
  int('1.3.6.1.2.1.2.2.1.3.1', 6);
  add('1.3.6.1.2.1.2.2.1.5.1', TAG.gauge32, 1_000_000_000);
  add('1.3.6.1.2.1.2.2.1.6.1', TAG.octets, p.mac);
  int('1.3.6.1.2.1.2.2.1.8.1', 1);
  add(`1.3.6.1.2.1.4.20.1.1.${ip}`, TAG.ip, ip);
  int(`1.3.6.1.2.1.4.20.1.2.${ip}`, 1);
  add(`1.3.6.1.2.1.4.20.1.3.${ip}`, TAG.ip, '255.255.255.0');
  add('1.3.6.1.2.1.25.1.1.0', TAG.timeticks, uptime);

  // hrDeviceTable: the printer, and the scanner of an MFP.
  const devices: Array<[number, string, string]> = [[1, HR_PRINTER, name]];
  if (m.type === 'MFP') devices.push([2, HR_OTHER, `${m.vendorName} Scanner`]);
  for (const [i, type, descr] of devices) {
    int(`1.3.6.1.2.1.25.3.2.1.1.${i}`, i);
    add(`1.3.6.1.2.1.25.3.2.1.2.${i}`, TAG.oid, type);
    text(`1.3.6.1.2.1.25.3.2.1.3.${i}`, descr);
    int(`1.3.6.1.2.1.25.3.2.1.5.${i}`, i === 1 ? p.deviceStatus() : 2);
  }
  int('1.3.6.1.2.1.25.3.5.1.1.1', p.printerStatus());
  add('1.3.6.1.2.1.25.3.5.1.2.1', TAG.octets, errorBytes(p.errorBits()));

  text('1.3.6.1.2.1.43.5.1.1.16.1', name);
  text('1.3.6.1.2.1.43.5.1.1.17.1', p.serial);
  for (const t of p.trays) {
    const col = (c: number): string => `1.3.6.1.2.1.43.8.2.1.${c}.1.${t.index}`;
    int(col(2), 4);
    int(col(3), 4); // micrometers
    int(col(4), t.a3 ? 420_000 : 297_000);
    int(col(5), t.a3 ? 297_000 : 210_000);
    int(col(8), 8); // sheets
    int(col(9), t.capacity);
    int(col(10), t.level);
    text(col(12), t.a3 ? 'A3' : 'A4');
    text(col(13), t.name);
    text(col(18), t.a3 ? 'Cassette A3' : 'Cassette');
  }
  const marker = (c: number): string => `1.3.6.1.2.1.43.10.2.1.${c}.1.1`;
  int(marker(2), 4); // electrophotographicLaser
  int(marker(3), 7); // impressions
  add(marker(4), TAG.counter32, p.totalPages);
  add(marker(5), TAG.counter32, p.counters.powerOn);
  int(marker(6), m.color ? 4 : 1);

  const colorants = m.color ? ['black', 'cyan', 'magenta', 'yellow'] : ['black'];
  colorants.forEach((c, i) => {
    int(`1.3.6.1.2.1.43.12.1.1.2.1.${i + 1}`, 1);
    int(`1.3.6.1.2.1.43.12.1.1.3.1.${i + 1}`, 3);
    text(`1.3.6.1.2.1.43.12.1.1.4.1.${i + 1}`, c);
  });
  for (const s of p.supplies) {
    const col = (c: number): string => `1.3.6.1.2.1.43.11.1.1.${c}.1.${s.index}`;
    const level = vendor.level(p, s);
    const type = s.spec.kind === 'toner' ? (vendor.tonerType ?? SUPPLY_TYPE.toner) : SUPPLY_TYPE[s.spec.kind];
    int(col(2), 1);
    int(col(3), s.spec.colorant ? colorants.indexOf(s.spec.colorant) + 1 : 0);
    int(col(4), s.spec.kind === 'waste' ? 4 : 3);
    int(col(5), type);
    text(col(6), s.spec.description.replace('{pn}', s.spec.partNumber).replace('{sn}', s.serial));
    int(col(7), level.unit);
    int(col(8), level.max);
    int(col(9), level.level);
  }
  text('1.3.6.1.2.1.43.16.5.1.2.1.1', p.displayText());
  vendor.privateOids(p, add);
  return new MibView(entries);
}

/** BITS: bit 0 is the top bit of the first octet; two octets as printers send them. */
function errorBytes(bits: number[]): Uint8Array {
  const out = new Uint8Array(2);
  for (const b of bits) out[b >> 3] |= 0x80 >> (b & 7);
  return out;
}
