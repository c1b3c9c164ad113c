/** Text from OCTET STRINGs: devices send UTF-8, Latin-1, NUL padding and hex-dumped lines. */
import { cutText } from '@pagewatch/contracts/fields';

const MAX_TEXT = 1024;
const utf8 = new TextDecoder('utf-8', { fatal: true });
const latin1 = new TextDecoder('latin1');

/** Bytes → string: UTF-8 when valid, else Latin-1 (what older printers mean). */
export function bytesToString(bytes: Uint8Array): string {
  const slice = bytes.length > MAX_TEXT * 4 ? bytes.subarray(0, MAX_TEXT * 4) : bytes;
  try {
    return utf8.decode(slice);
  } catch {
    return latin1.decode(slice);
  }
}

/** Removes control characters (a NUL terminator, padding), collapses spaces, trims, bounds length. */
export function cleanText(text: string): string {
  const cleaned = text
    .replace(/[\u0000-\u001f\u007f-\u009f\ufffd]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return cutText(cleaned, MAX_TEXT);
}

export function decodeText(bytes: Uint8Array): string {
  return cleanText(bytesToString(bytes));
}

const HEX_LINE = /^\s*(?:[0-9a-f]{2}\s+)+[0-9a-f]{2}\s*$|^\s*(?:[0-9a-f]{2}\s+){2,}$/i;

function hexLineToString(line: string): string {
  const bytes = Uint8Array.from(line.trim().split(/\s+/), (pair) => parseInt(pair, 16));
  return bytesToString(bytes);
}

/**
 * A supply description. HP and others send the first 16 bytes as text, a line break, then
 * the rest as a hex dump ("38 32 37 41 …"); the break falls mid-word, so lines are joined
 * without a separator, keeping the spaces the device sent.
 */
export function decodeDescription(bytes: Uint8Array): string {
  const raw = bytesToString(bytes);
  if (!/[\r\n]/.test(raw)) return cleanText(raw);
  let previousWasHex = false;
  const joined = raw
    .split(/\r?\n|\r/)
    .map((line) => {
      // A lone pair ("00 ") is hex only as the tail of a hex dump.
      const hex = HEX_LINE.test(line) || (previousWasHex && /^\s*[0-9a-f]{2}\s*$/i.test(line));
      previousWasHex = hex;
      return hex ? hexLineToString(line) : line;
    })
    .join('');
  return cleanText(joined);
}

export type SupplyText = { description: string; partNumber: string | null; partSerialNumber: string | null };

/**
 * Splits "Black Toner, PN 006R01509;SN48178080E0000481" (Xerox) into the name and the part
 * and serial numbers; "unknown" parts are dropped.
 */
export function splitSupplyDescription(text: string, partNumberPattern?: RegExp): SupplyText {
  let description = text;
  let partNumber: string | null = null;
  let partSerialNumber: string | null = null;
  const pn = /,\s*PN\s*([^;,]*)(?:;\s*SN\s*([^;,]*))?.*$/i.exec(text);
  if (pn) {
    description = text.slice(0, pn.index).trim();
    partNumber = known(pn[1]);
    partSerialNumber = known(pn[2]);
  }
  if (partNumber === null && partNumberPattern) {
    const m = partNumberPattern.exec(description);
    partNumber = known(m?.[1]);
  }
  return { description, partNumber, partSerialNumber };
}

function known(value: string | undefined): string | null {
  const v = value?.trim();
  return v && !/^(unknown|none|n\/a)$/i.test(v) ? v : null;
}

/** Picks keys out of an IEEE-1284 device ID ("MFG:HP;MDL:LaserJet 400;CLS:PRINTER;"). */
export function ieee1284Value(deviceId: string, keys: string[]): string | null {
  const fields = new Map<string, string>();
  for (const part of deviceId.split(';')) {
    const colon = part.indexOf(':');
    if (colon > 0) fields.set(part.slice(0, colon).trim().toUpperCase(), part.slice(colon + 1).trim());
  }
  for (const key of keys) {
    const value = fields.get(key.toUpperCase());
    if (value) return value;
  }
  return null;
}

/** MAC address "00:1b:a9:0b:a7:52" from a 6-byte physical address; null for zeros. */
export function macFromBytes(bytes: Uint8Array): string | null {
  if (bytes.length !== 6 || bytes.every((b) => b === 0)) return null;
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join(':');
}
