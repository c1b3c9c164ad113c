import { HR_DEVICE_STATUSES, HR_PRINTER_STATUSES, PRINTER_ERROR_BITS } from '@pagewatch/contracts/reading';
import type { ReadingStatus } from '@pagewatch/contracts/reading';
import type { MibData } from './mib-data.ts';
import { HR } from './printer-mib.ts';

/** hrPrinterDetectedErrorState is BITS: bit 0 is the most significant bit of the first byte. */
export function decodeErrorBits(bytes: Uint8Array): string[] {
  const names: string[] = [];
  const limit = Math.min(bytes.length, 8);
  for (let i = 0; i < limit * 8; i++) {
    if (bytes[i >> 3]! & (0x80 >> (i & 7))) names.push(PRINTER_ERROR_BITS[i] ?? `bit${i}`);
  }
  return names;
}

function enumName<T extends readonly string[]>(names: T, code: number | null, what: string, data: MibData): T[number] | null {
  if (code === null) return null;
  const name = names[code - 1];
  if (name === undefined) data.problem(`${what} has an unknown value ${code}`);
  return name ?? null;
}

export function readStatus(data: MibData, printerIndex: string | null): ReadingStatus {
  const index = printerIndex ?? '1';
  const deviceStatus = enumName(HR_DEVICE_STATUSES, data.int(`${HR.deviceStatus}.${index}`, 'hrDeviceStatus'), 'hrDeviceStatus', data);
  const printerStatus = enumName(HR_PRINTER_STATUSES, data.int(`${HR.printerStatus}.${index}`, 'hrPrinterStatus'), 'hrPrinterStatus', data);
  const errorVb = data.get(`${HR.printerErrorState}.${index}`);
  let errors: string[] = [];
  let errorStateHex: string | null = null;
  if (errorVb) {
    if (errorVb.type === 'octets' && errorVb.value instanceof Uint8Array) {
      const bytes = errorVb.value.subarray(0, 8);
      errors = decodeErrorBits(bytes);
      errorStateHex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
    } else {
      data.problem(`hrPrinterDetectedErrorState is not a bit string (${errorVb.type})`);
    }
  }
  return { deviceStatus, printerStatus, errors, errorStateHex };
}
