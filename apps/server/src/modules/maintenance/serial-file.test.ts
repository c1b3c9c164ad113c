import { describe, expect, it } from 'vitest';
import { SERVICE_FILE_MAX_SERIALS } from '@pagewatch/contracts/devices';
import { AppError } from '../../lib/app-error.ts';
import { parseSerialFile } from './serial-file.ts';

/**
 * The serial numbers file of the service uploads (issue 56: the maintenance module's own test;
 * the routes are tested with the devices, devices.walks.test.ts).
 */
const file = (text: string) => Buffer.from(text, 'utf8');
const refused = (data: Buffer): AppError => {
  try {
    parseSerialFile(data);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('the file was accepted');
};

describe('the serial numbers file', () => {
  it('one serial a line, whatever the line ends; a BOM, blanks and spaces around are no lines; each serial once, as first written', () => {
    expect(parseSerialFile(file('\uFEFFSA1\r\nsa2\n  E71833C4J372261  \r\n\nSA1\rsa1\nЖ-15/2#a.b_c\n'))).toEqual({
      serials: ['SA1', 'sa2', 'E71833C4J372261', 'Ж-15/2#a.b_c'],
      invalidLines: [],
    });
  });

  it('names by number every line that is not a serial, counting blank lines', () => {
    const long = 'x'.repeat(101);
    expect(parseSerialFile(file(`SA1\n\nbad serial\nSA2\n${long}\n"quoted"\n`))).toEqual({ serials: ['SA1', 'SA2'], invalidLines: [3, 5, 6] });
  });

  it('refuses a file that is not UTF-8 text (415), an empty one and one of too many serials (400 on the field)', () => {
    expect(refused(Buffer.from([0xff, 0xfe, 0x00, 0x41]))).toMatchObject({ code: 'UNSUPPORTED_MEDIA', key: 'service.notUtf8' });
    expect(refused(file('SA1\u0000\n'))).toMatchObject({ code: 'UNSUPPORTED_MEDIA', key: 'service.notUtf8' });
    for (const empty of ['', '\uFEFF', ' \r\n\t\n']) {
      expect(refused(file(empty))).toMatchObject({ code: 'VALIDATION', fields: [{ field: 'serialNumbers', key: 'service.emptyFile' }] });
    }
    const many = Array.from({ length: SERVICE_FILE_MAX_SERIALS + 1 }, (_, i) => `S${i}`).join('\n');
    expect(refused(file(many))).toMatchObject({ code: 'VALIDATION', fields: [{ field: 'serialNumbers', key: 'service.tooManySerials', params: { max: SERVICE_FILE_MAX_SERIALS } }] });
    // As many as allowed, and the same serial past that: accepted.
    const full = Array.from({ length: SERVICE_FILE_MAX_SERIALS }, (_, i) => `S${i}`).join('\n');
    expect(parseSerialFile(file(`${full}\nS0\n`)).serials).toHaveLength(SERVICE_FILE_MAX_SERIALS);
  });
});
