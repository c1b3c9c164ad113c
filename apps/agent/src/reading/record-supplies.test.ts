import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { varbinds } from '../../test/helpers/varbinds.ts';
import { createDefaultRegistry } from '../profiles/models-pack.loader.ts';
import { buildReading } from './build-reading.ts';

/**
 * Brother's supply levels from its maintenance record brInfoMaintenance (issue 57): each figure
 * against the brother library's reading of the same device (bieniu/brother, its snapshot
 * tests/snapshots/test_init.ambr), and every level saying where it came from.
 */
const walks = resolve(dirname(fileURLToPath(import.meta.url)), '../../test/walks');
const registry = createDefaultRegistry();
const read = (text: string) => buildReading(varbinds(text), registry);
const walk = (file: string) => read(readFileSync(join(walks, file), 'utf8'));
const MAINTENANCE = '1.3.6.1.4.1.2435.2.3.9.4.2.1.5.5.8.0';
const fromRecord = (code: string, name: string) => `${MAINTENANCE} (brother: brInfoMaintenance, record ${code} ${name})`;
/** Each supply as "description: percent", in the reading's order. */
const levels = (r: ReturnType<typeof read>) => Object.fromEntries(r.supplies.map((s) => [s.description, s.percent]));

describe('Brother: supply levels from the maintenance record', () => {
  it('a record built byte by byte: toner in per cent, drum and belt in hundredths, laid over the Printer-MIB rows', () => {
    const record = [
      '81010400000046', // 81 black toner: 70 %
      '82010400000005', // 82 cyan toner: 5 %
      '800104000015e0', // 80 black drum: 5,600 hundredths = 56 %
      '79010400001388', // 79 cyan drum: 50 %
      '6901040000251c', // 69 belt: 9,500 = 95 %
      '99010400000007', // an unknown code: skipped
      'ff',
    ].join('');
    const p = '1.3.6.1.2.1.43.11.1.1';
    const r = read([
      '1.3.6.1.2.1.1.1.0|4|Brother NC-8700w, Firmware Ver.Y  ,MID 84E-822',
      '1.3.6.1.2.1.1.2.0|6|1.3.6.1.4.1.2435.2.3.9.1',
      '1.3.6.1.2.1.25.3.2.1.3.1|4|Brother HL-L8260CDW series',
      // The HL-L8260CDW's rows: toners at -3 (some remaining), one drum unit of 30,000 pages; colorants 1 black, 2 cyan.
      `${p}.3.1.1|2|1`, `${p}.5.1.1|2|3`, `${p}.6.1.1|4|Black Toner Cartridge`, `${p}.8.1.1|2|-2`, `${p}.9.1.1|2|-3`,
      `${p}.3.1.2|2|2`, `${p}.5.1.2|2|3`, `${p}.6.1.2|4|Cyan Toner Cartridge`, `${p}.8.1.2|2|-2`, `${p}.9.1.2|2|-3`,
      `${p}.5.1.7|2|9`, `${p}.6.1.7|4|Drum Unit`, `${p}.8.1.7|2|30000`, `${p}.9.1.7|2|22596`,
      '1.3.6.1.2.1.43.12.1.1.4.1.1|4|black', '1.3.6.1.2.1.43.12.1.1.4.1.2|4|cyan',
      `${MAINTENANCE}|4x|${record}`,
    ].join('\n'));
    expect(r.problems).toEqual([]);
    expect(r.supplies.map((s) => [s.index, s.description, s.level, s.percent, s.levelState, s.source])).toEqual([
      [1, 'Black Toner Cartridge', -3, 70, null, fromRecord('81', 'Black toner')],
      [2, 'Cyan Toner Cartridge', -3, 5, null, fromRecord('82', 'Cyan toner')],
      // One drum unit, a drum per colour in the record: as worn as its most worn drum.
      [7, 'Drum Unit', 22596, 50, null, fromRecord('79', 'Cyan drum')],
      // No Printer-MIB row for the belt: the record's supply, numbered 1000 + 0x69.
      [1105, 'Belt unit', 95, 95, null, fromRecord('69', 'Belt unit')],
    ]);
  });

  it('without a record, the Printer-MIB level and its source (the HL-L8260CDW\'s real walk, which holds no maintenance record)', () => {
    const r = walk('brother-hl-l8260cdw.snmprec');
    expect(r).toMatchObject({ model: 'HL-L8260CDW', colorType: 'COLOR', problems: [] });
    const black = r.supplies.find((s) => s.index === 1)!;
    expect(black).toMatchObject({ level: -3, percent: null, levelState: 'SOME_REMAINING', source: '1.3.6.1.2.1.43.11.1.1.9.1.1 (Printer-MIB: prtMarkerSuppliesLevel)' });
    // Drum Unit 22,596 of 30,000, Belt Unit 56,461 of 100,000.
    expect(levels(r)).toMatchObject({ 'Drum Unit': 75, 'Belt Unit': 56 });
  });

  it('DCP-L3550CDW (real record): toners, drums, belt and fuser as the brother library reads this device', () => {
    const r = walk('brother-dcp-l3550cdw.snmprec');
    // Snapshot: black_toner 30, cyan_toner 10, magenta_toner 10, yellow_toner 10; each drum 92; belt 97; fuser 97.
    expect(levels(r)).toEqual({
      'Belt unit': 97, 'Fuser unit': 97, 'Cyan drum': 92, 'Magenta drum': 92, 'Yellow drum': 92, 'Black drum': 92,
      'Black toner': 30, 'Cyan toner': 10, 'Magenta toner': 10, 'Yellow toner': 10,
    });
    expect(r.supplies.find((s) => s.description === 'Black toner')).toMatchObject({ type: 'toner', colorant: 'black', source: fromRecord('81', 'Black toner') });
    expect(r.problems).toEqual([]);
  });

  it('DCP-9020CDW (real record): the same codes on an older model', () => {
    // Snapshot: black_toner 100, cyan 70, magenta 60, yellow 20; each drum 68; belt 83; fuser 91.
    expect(levels(walk('brother-dcp-9020cdw.snmprec'))).toMatchObject({
      'Black toner': 100, 'Cyan toner': 70, 'Magenta toner': 60, 'Yellow toner': 20, 'Black drum': 68, 'Cyan drum': 68, 'Belt unit': 83, 'Fuser unit': 91,
    });
  });

  it('HL-L2340DW (real record, monochrome): one toner and one drum', () => {
    const r = walk('brother-hl-l2340dw.snmprec');
    // Snapshot: black_toner 80, drum_remaining_life 92.
    expect(levels(r)).toEqual({ Drum: 92, 'Black toner': 80 });
    expect(r.supplies.find((s) => s.description === 'Drum')?.source).toBe(fromRecord('41', 'Drum'));
  });

  it('MFC-J680DW (real record, an inkjet): the same codes are its inks', () => {
    const r = walk('brother-mfc-j680dw.snmprec');
    // Snapshot: black_ink 47, cyan_ink 35, magenta_ink 85, yellow_ink 45.
    expect(levels(r)).toEqual({ 'Black ink': 47, 'Cyan ink': 35, 'Magenta ink': 85, 'Yellow ink': 45 });
    expect(r.supplies.every((s) => s.type === 'inkCartridge')).toBe(true);
    expect(r.colorType).toBe('COLOR');
  });
});

describe('Brother: a monochrome laser has a black-and-white count, marked derived', () => {
  it('from the model\'s name (no C): HL-L2340DW, with neither prtMarkerProcessColorants nor Printer-MIB toner rows', () => {
    const r = walk('brother-hl-l2340dw.snmprec');
    expect(r.colorType).toBe('MONO');
    // The counter record's total (986) is the billing total; prtMarkerLifeCount (1,279) is kept beside it.
    expect(r.counters).toMatchObject({ total: 986, vendorTotal: 986, markerTotal: 1279, mono: 986, color: null, derived: ['mono'] });
    expect(r.counters.sources.mono).toBe('derived: mono device (black-and-white = total)');
  });

  it('from the counter record without a colour entry, where the walk names no model (HL-L5100DN)', () => {
    const r = walk('brother-hl-l5100dn.snmprec');
    expect(r).toMatchObject({ model: null, colorType: 'MONO', counters: { total: 9, mono: 9, derived: ['mono'] } });
  });

  it('a colour model stays colour with a record that has no colour entry yet', () => {
    const r = read([
      '1.3.6.1.2.1.1.2.0|6|1.3.6.1.4.1.2435.2.3.9.1',
      '1.3.6.1.4.1.2435.2.3.9.1.1.7.0|4|MFG:Brother;MDL:HL-L3270CDW series;CLS:PRINTER;',
      '1.3.6.1.4.1.2435.2.3.9.4.2.1.5.5.10.0|4x|00010400000009',
    ].join('\n'));
    expect(r).toMatchObject({ model: 'HL-L3270CDW', colorType: 'COLOR', counters: { mono: null, derived: [] } });
  });
});
