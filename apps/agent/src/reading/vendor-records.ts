import type { MibData } from './mib-data.ts';

export type VendorRecord = { code: string; value: number };

/**
 * One octet string of typed records (Brother's counter and maintenance records): a one-byte code,
 * header bytes up to a one-byte length at `lengthAt`, then a big-endian value of that length.
 * Stops at an 0xFF code (padding); a record cut short or longer than a safe integer ends the
 * decoding with a problem.
 */
export function decodeRecords(bytes: Uint8Array, lengthAt: number): { records: VendorRecord[]; problem: string | null } {
  const records: VendorRecord[] = [];
  let i = 0;
  while (i < bytes.length && bytes[i] !== 0xff) {
    const length = bytes[i + lengthAt];
    const start = i + lengthAt + 1;
    if (length === undefined || length < 1 || length > 6 || start + length > bytes.length) {
      return { records, problem: `record at byte ${i} is cut short or has length ${length ?? 'none'}` };
    }
    let value = 0;
    for (let k = 0; k < length; k++) value = value * 256 + (bytes[start + k] as number);
    records.push({ code: (bytes[i] as number).toString(16).padStart(2, '0'), value });
    i = start + length;
  }
  return { records, problem: null };
}

/** The records of the octet string at `oid`, or null where the device gave none; what does not decode is a problem. */
export function readRecords(data: MibData, oid: string, name: string, lengthAt: number): VendorRecord[] | null {
  const vb = data.get(oid);
  if (!vb) return null;
  if (vb.type !== 'octets' || !(vb.value instanceof Uint8Array)) {
    data.problem(`${name} (${oid}) is not a record string (${vb.type})`);
    return null;
  }
  const { records, problem } = decodeRecords(vb.value, lengthAt);
  if (problem) data.problem(`${name} (${oid}): ${problem}`);
  return records;
}
