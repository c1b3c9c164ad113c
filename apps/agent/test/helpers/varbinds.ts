import type { Varbind } from '../../src/snmp/varbind.ts';

const TAGS: Record<string, Varbind['type']> = {
  '2': 'integer', '4': 'octets', '4x': 'octets', '5': 'null', '6': 'oid', '64': 'ip',
  '65': 'counter32', '66': 'gauge32', '67': 'timeticks', '70': 'counter64',
};

/** Varbinds from snmprec-style lines (`OID|tag|value`), to describe small test devices. */
export function varbinds(text: string): Varbind[] {
  return text
    .trim()
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [oid, tag, ...rest] = line.split('|') as [string, string, ...string[]];
      const raw = rest.join('|');
      const type = TAGS[tag] ?? 'unknown';
      if (tag === '4x') return { oid, type, value: Uint8Array.from(raw.match(/../g) ?? [], (h) => parseInt(h, 16)) };
      if (tag === '4') return { oid, type, value: new TextEncoder().encode(raw) };
      if (tag === '6' || tag === '64') return { oid, type, value: raw };
      if (tag === '70') return { oid, type, value: BigInt(raw) };
      if (tag === '5') return { oid, type, value: null };
      return { oid, type, value: Number(raw) };
    });
}

/** A device line set: system group plus the given lines. */
export function device(sysDescr: string, sysObjectID: string, lines = ''): Varbind[] {
  return varbinds(`1.3.6.1.2.1.1.1.0|4|${sysDescr}\n1.3.6.1.2.1.1.2.0|6|${sysObjectID}\n${lines}`);
}

/** Printer-MIB supply row lines for hrDevice 1. */
export function supplyLines(index: number, type: number, description: string, max: number, level: number): string {
  const p = '1.3.6.1.2.1.43.11.1.1';
  return [`${p}.5.1.${index}|2|${type}`, `${p}.6.1.${index}|4|${description}`, `${p}.8.1.${index}|2|${max}`, `${p}.9.1.${index}|2|${level}`].join('\n');
}

/**
 * hrDevice 1 as a printer: its hrDeviceType (hrDevicePrinter), description where given, device
 * and printer status and error bits (hex) — the rows that make an SNMP device a printer.
 */
export function printerDeviceLines({ descr, deviceStatus = 2, printerStatus = 3, errorState = '00' }: {
  descr?: string; deviceStatus?: number; printerStatus?: number; errorState?: string;
} = {}): string[] {
  return [
    '1.3.6.1.2.1.25.3.2.1.2.1|6|1.3.6.1.2.1.25.3.1.5',
    ...(descr === undefined ? [] : [`1.3.6.1.2.1.25.3.2.1.3.1|4|${descr}`]),
    `1.3.6.1.2.1.25.3.2.1.5.1|2|${deviceStatus}`,
    `1.3.6.1.2.1.25.3.5.1.1.1|2|${printerStatus}`,
    `1.3.6.1.2.1.25.3.5.1.2.1|4x|${errorState}`,
  ];
}
