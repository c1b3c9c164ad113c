import { cutText } from '@pagewatch/contracts/fields';
import { compareOids, isException, isUnder, isValidOid, normaliseOid } from '../snmp/varbind.ts';
import type { Varbind } from '../snmp/varbind.ts';
import { decodeText } from './text-decode.ts';

/**
 * Everything read from one device, indexed by OID, with readers that coerce values and note a
 * problem instead of throwing when the device sends the wrong type.
 */
export class MibData {
  readonly problems: string[];
  private readonly byOid = new Map<string, Varbind>();
  private sorted: string[] | null = null;

  constructor(varbinds: Iterable<unknown>, problems: string[] = []) {
    this.problems = problems;
    for (const candidate of varbinds) {
      const vb = sanitiseVarbind(candidate);
      if (!vb) {
        this.problem('ignored a malformed varbind');
        continue;
      }
      if (!isException(vb)) this.byOid.set(vb.oid, vb);
    }
  }

  /** Adds a problem line, once, and keeps the list bounded against hostile agents. */
  problem(message: string): void {
    if (this.problems.length >= 200 || this.problems.includes(message)) return;
    this.problems.push(message.length > 300 ? `${cutText(message, 300)}…` : message);
  }

  get size(): number {
    return this.byOid.size;
  }

  has(oid: string): boolean {
    return this.byOid.has(oid);
  }

  get(oid: string): Varbind | undefined {
    return this.byOid.get(oid);
  }

  hasSubtree(root: string): boolean {
    for (const oid of this.byOid.keys()) if (isUnder(oid, root)) return true;
    return false;
  }

  /** Rows of one table column: index suffix (e.g. "1.3") → varbind, in OID order. */
  column(columnOid: string): Map<string, Varbind> {
    const rows = new Map<string, Varbind>();
    const prefix = columnOid + '.';
    for (const oid of this.sortedOids()) {
      if (oid.startsWith(prefix)) rows.set(oid.slice(prefix.length), this.byOid.get(oid) as Varbind);
    }
    return rows;
  }

  /** An integer, or null (with a problem) when the value is missing or not a number. */
  int(oid: string, what: string): number | null {
    const vb = this.byOid.get(oid);
    if (!vb) return null;
    const n = varbindToNumber(vb);
    if (n === null) this.problem(`${what} (${oid}) is not a number (${vb.type})`);
    return n;
  }

  /** Decoded, cleaned text; null when missing, empty or not text. */
  text(oid: string, what: string): string | null {
    const vb = this.byOid.get(oid);
    if (!vb) return null;
    return this.varbindText(vb, what);
  }

  varbindText(vb: Varbind, what: string): string | null {
    if (vb.type === 'octets' && vb.value instanceof Uint8Array) return decodeText(vb.value) || null;
    if ((vb.type === 'oid' || vb.type === 'ip') && typeof vb.value === 'string') return vb.value;
    if (vb.type === 'integer' && typeof vb.value === 'number') return String(vb.value);
    this.problem(`${what} (${vb.oid}) is not text (${vb.type})`);
    return null;
  }

  private sortedOids(): string[] {
    this.sorted ??= [...this.byOid.keys()].sort(compareOids);
    return this.sorted;
  }
}

/** Any numeric SNMP value as a safe JS integer, or null. */
export function varbindToNumber(vb: Varbind): number | null {
  const { type, value } = vb;
  if (type === 'integer' || type === 'counter32' || type === 'gauge32' || type === 'timeticks') {
    return typeof value === 'number' && Number.isSafeInteger(value) ? value : null;
  }
  // Some agents (Zebra, older Kyocera) send counters as digits in an OCTET STRING.
  if (type === 'octets' && value instanceof Uint8Array && value.length > 0 && value.length <= 20) {
    const text = new TextDecoder('latin1').decode(value).trim();
    if (/^-?\d{1,15}$/.test(text)) return Number(text);
    return null;
  }
  if (type === 'counter64') {
    if (typeof value === 'bigint' && value >= 0n && value <= BigInt(Number.MAX_SAFE_INTEGER)) return Number(value);
    if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
    return null;
  }
  return null;
}

const TYPES = new Set([
  'integer', 'octets', 'oid', 'ip', 'counter32', 'gauge32', 'timeticks', 'counter64', 'opaque',
  'null', 'noSuchObject', 'noSuchInstance', 'endOfMibView', 'unknown',
]);

/** Accepts only well-formed varbinds, so nothing downstream meets a surprise shape. */
function sanitiseVarbind(candidate: unknown): Varbind | null {
  if (typeof candidate !== 'object' || candidate === null) return null;
  const { oid, type, value } = candidate as Record<string, unknown>;
  if (typeof oid !== 'string' || typeof type !== 'string' || !TYPES.has(type)) return null;
  const normalised = normaliseOid(oid);
  if (normalised.length > 1000 || !isValidOid(normalised)) return null;
  const ok =
    value === null ||
    typeof value === 'number' ||
    typeof value === 'bigint' ||
    typeof value === 'string' ||
    value instanceof Uint8Array;
  if (!ok) return null;
  return { oid: normalised, type: type as Varbind['type'], value: value as Varbind['value'] };
}
