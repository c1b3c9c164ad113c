import { describe, expect, it } from 'vitest';
import { device } from '../../test/helpers/varbinds.ts';
import { createDefaultRegistry } from '../profiles/models-pack.loader.ts';
import { buildReading } from './build-reading.ts';

/**
 * The models pack's vendor counters, read from walks shaped as each maker's MIB publishes them
 * (the corpus has a vendor counter table for Sharp alone: corpus.test.ts checks it against
 * LibreNMS). Each case names the MIB objects it stands for.
 */
const registry = createDefaultRegistry();
const counter = (oid: string, value: number) => `${oid}|65|${value}`;
const integer = (oid: string, value: number) => `${oid}|2|${value}`;
const read = (descr: string, sysObjectId: string, lines: string[]) => buildReading(device(descr, sysObjectId, lines.join('\n')), registry).counters;

describe('vendor page counters', () => {
  it('HP: HP-LASERJET-COMMON-MIB totals, scans from the ADF and the flatbed, pages per PCL paper size', () => {
    const hp = '1.3.6.1.4.1.11.2.3.9.4.2.1';
    const c = read('HP ETHERNET MULTI-ENVIRONMENT,ROM none,JETDIRECT,JD153', '1.3.6.1.4.1.11.2.3.9.1', [
      counter(`${hp}.4.1.2.5.0`, 10_000), counter(`${hp}.4.1.2.6.0`, 7_000), counter(`${hp}.4.1.2.7.0`, 3_000),
      counter(`${hp}.2.2.1.63.0`, 1_200), counter(`${hp}.2.2.1.45.0`, 400), counter(`${hp}.2.2.1.73.0`, 100),
      counter(`${hp}.1.16.1.1.5.27.0`, 900), counter(`${hp}.1.16.1.1.5.26.0`, 9_100),
    ]);
    expect(c).toMatchObject({ total: 10_000, mono: 7_000, color: 3_000, copies: 1_200, scans: 500, a3: 900, a4: 9_100, a3Bw: null, derived: [] });
  });

  it('Brother: BROTHER-MIB pages by function, by paper size and by side, scans by source', () => {
    const br = '1.3.6.1.4.1.2435.2.3.9.4.2.1.5.5';
    const typed = (table: string, rows: Array<[number, number]>) => rows.flatMap(([type, value], i) => [integer(`${br}.${table}.2.${i + 1}`, type), counter(`${br}.${table}.3.${i + 1}`, value)]);
    const c = read('Brother NC-8300w, Firmware Ver.1.13', '1.3.6.1.4.1.2435.2.3.9.1', [
      `${br}.10.0|4x|00010400001388`, // brInfoCounter: record 00 (total), 4 bytes, 5,000
      ...typed('52.21.1', [[1, 3_000], [3, 1_500], [4, 500], [5, 900], [7, 2_100], [9, 1_000], [2, 500], [8, 500]]),
      ...typed('52.1.1', [[26, 4_700], [27, 300]]),
      ...typed('52.11.1', [[1, 5_000], [2, 1_800]]),
      ...typed('54.2.2.1', [[1, 60], [2, 30], [3, 10]]),
    ]);
    // Black: print 2,100 + copy 1,000 + fax 500; colour: copy 500 + print 900; the function totals (1 print, 3 copy, 2 fax) are not pages twice.
    expect(c).toMatchObject({ total: 5_000, mono: 3_600, color: 1_400, copies: 1_500, fax: 500, a3: 300, a4: 4_700, duplex: 1_800, scans: 100 });
  });

  it('Canon: counter codes as the device\'s Check Counter page numbers them', () => {
    const ca = '1.3.6.1.4.1.1602.1.11.1.3.1.4';
    const c = read('Canon iR-ADV C3530 /P', '1.3.6.1.4.1.1602.4.7', [
      counter(`${ca}.101`, 20_000), counter(`${ca}.102`, 21_000), counter(`${ca}.112`, 600), counter(`${ca}.113`, 11_400),
      counter(`${ca}.122`, 400), counter(`${ca}.123`, 7_600), counter(`${ca}.201`, 5_000), counter(`${ca}.501`, 2_500), counter(`${ca}.301`, 15_000),
    ]);
    expect(c).toMatchObject({ total: 20_000, mono: 12_000, color: 8_000, a3Bw: 600, a4Bw: 11_400, a3Color: 400, a4Color: 7_600, a3: 1_000, a4: 19_000, copies: 5_000, scans: 2_500, derived: [] });
  });

  it('Konica Minolta: large pages apart; the colour and function counters count them twice, the reading once', () => {
    const km = '1.3.6.1.4.1.18334.1.1.1.5.7.2';
    const c = read('KONICA MINOLTA bizhub C300i', '1.3.6.1.4.1.18334.1.2.1.2.1.188.1.1', [
      counter(`${km}.1.1.0`, 10_400), counter(`${km}.2.1.5.1.1`, 1_000), counter(`${km}.2.1.5.1.2`, 6_000), counter(`${km}.2.1.5.2.1`, 400), counter(`${km}.2.1.5.2.2`, 3_000),
      counter(`${km}.2.1.7.1.1`, 100), counter(`${km}.2.1.7.1.2`, 200), counter(`${km}.2.1.7.2.2`, 100),
    ]);
    // Black 7,000 A4 equivalents with 300 large pages: 6,700 pages, 6,400 of them A4.
    expect(c).toMatchObject({ mono: 6_700, color: 3_300, copies: 1_400, a3Bw: 300, a3Color: 100, a4Bw: 6_400, a4Color: 3_200, a4: 9_600 });
    expect(c.derived).toEqual(['a4Bw', 'a4Color', 'a4']);
  });

  it('Kyocera: KMCOMMON-MIB pages by function and colour mode, scans, pages by colour and paper size (named by the device)', () => {
    const ky = '1.3.6.1.4.1.1347.42.3.1';
    const sz = '1.3.6.1.4.1.1347.42.2.1.1.1';
    const c = read('KYOCERA Document Solutions Printing System', '1.3.6.1.4.1.1347.41', [
      counter(`${ky}.1.1.1.1`, 8_000), counter(`${ky}.1.1.1.2`, 2_000), counter(`${ky}.1.1.1.4`, 150),
      counter(`${ky}.2.1.1.1.1`, 5_000), counter(`${ky}.2.1.1.1.3`, 3_000), counter(`${ky}.2.1.1.2.1`, 1_500), counter(`${ky}.2.1.1.2.3`, 500), counter(`${ky}.2.1.1.4.1`, 150),
      counter(`${ky}.3.1.1.2`, 700), counter(`${ky}.3.1.1.4`, 50), counter(`${ky}.4.1.1.1`, 250),
      // Printed pages by size (1347.42.2.1.1.1.<column 7 black, 8 colour>.1.<size>), sizes named in column 2.
      counter(`${sz}.7.1.1`, 400), counter(`${sz}.7.1.3`, 6_250), counter(`${sz}.8.1.1`, 200), counter(`${sz}.8.1.3`, 3_300),
      `${sz}.2.1.1|4|A3`, `${sz}.2.1.3|4|A4`,
    ]);
    expect(c).toMatchObject({ mono: 6_650, color: 3_500, copies: 2_000, fax: 150, scans: 1_000, a3Bw: 400, a4Bw: 6_250, a3Color: 200, a4Color: 3_300, a3: 600, a4: 9_550 });
  });

  it('Samsung: each row of scmHrDevCountTable by its job, colour and paper size; scans are no printed pages', () => {
    const sa = '1.3.6.1.4.1.236.11.5.11.53.11.2.1';
    // [job, colour, size, value]: job 1 print, 2 copy, 5 scan; colour 1 full, 3 black; size 1 small, 2 large.
    const rows: Array<[number, number, number, number]> = [[1, 3, 1, 4_000], [1, 3, 2, 200], [1, 1, 1, 1_500], [2, 3, 1, 800], [2, 1, 2, 100], [5, 3, 1, 900]];
    const c = read('Samsung X4300 Series; V4.00.01.11', '1.3.6.1.4.1.236.11.5.1', rows.flatMap(([job, colour, size, value], i) => [
      integer(`${sa}.2.1.${i + 1}`, job), integer(`${sa}.6.1.${i + 1}`, colour), integer(`${sa}.3.1.${i + 1}`, size), counter(`${sa}.7.1.${i + 1}`, value),
    ]));
    expect(c).toMatchObject({ mono: 5_000, color: 1_600, copies: 900, scans: 900, a3Bw: 200, a4Bw: 4_800, a3Color: 100, a4Color: 1_500, a3: 300, a4: 6_300, derived: [] });
  });

  it('Lexmark: LEXMARK-MPS-MIB counts by type, sides by paper size, scans', () => {
    const lx = '1.3.6.1.4.1.641.6.4';
    const typed = (table: string, value: string, rows: Array<[number, number]>) => rows.flatMap(([type, n], i) => [integer(`${lx}.${table}.2.1.${i + 1}`, type), counter(`${lx}.${table}.${value}.1.${i + 1}`, n)]);
    const c = read('Lexmark CX625ade version CXTPC.081.234 kernel 5.10.0', '1.3.6.1.4.1.641.1.5.7.4', [
      ...typed('2.1.1', '4', [[1, 9_100], [2, 9_000], [3, 6_000], [4, 3_000], [32, 1_000], [48, 200], [97, 3]]),
      ...typed('2.2.1', '6', [[68, 5_800], [67, 200]]),
      ...typed('2.2.1', '7', [[68, 2_950], [67, 50]]),
      ...typed('3.1.1', '4', [[1, 120], [257, 30]]),
    ]);
    expect(c).toMatchObject({ total: 9_000, mono: 6_000, color: 3_000, copies: 1_000, fax: 200, a4Bw: 5_800, a3Bw: 200, a4Color: 2_950, a3Color: 50, scans: 150 });
  });

  it('Toshiba TEC: e-STUDIO counters by function, paper size and colour', () => {
    const to = '1.3.6.1.4.1.1129.2.3.50.1.3.21.6.1';
    const c = read('TOSHIBA e-STUDIO2505AC', '1.3.6.1.4.1.1129.2.3.1', [
      counter(`${to}.209.1.3`, 100), counter(`${to}.210.1.3`, 3_000), counter(`${to}.210.1.1`, 1_000), counter(`${to}.212.1.3`, 700), counter(`${to}.211.1.1`, 20),
      counter(`${to}.219.1.3`, 40), counter(`${to}.220.1.1`, 60),
    ]);
    expect(c).toMatchObject({ mono: 3_800, color: 1_020, a3Bw: 100, a4Bw: 3_700, a3Color: 20, a4Color: 1_000, copies: 720, scans: 100 });
  });

  it('Epson: total, black-and-white and colour pages, copies', () => {
    const ep = '1.3.6.1.4.1.1248.1.2.2.27';
    const c = read('EPSON Built-in 11b/g/n Print Server', '1.3.6.1.4.1.1248.1.1.2.1.3.1.1', [
      counter(`${ep}.1.1.30.1.1`, 4_000), counter(`${ep}.1.1.3.1.1`, 2_500), counter(`${ep}.1.1.4.1.1`, 1_500), counter(`${ep}.6.1.4.1.1.2`, 300),
    ]);
    expect(c).toMatchObject({ total: 4_000, mono: 2_500, color: 1_500, copies: 300 });
  });

  it('OKI: black-and-white pages from the usage table, colour derived and marked', () => {
    const c = read('OKI OkiLAN 8100e Rev.01.02 10/100BASE Ethernet PrintServer: Attached to C532 Rev.A1.01', '1.3.6.1.4.1.2001.1.2.1.1.172', [
      counter('1.3.6.1.2.1.43.10.2.1.4.1.1', 9_000), integer('1.3.6.1.2.1.43.10.2.1.3.1.1', 7), counter('1.3.6.1.4.1.2001.1.1.1.1.11.1.10.170.1.7.1', 6_500),
    ]);
    expect(c).toMatchObject({ total: 9_000, mono: 6_500, color: 2_500, derived: ['color'] });
  });

  it('Pantum: duplex and copies from its counters (an instance with or without .0)', () => {
    const c = read('Pantum M7100DW Series', '1.3.6.1.4.1.40093.1.1.2', [
      counter('1.3.6.1.4.1.40093.1.1.3.1', 700), counter('1.3.6.1.4.1.40093.1.1.3.9.0', 250), counter('1.3.6.1.4.1.40093.1.1.3.12', 3_000),
    ]);
    expect(c).toMatchObject({ duplex: 700, copies: 250 });
  });

  it('Xerox: large impressions apart, fax impressions', () => {
    const xr = '1.3.6.1.4.1.253.8.53.13.2.1.6';
    const c = read('Xerox AltaLink C8130; SS 103.001.033.13500', '1.3.6.1.4.1.253.8.62.1.20.2.3.4.1', [
      counter(`${xr}.1.20.1`, 50_000), counter(`${xr}.1.20.34`, 30_000), counter(`${xr}.1.20.33`, 20_000), counter(`${xr}.1.20.44`, 2_000), counter(`${xr}.1.20.43`, 1_000), counter(`${xr}.1.20.71`, 80),
    ]);
    expect(c).toMatchObject({ a3Bw: 2_000, a3Color: 1_000, a3: 3_000, a4Bw: 28_000, a4Color: 19_000, a4: 47_000, fax: 80 });
  });
});
