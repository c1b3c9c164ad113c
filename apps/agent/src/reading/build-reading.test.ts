import { readingSchema } from '@pagewatch/contracts/reading';
import { describe, expect, it } from 'vitest';
import { device, printerDeviceLines, supplyLines, varbinds } from '../../test/helpers/varbinds.ts';
import { createDefaultRegistry } from '../profiles/models-pack.loader.ts';
import { buildReading } from './build-reading.ts';

const registry = createDefaultRegistry();
const GENERIC_OID = '1.3.6.1.4.1.99999.1';
/** A reading of a printer no profile knows, from its snmprec lines. */
const generic = (lines: string | string[]) => buildReading(device('Some printer', GENERIC_OID, [lines].flat().join('\n')), registry);

describe('supply levels (RFC 3805)', () => {
  it.each([
    [50, 100, 50, null],
    [3000, 3000, 100, null],
    [1, 3, 33, null],
    [-1, 100, null, 'UNRESTRICTED'],
    [-2, -2, null, 'UNKNOWN'],
    [-3, 100, null, 'SOME_REMAINING'],
    [80, -2, 80, null], // unknown capacity: a level of 0..100 is a percentage
    [150, -2, null, null],
    [0, -2, 0, null],
    [30, 0, 30, null],
    [-7, 100, null, null],
  ])('level %i of max %i gives %s %s', (level, max, percent, state) => {
    const r = generic(supplyLines(1, 3, 'Black Toner', max, level));
    expect(r.supplies[0]).toMatchObject({ level, maxCapacity: max, percent, levelState: state });
    expect(readingSchema.safeParse(r).success).toBe(true);
  });

  it('keeps a -3 tray as a state and skips no tray', () => {
    const p = '1.3.6.1.2.1.43.8.2.1';
    const r = generic(`${p}.9.1.1|2|250\n${p}.10.1.1|2|-3\n${p}.13.1.1|4|Tray 1\n${p}.9.1.2|2|-2\n${p}.10.1.2|2|-2`);
    expect(r.trays).toEqual([
      { index: 1, name: 'Tray 1', mediaName: null, level: -3, maxCapacity: 250, levelState: 'SOME_REMAINING', percent: null },
      { index: 2, name: 'Tray 2', mediaName: null, level: -2, maxCapacity: -2, levelState: 'UNKNOWN', percent: null },
    ]);
  });
});

describe('vendor level quirks from the models pack', () => {
  it('reads Brother level codes, except on the models that report real levels', () => {
    const brother = (model: string) =>
      buildReading(
        device(`Brother NC-8300h, Firmware Ver.1.00`, '1.3.6.1.4.1.2435.2.3.9.1',
          `1.3.6.1.4.1.2435.2.3.9.1.1.7.0|4|MFG:Brother;MDL:${model};CLS:PRINTER;\n${supplyLines(1, 3, 'Black Toner', -2, 1)}`),
        registry,
      );
    expect(brother('HL-L2350DW series').supplies[0]).toMatchObject({ percent: 5, levelState: 'LOW' });
    expect(brother('MFC-L8850CDW series').supplies[0]).toMatchObject({ percent: 1, levelState: null });
  });

  it('reads Ricoh -100 as low and falls back to the private level column', () => {
    const r = buildReading(
      device('RICOH IM C3000 1.00 / RICOH Network Printer C model', '1.3.6.1.4.1.367.1.1', [
        supplyLines(1, 3, 'Black Toner', 100, -100),
        supplyLines(2, 3, 'Cyan Toner', -2, 0),
        '1.3.6.1.4.1.367.3.2.1.2.24.1.1.5.2|2|70',
      ].join('\n')),
      registry,
    );
    expect(r.vendor).toBe('Ricoh');
    expect(r.supplies.map((s) => [s.percent, s.levelState])).toEqual([[0, 'LOW'], [70, null]]);
  });
});

describe('descriptions, identity and status', () => {
  it('decodes HP hex-dumped description lines and splits Xerox part numbers', () => {
    const hp = '426C61636B20436172747269646765200a333820333220333720343120323020343820353020323020343320343620333320333020333020343120303020';
    const r = buildReading(
      device('HP ETHERNET MULTI-ENVIRONMENT', '1.3.6.1.4.1.11.2.3.9.1', [
        `1.3.6.1.2.1.43.11.1.1.6.1.1|4x|${hp}`,
        '1.3.6.1.2.1.43.11.1.1.6.1.2|4|Cyan Toner, PN 006R01512;SN461E7A80E0000489',
        '1.3.6.1.2.1.43.11.1.1.9.1.1|2|50',
        '1.3.6.1.2.1.43.11.1.1.9.1.2|2|40',
      ].join('\n')),
      registry,
    );
    expect(r.supplies[0]).toMatchObject({ description: 'Black Cartridge 827A HP CF300A', partNumber: 'CF300A', type: 'tonerCartridge', typeInferred: true });
    expect(r.supplies[1]).toMatchObject({ description: 'Cyan Toner', partNumber: '006R01512', partSerialNumber: '461E7A80E0000489', colorant: 'cyan' });
  });

  it('decodes hrPrinterDetectedErrorState bits and the statuses', () => {
    const r = generic(printerDeviceLines({ deviceStatus: 3, printerStatus: 4, errorState: '2408' }));
    expect(r.status).toEqual({ deviceStatus: 'warning', printerStatus: 'printing', errors: ['lowToner', 'jammed', 'outputFull'], errorStateHex: '2408' });
    expect(r.isPrinter).toBe(true);
  });

  it('finds A3 from tray media sizes and colour from the marker', () => {
    const p = '1.3.6.1.2.1.43.8.2.1';
    const r = generic(`${p}.3.1.1|2|4\n${p}.4.1.1|2|420000\n${p}.5.1.1|2|297000\n1.3.6.1.2.1.43.10.2.1.6.1.1|2|4`);
    expect(r.paperFormat).toBe('A3');
    expect(r.colorType).toBe('COLOR');
  });

  it('sums vendor counter table rows by type (Ricoh)', () => {
    const t = '1.3.6.1.4.1.367.3.2.1.2.19.5.1';
    // 870 is the transmissions' total (scans and faxes sent); the scans are 873 (colour) and 874 (black-and-white).
    const rows = [[1, 10, 5000], [2, 201, 1000], [3, 401, 2000], [4, 202, 300], [5, 402, 700], [6, 870, 55], [7, 873, 15], [8, 874, 25]];
    const lines = rows.flatMap(([i, type, value]) => [`${t}.2.${i}|2|${type}`, `${t}.9.${i}|65|${value}`]).join('\n');
    const r = buildReading(device('RICOH MP C3004 1.0 / RICOH Network Printer C model', '1.3.6.1.4.1.367.1.1', lines), registry);
    expect(r.counters).toMatchObject({ total: 5000, mono: 3000, color: 1000, scans: 40 });
    expect(r.deviceType).toBe('MFP');
  });

  it('notes wrong types as problems and keeps what it can read', () => {
    const r = generic([
      '1.3.6.1.2.1.43.11.1.1.6.1.1|4|Black Toner',
      '1.3.6.1.2.1.43.11.1.1.9.1.1|4|not a number',
      '1.3.6.1.2.1.43.11.1.1.8.1.1|6|1.3.6',
      '1.3.6.1.2.1.43.10.2.1.4.1.1|70|18446744073709551615',
    ]);
    expect(r.supplies[0]).toMatchObject({ description: 'Black Toner', level: null, maxCapacity: null, percent: null });
    expect(r.counters.total).toBeNull();
    expect(r.problems.join('\n')).toMatch(/level .* is not a number/);
    expect(r.problems.join('\n')).toMatch(/prtMarkerLifeCount .* is not a number/);
  });

  it('keeps one supply per index: the row the printer filled in, when another device lists the same index', () => {
    const r = generic([
      '1.3.6.1.2.1.43.11.1.1.5.0.1|2|3',
      '1.3.6.1.2.1.43.11.1.1.6.1.1|4|Black Toner',
      '1.3.6.1.2.1.43.11.1.1.8.1.1|2|200',
      '1.3.6.1.2.1.43.11.1.1.9.1.1|2|50',
      '1.3.6.1.2.1.43.11.1.1.6.1.2|4|Cyan Toner',
      '1.3.6.1.2.1.43.11.1.1.9.2.2|2|70',
    ]);
    expect(r.supplies.map((s) => [s.index, s.description, s.percent])).toEqual([[1, 'Black Toner', 25], [2, 'Cyan Toner', null]]);
    expect(r.problems.join('\n')).toMatch(/supply 1 is listed under two devices \(1\.1, 0\.1\)/);
    expect(r.problems.join('\n')).toMatch(/supply 2 is listed under two devices \(1\.2, 2\.2\)/);
  });

  it('gives an empty reading with a problem for no data at all', () => {
    const r = buildReading(varbinds(''), registry);
    expect(r).toMatchObject({ vendor: null, isPrinter: false, supplies: [], profileId: 'generic' });
    expect(r.problems).toContain('the device gave no data');
  });
});

describe('serial numbers', () => {
  const sharp = (vendorSerial: string, printerMibSerial = '3502345678') =>
    buildReading(
      device('SHARP MX-3070N', '1.3.6.1.4.1.2385.3.1.1', `1.3.6.1.4.1.2385.2.1.3.2.1.4.13501.1302.1|4|${vendorSerial}\n1.3.6.1.2.1.43.5.1.1.17.1|4|${printerMibSerial}`),
      registry,
    );

  it('takes the vendor\'s serial where it looks like one', () => {
    expect(sharp('8503114200').serialNumber).toBe('8503114200');
  });

  it('does not take a model name for a serial: the Printer MIB\'s serial is used instead', () => {
    const r = sharp('MX-3070N');
    expect(r.model).toBe('MX-3070N');
    expect(r.serialNumber).toBe('3502345678');
    // Nor a text that is no serial at all.
    expect(sharp('SHARP MX-3070N').serialNumber).toBe('3502345678');
    expect(sharp('Printer serial number').serialNumber).toBe('3502345678');
  });
});
