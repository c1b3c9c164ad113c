import { SERIAL_LINE, SERVICE_FILE_MAX_SERIALS } from '@pagewatch/contracts/devices';
import { AppError } from '../../lib/app-error.ts';

export type SerialList = { serials: string[]; invalidLines: number[] };

/**
 * The serial numbers file of the service uploads: UTF-8 text (a BOM is allowed), one serial a
 * line; blank lines are skipped, any other line that is not a serial is reported by its number.
 */
export function parseSerialFile(data: Buffer): SerialList {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    throw new AppError('UNSUPPORTED_MEDIA', { key: 'service.notUtf8' });
  }
  if (text.includes('\u0000')) throw new AppError('UNSUPPORTED_MEDIA', { key: 'service.notUtf8' });
  text = text.replace(/^\uFEFF/, '');
  if (!text.trim()) throw new AppError('VALIDATION', { fields: [{ field: 'serialNumbers', key: 'service.emptyFile' }] });
  const serials: string[] = [];
  const seen = new Set<string>();
  const invalidLines: number[] = [];
  text.split(/\r\n|\n|\r/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    if (!SERIAL_LINE.test(line)) {
      invalidLines.push(i + 1);
      return;
    }
    const key = line.toLowerCase();
    if (!seen.has(key)) {
      seen.add(key);
      serials.push(line);
    }
  });
  if (serials.length > SERVICE_FILE_MAX_SERIALS) {
    throw new AppError('VALIDATION', { fields: [{ field: 'serialNumbers', key: 'service.tooManySerials', params: { max: SERVICE_FILE_MAX_SERIALS } }] });
  }
  return { serials, invalidLines };
}
