/**
 * Typed SNMP values as the reading code sees them, independent of the net-snmp library, so
 * the decoding can be tested (and fuzzed) without a network.
 */
export type VarbindType =
  | 'integer' | 'octets' | 'oid' | 'ip' | 'counter32' | 'gauge32' | 'timeticks' | 'counter64'
  | 'opaque' | 'null' | 'noSuchObject' | 'noSuchInstance' | 'endOfMibView' | 'unknown';

export type VarbindValue = number | bigint | string | Uint8Array | null;

export type Varbind = {
  /** Numeric OID without a leading dot. */
  oid: string;
  type: VarbindType;
  value: VarbindValue;
};

const EXCEPTIONS: ReadonlySet<VarbindType> = new Set(['noSuchObject', 'noSuchInstance', 'endOfMibView']);

export function isException(vb: Varbind): boolean {
  return EXCEPTIONS.has(vb.type);
}

export function normaliseOid(oid: string): string {
  return oid.startsWith('.') ? oid.slice(1) : oid;
}

export function isValidOid(oid: string): boolean {
  return /^\d+(\.\d+)*$/.test(oid);
}

/** Numeric, arc-by-arc order, the order SNMP walks in. */
export function compareOids(a: string, b: string): number {
  const x = a.split('.');
  const y = b.split('.');
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    const d = Number(x[i]) - Number(y[i]);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return x.length - y.length;
}

/** True when `oid` lies strictly inside the subtree `root`. */
export function isUnder(oid: string, root: string): boolean {
  return oid.startsWith(root + '.');
}
