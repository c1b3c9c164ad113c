import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { device, supplyLines, varbinds } from '../../test/helpers/varbinds.ts';
import { createDefaultRegistry } from '../profiles/models-pack.loader.ts';
import { buildReading } from './build-reading.ts';
import { decodeRecords } from './vendor-records.ts';

/**
 * Meter reads a dealer can bill on (issue 41): the split counters of real walks, each figure
 * checked against where it comes from (named beside it), and every counter saying how it was read.
 */
const here = dirname(fileURLToPath(import.meta.url));
const walks = resolve(here, '../../test/walks');
const corpus = resolve(here, '../../../../../shared/corpus');
const registry = createDefaultRegistry();
const walk = (file: string) => buildReading(varbinds(readFileSync(join(walks, file), 'utf8')), registry);

describe('Brother: the counter record brInfoCounter', () => {
  it('decodes typed records (code, 0x01, length, big-endian value) built byte by byte', () => {
    const bytes = Uint8Array.from([
      0x00, 0x01, 0x04, 0x00, 0x01, 0x02, 0x03, // 00 total: 0x00010203 = 66,051
      0x01, 0x01, 0x02, 0x12, 0x34, //             01 black-and-white, two bytes: 0x1234 = 4,660
      0x06, 0x01, 0x01, 0xff, //                   06 duplex, one byte: 255
      0xff, 0xff, //                               padding
    ]);
    expect(decodeRecords(bytes, 2)).toEqual({
      records: [{ code: '00', value: 66_051 }, { code: '01', value: 4_660 }, { code: '06', value: 255 }],
      problem: null,
    });
    expect(decodeRecords(Uint8Array.from([0x00, 0x01, 0x04, 0x00, 0x01]), 2).problem).toMatch(/cut short/);
  });

  it('DCP-L3550CDW (real record): total, black-and-white, colour and duplex, as the brother library reads this device', () => {
    const r = walk('brother-dcp-l3550cdw.snmprec');
    // bieniu/brother snapshot: page_counter 1611, bw_counter 709, color_counter 902, duplex_unit_pages_counter 538.
    expect(r.counters).toMatchObject({ total: 1611, vendorTotal: 1611, markerTotal: null, mono: 709, color: 902, duplex: 538, derived: [], splitMismatch: null });
    expect(709 + 902).toBe(1611); // the device's own split adds up to its total
    const record = '1.3.6.1.4.1.2435.2.3.9.4.2.1.5.5.10.0 (brother: brInfoCounter, record';
    expect(r.counters.sources).toMatchObject({
      total: `${record} 00 Total pages)`, mono: `${record} 01 Black-and-white pages)`,
      color: `${record} 02 Colour pages)`, duplex: `${record} 06 Duplex pages)`,
    });
    expect(r.problems).toEqual([]);
  });

  it('DCP-9020CDW (real record): both totals kept and equal; the per-toner counts listed by name', () => {
    const r = walk('brother-dcp-9020cdw.snmprec');
    // Snapshot: page_counter 4939, bw_counter 1762, color_counter 3177; prtMarkerLifeCount 4939 in the fixture.
    expect(r.counters).toMatchObject({ total: 4939, markerTotal: 4939, vendorTotal: 4939, mono: 1762, color: 3177, splitMismatch: null });
    // Snapshot: black_counter 4891, cyan 2705, magenta 2724, yellow 3123, image_counter 13443.
    const named = Object.fromEntries(r.counters.vendor.map((v) => [v.name, v.value]));
    expect(named).toMatchObject({ 'Black toner pages': 4891, 'Cyan toner pages': 2705, 'Magenta toner pages': 2724, 'Yellow toner pages': 3123, Images: 13_443 });
    expect(r.colorType).toBe('COLOR');
  });

  it('MFC-L8650CDW and HL-L5100DN (real records): every figure as the device\'s own web page shows it', () => {
    const colour = walk('brother-mfc-l8650cdw.snmprec');
    // Web page: Page Counter 8,698; B&W 3,626; Color 5,072 (3,626 + 5,072 = 8,698).
    expect(colour.counters).toMatchObject({ total: 8698, mono: 3626, color: 5072, splitMismatch: null, derived: [] });
    const named = Object.fromEntries(colour.counters.vendor.map((v) => [v.name, v.value]));
    // Web page: Image Count Total 22,177; Black 8,628, Cyan 4,944, Magenta 5,072, Yellow 3,533.
    expect(named).toMatchObject({ Images: 22_177, 'Black toner pages': 8628, 'Cyan toner pages': 4944, 'Magenta toner pages': 5072, 'Yellow toner pages': 3533 });
    expect(colour.problems).toEqual([]);
    // Web page: Page Counter 9, 2-sided Print 6 (a monochrome printer: no black-and-white record of its own).
    expect(walk('brother-hl-l5100dn.snmprec').counters).toMatchObject({ total: 9, duplex: 6, color: null });
  });
});

describe('a monochrome device has a black-and-white count', () => {
  it('is its total, marked derived, with its source', () => {
    const r = buildReading(device('Acme LaserWriter 9000', '1.3.6.1.4.1.64999.1.1', [
      '1.3.6.1.2.1.43.10.2.1.4.1.1|65|12345', '1.3.6.1.2.1.43.10.2.1.6.1.1|2|1', supplyLines(1, 3, 'Black Toner', 100, 40),
    ].join('\n')), registry);
    expect(r.colorType).toBe('MONO');
    expect(r.counters).toMatchObject({ total: 12_345, mono: 12_345, color: null, derived: ['mono'] });
    expect(r.counters.sources).toEqual({
      total: '1.3.6.1.2.1.43.10.2.1.4.1.1 (Printer-MIB: prtMarkerLifeCount)', mono: 'derived: mono device (black-and-white = total)',
    });
  });

  it.skipIf(!existsSync(corpus))('on the real walks of monochrome printers in the shared corpus (LibreNMS, GPL-3.0)', () => {
    const read = (name: string) => buildReading(varbinds(readFileSync(join(corpus, name, 'device.snmprec'), 'utf8')), registry);
    // HL-5370DW, a monochrome laser: LibreNMS expects "Life time impressions" 7792 from prtMarkerLifeCount.
    expect(read('librenms-brother_hl5370dw')).toMatchObject({ colorType: 'MONO', counters: { total: 7792, mono: 7792, derived: ['mono'] } });
  });
});

describe('Kyocera: the real layout of its counter tables, the size by the name the device gives it', () => {
  it('TASKalfa 6052ci (real values): every figure of the device\'s web page, the vendor\'s total as the billing total', () => {
    const r = walk('kyocera-taskalfa-6052ci.snmprec');
    // Web page: Total 424,405; B&W 241,538; Color 182,867; Copy 116,254; Fax 3,812; scanned Total 88,636.
    expect(r.counters).toMatchObject({
      total: 424_405, vendorTotal: 424_405, markerTotal: 432_951, mono: 241_538, color: 182_867,
      copies: 116_254, fax: 3_812, scans: 88_636, derived: [], splitMismatch: null,
    });
    expect(r.counters.sources.total).toBe('1.3.6.1.4.1.1347.43.10.1.1.12.1.1 (kyocera: Total printed pages)');
    const named = Object.fromEntries(r.counters.vendor.map((v) => [v.name, v.value]));
    expect(named['Printer pages']).toBe(304_339); // Web page: Printer 304,339
  });

  it('CS 4053ci (real walk, an American A3 MFP): sizes by the names Ledger and Letter, each split agreeing with a second table', () => {
    const r = walk('kyocera-cs-4053ci.snmprec');
    expect(r).toMatchObject({ model: 'CS 4053ci', colorType: 'COLOR', problems: [] });
    // Function and colour table: black 14,730 + 19,124 + 2,493; colour 25,870 + 13,847; total = the device's own 76,064.
    expect(r.counters).toMatchObject({ total: 76_064, markerTotal: 76_498, mono: 36_347, color: 39_717, copies: 32_971, fax: 2_493, splitMismatch: null });
    // By size (columns 7 and 8, size 7 "Ledger", 9 "Letter"), equal to the per-function-and-size table's sums.
    expect(r.counters).toMatchObject({ a3Bw: 2_312, a4Bw: 33_750, a3Color: 1_186, a4Color: 38_487, a3: 3_498, a4: 72_237 });
    expect(r.counters.sources.a3Bw).toBe('1.3.6.1.4.1.1347.42.2.1.1.1.7.1.1 (kyocera: row 1.a3) + 1.3.6.1.4.1.1347.42.2.1.1.1.7.1.7 (kyocera: row 1.ledger)');
    // Copier 10,500 and fax 948 scans by function, 219,030 other scans.
    expect(r.counters.scans).toBe(230_478);
  });

  it('ECOSYS P2040dw (real walk, a monochrome printer): black-and-white is its total, its Letter pages A4 black-and-white, both derived', () => {
    const r = walk('kyocera-ecosys-p2040dw.snmprec');
    expect(r).toMatchObject({ model: 'ECOSYS P2040dw', colorType: 'MONO' });
    expect(r.counters).toMatchObject({ total: 7_342, markerTotal: 7_432, mono: 7_342, a4: 7_342, a4Bw: 7_342, a3: null, color: null, derived: ['mono', 'a4Bw'] });
    expect(r.counters.sources).toMatchObject({ mono: 'derived: mono device (black-and-white = total)', a4Bw: 'derived: mono device (A4 black-and-white = A4)' });
  });

  // The same tables with the sizes in another order: read by name, never by a fixed index.
  const ky = '1.3.6.1.4.1.1347.42.2.1.1.1';
  const kyocera = (model: string, sizes: string[], pages: Array<[column: 7 | 8, size: number, pages: number]>) =>
    buildReading(device('KYOCERA Document Solutions Printing System', '1.3.6.1.4.1.1347.41', [
      `1.3.6.1.4.1.1347.43.5.1.1.1.1|4|${model}`,
      ...sizes.map((name, i) => `${ky}.2.1.${i + 1}|4|${name}`),
      ...pages.map(([column, size, n]) => `${ky}.${column}.1.${size}|2|${n}`),
    ].join('\n')), registry).counters;

  it('an A4 device numbers A4 as size 1: A4, not A3', () => {
    expect(kyocera('ECOSYS MA5500ifx', ['A4', 'A5', 'Letter'], [[7, 1, 128]])).toMatchObject({ a4Bw: 128, a3Bw: null, a3: null });
  });

  it('a European A3 device (A3, B4, A4): A3 large, A4 small, B4 neither', () => {
    const c = kyocera('TASKalfa 5054ci', ['A3', 'B4', 'A4'], [[7, 1, 400], [7, 2, 30], [7, 3, 6_250], [8, 1, 200], [8, 3, 3_300]]);
    expect(c).toMatchObject({ a3Bw: 400, a4Bw: 6_250, a3Color: 200, a4Color: 3_300, a3: 600, a4: 9_550 });
  });
});

describe('the rated speed, from the model\'s name where the maker puts it there', () => {
  it('gives Kyocera\'s speeds (TASKalfa 6052ci 60, CS 4053ci 40, ECOSYS P2040dw 40 pages a minute) and none for a Brother', () => {
    expect(['kyocera-taskalfa-6052ci', 'kyocera-cs-4053ci', 'kyocera-ecosys-p2040dw', 'brother-mfc-l8650cdw'].map((f) => walk(`${f}.snmprec`).ratedPpm))
      .toEqual([60, 40, 40, undefined]);
  });
});

describe('Sharp and Konica Minolta: the rows and scans of both table layouts', () => {
  it.skipIf(!existsSync(corpus))('Sharp (real walk, LibreNMS sharp.snmprec, GPL-3.0): each row by its own name, wherever the model puts it', () => {
    const text = readFileSync(join(corpus, 'librenms-sharp', 'device.snmprec'), 'utf8');
    // Figures of the rows named "Black & White Total Count" (91,164), "Full/Two/Single Color Total Count" (29,940 + 0 + 0),
    // "Copies" (38,804), "Duplex" (41,020), "Black & White/Full Color Scanner Count" (6,170 + 7,364).
    const expected = { mono: 91_164, color: 29_940, copies: 38_804, duplex: 41_020, scans: 13_534 };
    expect(buildReading(varbinds(text), registry).counters).toMatchObject(expected);
    // Another model numbers the same rows otherwise (here: each row's second arc 4 → 9): read by name all the same.
    const renumbered = text.replace(/^(1\.3\.6\.1\.4\.1\.2385\.1\.1\.19\.2\.1\.[34]\.\d+)\.4\./gm, '$1.9.');
    expect(renumbered).not.toBe(text);
    expect(buildReading(varbinds(renumbered), registry).counters).toMatchObject(expected);
  });

  it('Sharp MX-M266NV (real walk): every split from the row of its name, each agreeing with the walk\'s other rows', () => {
    const r = walk('sharp-mx-m266nv.snmprec');
    expect(r).toMatchObject({ model: 'MX-M266NV', serialNumber: '0505571100', colorType: 'MONO', deviceType: 'MFP', problems: [] });
    // Rows as SHARP's MIB names them (1.1.19.2.1, values in column 3, names in column 4): "Black & White Total Count"
    // 90,474 = "Black & White Print Count" 24,677 + "Black & White Copy Count" 65,787 + "Black & White Other Count" 10,
    // and = prtMarkerLifeCount 90,474; "Full Color" 0 + "Two Color Total Count" 0; "Copies" 65,787; "Duplex" 3,752;
    // "Black & White Scanner Count" 7,636 + "Full Color Scanner Count" 16,110 = "Scan to E-mail/FTP" 23,746.
    expect(24_677 + 65_787 + 10).toBe(90_474);
    expect(7_636 + 16_110).toBe(23_746);
    expect(r.counters).toMatchObject({
      total: 90_474, markerTotal: 90_474, vendorTotal: null, mono: 90_474, color: 0, copies: 65_787, duplex: 3_752, scans: 23_746,
      fax: null, a3: null, a4: null, derived: [], splitMismatch: null,
    });
    // This model has its scanner count at row 8.4.51, where the MX-3570N (LibreNMS sharp.snmprec) has "Scan to HDD": by name, not index.
    const sharp = '1.3.6.1.4.1.2385.1.1.19.2.1.3';
    expect(r.counters.sources.scans).toBe(
      `${sharp}.8.4.51 (sharp: row black & white scanner count "Black & White Scanner Count") + ${sharp}.8.4.53 (sharp: row full color scanner count "Full Color Scanner Count")`,
    );
    expect(r.counters.sources.mono).toBe(`${sharp}.5.4.61 (sharp: row black & white total count "Black & White Total Count")`);
  });

  it('Konica Minolta bizhub C250i (real walk): the scan total where the per-function scan table is absent; the split against the marker count', () => {
    const r = walk('konica-bizhub-c250i.snmprec');
    expect(r).toMatchObject({ model: 'bizhub C250i', serialNumber: 'AA2M021115700', colorType: 'COLOR', deviceType: 'MFP', paperFormat: 'A3', problems: [] });
    // KONICA MINOLTA MIB (18334.1.1.1.5.7.2): per colour and function 2.1.5.<1 black, 2 colour>.<1 copy, 2 print>:
    // black 3,672 + 22,876, colour 544 + 6,711; duplex 1.3.0 7,357; scan total 1.5.0 5,653 (no 3.1.5 table on this model);
    // no total counter 1.1.0, so the billing total is prtMarkerLifeCount 33,810 and the split (33,803) is flagged against it.
    expect(r.counters).toMatchObject({
      total: 33_810, markerTotal: 33_810, vendorTotal: null, powerOn: 46, mono: 26_548, color: 7_255, copies: 4_216,
      duplex: 7_357, scans: 5_653, fax: null, a3Bw: null, a3Color: null, derived: [],
      splitMismatch: { total: 33_810, monoPlusColor: 33_803 },
    });
    const km = '1.3.6.1.4.1.18334.1.1.1.5.7.2';
    expect(r.counters.sources).toMatchObject({
      scans: `${km}.1.5.0 (konica-minolta: Total scans, as no other counter gives it)`,
      mono: `${km}.2.1.5.1.1 (konica-minolta: Black copies) + ${km}.2.1.5.1.2 (konica-minolta: Black prints)`,
      total: '1.3.6.1.2.1.43.10.2.1.4.1.1 (Printer-MIB: prtMarkerLifeCount)',
    });
  });

  it('Konica Minolta: the scan total where the per-function table is absent, never added to it', () => {
    const km = '1.3.6.1.4.1.18334.1.1.1.5.7.2';
    const read = (lines: string[]) => buildReading(device('KONICA MINOLTA bizhub 25e', '1.3.6.1.4.1.18334.1.2.1.2.1.188.1.1', lines.join('\n')), registry).counters;
    const alone = read([`${km}.1.1.0|65|5000`, `${km}.1.5.0|65|700`]);
    expect(alone).toMatchObject({ scans: 700 });
    expect(alone.sources.scans).toBe(`${km}.1.5.0 (konica-minolta: Total scans, as no other counter gives it)`);
    expect(read([`${km}.1.1.0|65|5000`, `${km}.1.5.0|65|700`, `${km}.3.1.5.1|65|700`])).toMatchObject({ scans: 700 });
  });
});

describe('Epson: where the split cannot be read', () => {
  it('CW-C6500Au and SC-T3405 (real walks) publish no page counters of Epson\'s: the total is prtMarkerLifeCount, the split stays unknown', () => {
    for (const [file, model, total] of [['epson-cw-c6500au', 'CW-C6500Au', 7_389], ['epson-sc-t3405', 'SC-T3405 Series', 145]] as const) {
      const r = walk(`${file}.snmprec`);
      expect(r).toMatchObject({ profileId: 'epson', model, colorType: 'COLOR', problems: [] });
      expect(r.counters).toMatchObject({ total, markerTotal: total, vendorTotal: null, mono: null, color: null, derived: [] });
      expect(r.counters.sources).toMatchObject({ total: '1.3.6.1.2.1.43.10.2.1.4.1.1 (Printer-MIB: prtMarkerLifeCount)' });
      expect(r.counters.sources.mono).toBeUndefined();
    }
  });
});

describe('which total', () => {
  it('bills on the vendor total, keeps the marker count beside it, and flags a split that does not add up', () => {
    const hp = '1.3.6.1.4.1.11.2.3.9.4.2.1.4.1.2';
    const r = buildReading(device('HP ETHERNET MULTI-ENVIRONMENT,ROM none,JETDIRECT,JD153', '1.3.6.1.4.1.11.2.3.9.1', [
      '1.3.6.1.2.1.43.10.2.1.4.1.1|65|10400', `${hp}.5.0|65|10000`, `${hp}.6.0|65|7000`, `${hp}.7.0|65|2900`,
    ].join('\n')), registry);
    expect(r.counters).toMatchObject({ total: 10_000, vendorTotal: 10_000, markerTotal: 10_400, mono: 7_000, color: 2_900 });
    expect(r.counters.splitMismatch).toEqual({ total: 10_000, monoPlusColor: 9_900 });
    expect(r.counters.sources.total).toBe(`${hp}.5.0 (hp: Total engine pages)`);
  });
});
