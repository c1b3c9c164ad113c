/**
 * A small SNMP v1/v2c message codec (BER), for the places where a session per host does not
 * fit: broadcast discovery (one request, answers from anywhere), sweeping a subnet from one
 * socket, and the simulated printers. net-snmp stays the client for polling and SNMPv3.
 */

export const PDU = {
  get: 0xa0,
  getNext: 0xa1,
  response: 0xa2,
  set: 0xa3,
  getBulk: 0xa5,
  report: 0xa8,
} as const;

/** ASN.1 / SNMP tags of varbind values. */
export const TAG = {
  integer: 0x02,
  octets: 0x04,
  null: 0x05,
  oid: 0x06,
  sequence: 0x30,
  ip: 0x40,
  counter32: 0x41,
  gauge32: 0x42,
  timeticks: 0x43,
  opaque: 0x44,
  counter64: 0x46,
  noSuchObject: 0x80,
  noSuchInstance: 0x81,
  endOfMibView: 0x82,
} as const;

export type WireValue = number | bigint | string | Uint8Array | null;
/** `value` is a number for integer types, a bigint for counter64, a dotted string for oid/ip. */
export type WireVarbind = { oid: string; tag: number; value: WireValue };

export type WirePdu = {
  type: number;
  requestId: number;
  /** For GETBULK: non-repeaters. */
  errorStatus: number;
  /** For GETBULK: max-repetitions. */
  errorIndex: number;
  varbinds: WireVarbind[];
};

/** version 0 is SNMPv1, 1 is SNMPv2c. */
export type WireMessage = { version: number; community: string; pdu: WirePdu };

export class BerError extends Error {}

// ---------------------------------------------------------------- encoding

function lengthBytes(n: number): number[] {
  if (n < 0x80) return [n];
  const out: number[] = [];
  while (n > 0) {
    out.unshift(n & 0xff);
    n = Math.floor(n / 256);
  }
  return [0x80 | out.length, ...out];
}

function tlv(tag: number, content: Uint8Array): Buffer {
  const head = lengthBytes(content.length);
  const out = Buffer.allocUnsafe(1 + head.length + content.length);
  out[0] = tag;
  for (let i = 0; i < head.length; i++) out[1 + i] = head[i]!;
  out.set(content, 1 + head.length);
  return out;
}

function signedBytes(value: number): Buffer {
  const bytes: number[] = [];
  let n = Math.trunc(value);
  // Two's complement, minimal length.
  for (;;) {
    const byte = n & 0xff;
    bytes.unshift(byte);
    n = Math.floor(n / 256);
    if ((n === 0 && (byte & 0x80) === 0) || (n === -1 && (byte & 0x80) !== 0)) break;
  }
  return Buffer.from(bytes);
}

function unsignedBytes(value: bigint): Buffer {
  const bytes: number[] = [];
  let n = value < 0n ? 0n : value;
  do {
    bytes.unshift(Number(n & 0xffn));
    n >>= 8n;
  } while (n > 0n);
  if (bytes[0]! & 0x80) bytes.unshift(0);
  return Buffer.from(bytes);
}

const oidCache = new Map<string, Buffer>();

export function encodeOid(oid: string): Buffer {
  const cached = oidCache.get(oid);
  if (cached) return cached;
  // Digits between single dots, the first arc 0 to 2 and, under 0 and 1, the second below 40:
  // anything else would go out as another OID ("1.3." as 1.3.0, 1.40 as 2.0).
  const text = oid.replace(/^\./, '');
  const arcs = text.split('.').map(Number);
  if (!/^\d+(\.\d+)+$/.test(text) || arcs.some((a) => !Number.isSafeInteger(a)) || arcs[0]! > 2 || (arcs[0]! < 2 && arcs[1]! >= 40)) throw new BerError(`bad OID ${oid}`);
  const bytes: number[] = [];
  const push = (arc: number): void => {
    const chunk: number[] = [arc & 0x7f];
    arc = Math.floor(arc / 128);
    while (arc > 0) {
      chunk.unshift((arc & 0x7f) | 0x80);
      arc = Math.floor(arc / 128);
    }
    bytes.push(...chunk);
  };
  push(arcs[0]! * 40 + arcs[1]!);
  for (let i = 2; i < arcs.length; i++) push(arcs[i]!);
  const out = tlv(TAG.oid, Buffer.from(bytes));
  if (oidCache.size < 200_000) oidCache.set(oid, out);
  return out;
}

export function encodeValue(tag: number, value: WireValue): Buffer {
  switch (tag) {
    case TAG.integer:
      return tlv(tag, signedBytes(Number(value ?? 0)));
    case TAG.counter32:
    case TAG.gauge32:
    case TAG.timeticks:
      return tlv(tag, unsignedBytes(BigInt(Math.max(0, Math.trunc(Number(value ?? 0))) % 2 ** 32)));
    case TAG.counter64:
      return tlv(tag, unsignedBytes(typeof value === 'bigint' ? value : BigInt(Math.trunc(Number(value ?? 0)))));
    case TAG.octets:
    case TAG.opaque:
      return tlv(tag, typeof value === 'string' ? Buffer.from(value, 'utf8') : value instanceof Uint8Array ? value : Buffer.alloc(0));
    case TAG.oid:
      return encodeOid(String(value));
    case TAG.ip: {
      const bytes = String(value).split('.');
      if (bytes.length !== 4 || bytes.some((b) => !/^\d{1,3}$/.test(b) || Number(b) > 255)) throw new BerError(`bad IpAddress ${String(value)}`);
      return tlv(tag, Buffer.from(bytes.map(Number)));
    }
    default:
      // null and the v2c exceptions carry no content
      return tlv(tag, Buffer.alloc(0));
  }
}

export function encodeVarbind(vb: WireVarbind): Buffer {
  return encodeSequence([encodeOid(vb.oid), encodeValue(vb.tag, vb.value)]);
}

function encodeSequence(parts: Buffer[], tag: number = TAG.sequence): Buffer {
  return tlv(tag, Buffer.concat(parts));
}

/** Encodes a PDU from varbinds already encoded (the responder caches them). */
export function encodePduRaw(pdu: Omit<WirePdu, 'varbinds'>, encodedVarbinds: Buffer[]): Buffer {
  return encodeSequence(
    [signedBytesTlv(pdu.requestId), signedBytesTlv(pdu.errorStatus), signedBytesTlv(pdu.errorIndex), encodeSequence(encodedVarbinds)],
    pdu.type,
  );
}

function signedBytesTlv(n: number): Buffer {
  return tlv(TAG.integer, signedBytes(n));
}

export function encodeMessageRaw(version: number, community: string, pdu: Buffer): Buffer {
  return encodeSequence([signedBytesTlv(version), tlv(TAG.octets, Buffer.from(community, 'latin1')), pdu]);
}

export function encodeMessage(msg: WireMessage): Buffer {
  return encodeMessageRaw(msg.version, msg.community, encodePduRaw(msg.pdu, msg.pdu.varbinds.map(encodeVarbind)));
}

// ---------------------------------------------------------------- decoding

type Tlv = { tag: number; start: number; end: number };

function readTlv(buf: Uint8Array, pos: number, limit: number): Tlv {
  if (pos + 2 > limit) throw new BerError('truncated');
  const tag = buf[pos]!;
  let len = buf[pos + 1]!;
  let start = pos + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4 || start + n > limit) throw new BerError('bad length');
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + buf[start + i]!;
    start += n;
  }
  const end = start + len;
  if (end > limit) throw new BerError('truncated');
  return { tag, start, end };
}

function expect(buf: Uint8Array, pos: number, limit: number, tag: number): Tlv {
  const t = readTlv(buf, pos, limit);
  if (t.tag !== tag) throw new BerError(`expected tag 0x${tag.toString(16)}, got 0x${t.tag.toString(16)}`);
  return t;
}

function readInt(buf: Uint8Array, t: Tlv): number {
  if (t.end - t.start > 6 || t.end === t.start) throw new BerError('bad integer');
  let n = buf[t.start]! & 0x80 ? -1 : 0;
  for (let i = t.start; i < t.end; i++) n = n * 256 + buf[i]!;
  return n;
}

function readUnsigned(buf: Uint8Array, t: Tlv): bigint {
  let n = 0n;
  for (let i = t.start; i < t.end; i++) n = (n << 8n) | BigInt(buf[i]!);
  return n;
}

export function decodeOid(buf: Uint8Array, start: number, end: number): string {
  if (end <= start) throw new BerError('empty OID');
  const arcs: number[] = [];
  let arc = 0;
  for (let i = start; i < end; i++) {
    const b = buf[i]!;
    arc = arc * 128 + (b & 0x7f);
    // The last byte of an arc has its top bit clear: an OID ending on a set one was cut.
    if (b & 0x80 && i === end - 1) throw new BerError('OID cut in an arc');
    if (!(b & 0x80)) {
      if (arcs.length === 0) {
        const first = arc < 80 ? Math.floor(arc / 40) : 2;
        arcs.push(first, arc - first * 40);
      } else arcs.push(arc);
      arc = 0;
    }
  }
  return arcs.join('.');
}

function decodeValue(buf: Uint8Array, t: Tlv): WireValue {
  switch (t.tag) {
    case TAG.integer:
      return readInt(buf, t);
    case TAG.counter32:
    case TAG.gauge32:
    case TAG.timeticks:
      return Number(readUnsigned(buf, t));
    case TAG.counter64:
      return readUnsigned(buf, t);
    case TAG.oid:
      return decodeOid(buf, t.start, t.end);
    case TAG.ip:
      return Array.from(buf.subarray(t.start, t.end)).join('.');
    case TAG.octets:
    case TAG.opaque:
      return buf.slice(t.start, t.end);
    default:
      return null;
  }
}

export function decodePdu(buf: Uint8Array, pos: number, limit: number): WirePdu {
  const p = readTlv(buf, pos, limit);
  if ((p.tag & 0xe0) !== 0xa0) throw new BerError(`not a PDU (0x${p.tag.toString(16)})`);
  const id = expect(buf, p.start, p.end, TAG.integer);
  const st = expect(buf, id.end, p.end, TAG.integer);
  const ix = expect(buf, st.end, p.end, TAG.integer);
  const list = expect(buf, ix.end, p.end, TAG.sequence);
  const varbinds: WireVarbind[] = [];
  let at = list.start;
  while (at < list.end) {
    const vb = expect(buf, at, list.end, TAG.sequence);
    const name = expect(buf, vb.start, vb.end, TAG.oid);
    const value = readTlv(buf, name.end, vb.end);
    varbinds.push({ oid: decodeOid(buf, name.start, name.end), tag: value.tag, value: decodeValue(buf, value) });
    at = vb.end;
    if (varbinds.length > 10_000) throw new BerError('too many varbinds');
  }
  return { type: p.tag, requestId: readInt(buf, id), errorStatus: readInt(buf, st), errorIndex: readInt(buf, ix), varbinds };
}

/** Decodes a v1/v2c message; throws BerError on anything else (v3 included: see `messageVersion`). */
export function decodeMessage(buf: Uint8Array): WireMessage {
  const outer = expect(buf, 0, buf.length, TAG.sequence);
  const version = expect(buf, outer.start, outer.end, TAG.integer);
  const v = readInt(buf, version);
  if (v !== 0 && v !== 1) throw new BerError(`SNMP version ${v} is not v1/v2c`);
  const community = expect(buf, version.end, outer.end, TAG.octets);
  return {
    version: v,
    community: Buffer.from(buf.subarray(community.start, community.end)).toString('latin1'),
    pdu: decodePdu(buf, community.end, outer.end),
  };
}

/** The version field of a message (0 v1, 1 v2c, 3 v3), or null when it is not SNMP. */
export function messageVersion(buf: Uint8Array): number | null {
  try {
    const outer = expect(buf, 0, buf.length, TAG.sequence);
    return readInt(buf, expect(buf, outer.start, outer.end, TAG.integer));
  } catch {
    return null;
  }
}

/** Reads TLVs for callers that parse other SNMP structures (v3 headers). */
export const ber = { readTlv, expect, readInt, tlv, signedBytesTlv, encodeSequence };
