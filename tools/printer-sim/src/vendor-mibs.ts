import { TAG } from '@pagewatch/snmp/ber-codec';
import type { WireValue } from '@pagewatch/snmp/ber-codec';
import type { VendorKey } from './catalogue.ts';
import type { SimPrinter, SupplyState } from './printer-state.ts';

export type MibSink = (oid: string, tag: number, value: WireValue) => void;

/** How a supply's level is published: prtMarkerSuppliesSupplyUnit, MaxCapacity, Level. */
export type PublishedLevel = { unit: number; max: number; level: number };

/**
 * How one vendor's agents publish a device: identity strings, the supply level convention and
 * the private OIDs our profiles read. One entry per vendor; the standard MIBs are in mib-view.ts.
 */
export type VendorMib = {
  sysObjectID: string;
  sysDescr(p: SimPrinter): string;
  level(p: SimPrinter, s: SupplyState): PublishedLevel;
  /** prtMarkerSuppliesType of a toner: toner(3) or tonerCartridge(21). */
  tonerType?: number;
  privateOids(p: SimPrinter, add: MibSink): void;
};

const UNIT_PERCENT = 19;
const UNIT_IMPRESSIONS = 7;

const percentLevel = (p: SimPrinter, s: SupplyState): PublishedLevel => ({ unit: UNIT_PERCENT, max: 100, level: Math.ceil(p.percent(s)) });
const impressionLevel = (_p: SimPrinter, s: SupplyState): PublishedLevel => ({ unit: UNIT_IMPRESSIONS, max: s.spec.lifePages, level: Math.max(0, Math.round(s.remaining)) });

const text = (add: MibSink, oid: string, value: string): void => add(oid, TAG.octets, value);
const num = (add: MibSink, oid: string, value: number): void => add(oid, TAG.integer, value);
const counter = (add: MibSink, oid: string, value: number): void => add(oid, TAG.counter32, value);

function totals(p: SimPrinter): { mono: number; color: number; copies: number; prints: number; a3: number; a4: number } {
  const c = p.counters;
  const a3 = c.a3Mono + c.a3Color;
  return { mono: c.printMono + c.copyMono, color: c.printColor + c.copyColor, copies: c.copyMono + c.copyColor, prints: c.printMono + c.printColor, a3, a4: p.totalPages - a3 };
}

/** A typed table: for each row its type in `typeColumn` and its value in `valueColumn`, rows numbered from 1. */
function typedRows(add: MibSink, typeColumn: string, valueColumn: string, rows: Array<[number, number]>, rowPrefix = ''): void {
  rows.forEach(([type, value], i) => {
    num(add, `${typeColumn}.${rowPrefix}${i + 1}`, type);
    counter(add, `${valueColumn}.${rowPrefix}${i + 1}`, value);
  });
}

/** Brother's counter record string: per counter its code, 0x01, the length 4 and the value, big-endian. */
function brotherRecords(records: Array<[number, number]>): Uint8Array {
  const out = new Uint8Array(records.length * 7);
  records.forEach(([code, value], i) => {
    out.set([code, 0x01, 0x04], i * 7);
    new DataView(out.buffer).setUint32(i * 7 + 3, value >>> 0);
  });
  return out;
}

const hp: VendorMib = {
  sysObjectID: '1.3.6.1.4.1.11.2.3.9.1',
  sysDescr: (p) => `HP ETHERNET MULTI-ENVIRONMENT,ROM none,JETDIRECT,JD153,EEPROM JSI${p.model.firmware.replace(/\W/g, '')},CIDATE 06/14/2024`,
  level: percentLevel,
  tonerType: 21,
  privateOids(p, add) {
    const m = p.model.model;
    text(add, '1.3.6.1.4.1.11.2.3.9.1.1.7.0', `MFG:HP;MDL:HP ${m};CMD:PJL,PCL,PDF,POSTSCRIPT;CLS:PRINTER;DES:HP ${m};`);
    text(add, '1.3.6.1.4.1.11.2.3.9.4.2.1.1.3.2.0', `HP ${m}`);
    text(add, '1.3.6.1.4.1.11.2.3.9.4.2.1.1.3.3.0', p.serial);
    text(add, '1.3.6.1.4.1.11.2.3.9.4.2.1.1.3.6.0', p.model.firmware);
    const t = totals(p);
    const base = '1.3.6.1.4.1.11.2.3.9.4.2.1.4.1.2';
    counter(add, `${base}.5.0`, p.totalPages);
    counter(add, `${base}.6.0`, t.mono);
    if (p.model.color) counter(add, `${base}.7.0`, t.color);
    counter(add, `${base}.22.0`, p.counters.duplex);
    counter(add, `${base}.34.0`, p.counters.jams);
    const hp = '1.3.6.1.4.1.11.2.3.9.4.2.1';
    if (p.model.type === 'MFP') {
      counter(add, `${hp}.2.2.1.63.0`, t.copies);
      const flatbed = Math.floor((p.counters.scans * 3) / 10);
      counter(add, `${hp}.2.2.1.45.0`, p.counters.scans - flatbed); // ADF
      counter(add, `${hp}.2.2.1.73.0`, flatbed);
    }
    // printed-media-usage, total of a PCL paper size: 26 A4, 27 A3.
    counter(add, `${hp}.1.16.1.1.5.26.0`, t.a4);
    if (p.model.a3) counter(add, `${hp}.1.16.1.1.5.27.0`, t.a3);
  },
};

const kyocera: VendorMib = {
  sysObjectID: '1.3.6.1.4.1.1347.41',
  sysDescr: () => 'KYOCERA Document Solutions Printing System',
  level: impressionLevel,
  privateOids(p, add) {
    text(add, '1.3.6.1.4.1.1347.40.10.1.1.5.1', p.hostName);
    text(add, '1.3.6.1.4.1.1347.43.5.1.1.1.1', p.model.model);
    text(add, '1.3.6.1.4.1.1347.43.5.1.1.28.1', p.serial);
    text(add, '1.3.6.1.4.1.1347.43.5.4.1.5.1.1', p.model.firmware);
    const c = p.counters;
    counter(add, '1.3.6.1.4.1.1347.42.3.1.1.1.1.1', c.printMono + c.printColor);
    if (p.model.type === 'MFP') counter(add, '1.3.6.1.4.1.1347.42.3.1.1.1.1.2', c.copyMono + c.copyColor);
    counter(add, '1.3.6.1.4.1.1347.42.3.1.1.1.1.4', c.fax);
    // kmMFPColorModeCounterItem: <function 1 printer, 2 copier>.<colour mode 1 black, 3 full colour>.
    const km = '1.3.6.1.4.1.1347.42.3.1';
    counter(add, `${km}.2.1.1.1.1`, c.printMono);
    if (p.model.color) counter(add, `${km}.2.1.1.1.3`, c.printColor);
    if (p.model.type === 'MFP') {
      counter(add, `${km}.2.1.1.2.1`, c.copyMono);
      if (p.model.color) counter(add, `${km}.2.1.1.2.3`, c.copyColor);
      counter(add, `${km}.3.1.1.2`, Math.floor(c.scans / 3)); // copier scans
      counter(add, `${km}.4.1.1.1`, c.scans - Math.floor(c.scans / 3)); // other scans
    }
    // Printed pages by paper size (1347.42.2.1.1.1.<column>.1.<size>: 6 all, 7 black, 8 full colour), a size numbered
    // per device and named in the device's own size table (column 2): an A3 model lists A3, B4, A4; an A4 model A4,
    // A5, Letter (so A4 is size 1 there). A monochrome printer publishes column 6 alone, as the ECOSYS P2040dw does.
    const sizes = p.model.a3 ? ['A3', 'B4', 'A4'] : ['A4', 'A5', 'Letter'];
    const bySize = '1.3.6.1.4.1.1347.42.2.1.1.1';
    sizes.forEach((name, i) => text(add, `${bySize}.2.1.${i + 1}`, name));
    const [large, small] = [1, sizes.indexOf('A4') + 1];
    const mono = c.printMono + c.copyMono;
    const colour = c.printColor + c.copyColor;
    num(add, `${bySize}.6.1.${small}`, mono + colour - c.a3Mono - c.a3Color);
    if (p.model.a3) num(add, `${bySize}.6.1.${large}`, c.a3Mono + c.a3Color);
    if (p.model.color) {
      num(add, `${bySize}.7.1.${small}`, mono - c.a3Mono);
      num(add, `${bySize}.8.1.${small}`, colour - c.a3Color);
      if (p.model.a3) {
        num(add, `${bySize}.7.1.${large}`, c.a3Mono);
        num(add, `${bySize}.8.1.${large}`, c.a3Color);
      }
    }
    // The device's own total of printed pages, the one its web page shows.
    num(add, '1.3.6.1.4.1.1347.43.10.1.1.12.1.1', p.totalPages);
    counter(add, '1.3.6.1.4.1.1347.42.2.5.1.1.2.1', c.duplex); // pages printed on both sides
  },
};

/**
 * Ricoh's private counter table: rows of (type code, value). No A3 row: no public source gives an
 * A3/DLT type code (packages/snmp/VENDOR-COUNTERS.md, "A3 on Ricoh and Sharp").
 */
const RICOH_COUNTER_ROWS: Array<[number, (p: SimPrinter) => number]> = [
  [10, (p) => p.totalPages],
  [200, (p) => p.counters.copyMono + p.counters.copyColor],
  [201, (p) => p.counters.copyMono],
  [202, (p) => p.counters.copyColor],
  [401, (p) => p.counters.printMono],
  [402, (p) => p.counters.printColor],
  [870, (p) => p.counters.scans], // transmissions: the scans, no fax sent here
  [873, (p) => Math.floor(p.counters.scans / 4)], // colour scans
  [874, (p) => p.counters.scans - Math.floor(p.counters.scans / 4)], // black-and-white scans
];

const ricoh: VendorMib = {
  sysObjectID: '1.3.6.1.4.1.367.1.1',
  sysDescr: (p) =>
    `RICOH ${p.model.model} ${p.model.firmware} / RICOH Network Printer C model` +
    (p.model.type === 'MFP' ? ' / RICOH Network Scanner C model / RICOH Network Facsimile C model' : ''),
  level: percentLevel,
  privateOids(p, add) {
    text(add, '1.3.6.1.4.1.367.3.2.1.1.1.1.0', `RICOH ${p.model.model}`);
    text(add, '1.3.6.1.4.1.367.3.2.1.1.1.2.0', p.model.firmware);
    text(add, '1.3.6.1.4.1.367.3.2.1.2.1.4.0', p.serial);
    text(add, '1.3.6.1.4.1.367.3.2.1.6.1.1.7.1', p.hostName);
    const rows = RICOH_COUNTER_ROWS.filter(([type]) => p.model.type === 'MFP' || type === 10 || (type > 400 && type < 800))
      .filter(([type]) => p.model.color || ![202, 402].includes(type));
    rows.forEach(([type, value], i) => {
      num(add, `1.3.6.1.4.1.367.3.2.1.2.19.5.1.2.${i + 1}`, type);
      num(add, `1.3.6.1.4.1.367.3.2.1.2.19.5.1.9.${i + 1}`, value(p));
    });
    for (const s of p.supplies) {
      text(add, `1.3.6.1.4.1.367.3.2.1.2.24.1.1.3.${s.index}`, s.spec.description);
      num(add, `1.3.6.1.4.1.367.3.2.1.2.24.1.1.5.${s.index}`, Math.ceil(p.percent(s)));
    }
  },
};

const xerox: VendorMib = {
  sysObjectID: '1.3.6.1.4.1.253.8.62.1.34.1.1',
  sysDescr: (p) => `Xerox ${p.model.model}; SS ${p.model.firmware}, NC 75.10.81, UI 1.2.3, ME 63.2.0, IOT 5.9.0`,
  level: impressionLevel,
  privateOids(p, add) {
    const m = p.model.model;
    text(add, '1.3.6.1.4.1.253.8.51.1.2.1.20.1', `MFG:Xerox;CMD:PCL 6,PostScript Level 3,PDF;MDL:${m};CLS:PRINTER;DES:Xerox ${m};`);
    text(add, '1.3.6.1.4.1.253.8.53.3.2.1.3.1', p.serial);
    const c = p.counters;
    const base = '1.3.6.1.4.1.253.8.53.13.2.1.6';
    counter(add, `${base}.1.20.1`, p.totalPages);
    if (p.model.color) counter(add, `${base}.1.20.33`, c.printColor + c.copyColor);
    counter(add, `${base}.1.20.34`, c.printMono + c.copyMono);
    if (p.model.type === 'MFP') {
      counter(add, `${base}.10.20.11`, Math.floor(c.scans / 2));
      counter(add, `${base}.10.20.12`, Math.ceil(c.scans / 2));
      counter(add, `${base}.11.20.3`, c.copyMono);
      if (p.model.color) counter(add, `${base}.11.20.25`, c.copyColor);
    }
    if (p.model.a3) {
      counter(add, `${base}.1.20.44`, c.a3Mono);
      if (p.model.color) counter(add, `${base}.1.20.43`, c.a3Color);
    }
  },
};

const brother: VendorMib = {
  sysObjectID: '1.3.6.1.4.1.2435.2.3.9.1',
  sysDescr: (p) => `Brother NC-8800h, Firmware Ver.${p.model.firmware}  (24.04.2024),MID 8CE-K05,FID 2`,
  // Brother agents use levels 1..3 as codes (low, empty): a real percentage never shows them.
  level: (p, s) => {
    const level = Math.ceil(p.percent(s));
    return { unit: UNIT_PERCENT, max: 100, level: level >= 1 && level <= 3 ? 1 : level };
  },
  privateOids(p, add) {
    text(add, '1.3.6.1.4.1.2435.2.3.9.1.1.7.0', `MFG:Brother;CMD:PJL,PCL,PCLXL,URF;MDL:${p.model.model} series;CLS:PRINTER;CID:Brother Laser Type1;`);
    text(add, '1.3.6.1.4.1.2435.2.3.9.4.2.1.5.5.1.0', p.serial);
    text(add, '1.3.6.1.4.1.2435.2.4.3.1240.1.1.0', p.hostName);
    text(add, '1.3.6.1.4.1.2435.2.4.3.1240.6.5.0', `MAIN Ver.${p.model.firmware}`);
    const br = '1.3.6.1.4.1.2435.2.3.9.4.2.1.5.5';
    const c = p.counters;
    const t = totals(p);
    // brInfoCounter: typed records (code, 0x01, length 4, big-endian value): 00 total, 01 black, 02 colour, 06 duplex.
    add(`${br}.10.0`, TAG.octets, brotherRecords([[0x00, p.totalPages], [0x01, t.mono], ...(p.model.color ? [[0x02, t.color] as [number, number]] : []), [0x06, c.duplex]]));
    // brPrintPagesFuncType: 1 PC print total, 3 copy total, 4 copy colour, 5 PC print colour, 7 PC print black, 9 copy black.
    typedRows(add, `${br}.52.21.1.2`, `${br}.52.21.1.3`, [
      [1, t.prints], [7, c.printMono], ...(p.model.color ? [[5, c.printColor] as [number, number]] : []),
      ...(p.model.type === 'MFP' ? [[3, t.copies], [9, c.copyMono], ...(p.model.color ? [[4, c.copyColor] as [number, number]] : [])] as Array<[number, number]> : []),
    ]);
    // Pages by paper size: 26 A4, 27 A3.
    typedRows(add, `${br}.52.1.1.2`, `${br}.52.1.1.3`, [[26, t.a4], ...(p.model.a3 ? [[27, t.a3] as [number, number]] : [])]);
    // Pages by side: 1 face, 2 back.
    typedRows(add, `${br}.52.11.1.2`, `${br}.52.11.1.3`, [[1, p.totalPages - Math.floor(c.duplex / 2)], [2, Math.floor(c.duplex / 2)]]);
    if (p.model.type === 'MFP') typedRows(add, `${br}.54.2.2.1.2`, `${br}.54.2.2.1.3`, [[1, Math.ceil(c.scans / 2)], [2, Math.floor(c.scans / 2)]]);
  },
};

const canon: VendorMib = {
  sysObjectID: '1.3.6.1.4.1.1602.4.7',
  sysDescr: (p) => `Canon ${p.model.model} /P`,
  level: percentLevel,
  privateOids(p, add) {
    text(add, '1.3.6.1.4.1.1602.1.1.1.1.0', p.model.model);
    text(add, '1.3.6.1.4.1.1602.1.1.1.4.0', p.model.firmware);
    text(add, '1.3.6.1.4.1.1602.1.2.1.8.1.3.1.1', p.serial);
    // Counters by Canon counter code: 101 Total 1, 112/113 black large/small, 122/123 colour large/small, 201 copy, 501 scan.
    const ca = '1.3.6.1.4.1.1602.1.11.1.3.1.4';
    const c = p.counters;
    counter(add, `${ca}.101`, p.totalPages);
    counter(add, `${ca}.102`, p.totalPages + c.a3Mono + c.a3Color); // Total 2: a large page counts twice
    if (p.model.a3) counter(add, `${ca}.112`, c.a3Mono);
    counter(add, `${ca}.113`, c.printMono + c.copyMono - c.a3Mono);
    if (p.model.color) {
      if (p.model.a3) counter(add, `${ca}.122`, c.a3Color);
      counter(add, `${ca}.123`, c.printColor + c.copyColor - c.a3Color);
    }
    if (p.model.type === 'MFP') {
      counter(add, `${ca}.201`, c.copyMono + c.copyColor);
      counter(add, `${ca}.501`, c.scans);
    }
  },
};

const konicaMinolta: VendorMib = {
  sysObjectID: '1.3.6.1.4.1.18334.1.2.1.2.1.48.2.1',
  sysDescr: (p) => `KONICA MINOLTA ${p.model.model}`,
  level: percentLevel,
  privateOids(p, add) {
    text(add, '1.3.6.1.4.1.18334.1.1.1.1.6.1.0', p.model.firmware);
    text(add, '1.3.6.1.4.1.18334.1.1.1.1.6.2.1.0', `KONICA MINOLTA ${p.model.model}`);
    const c = p.counters;
    const base = '1.3.6.1.4.1.18334.1.1.1.5.7.2';
    counter(add, `${base}.1.1.0`, p.totalPages);
    counter(add, `${base}.1.3.0`, c.duplex);
    if (p.model.type === 'MFP') counter(add, `${base}.2.1.5.1.1`, c.copyMono);
    // The colour and function counters count a large page as two; the large pages are counted apart (here all as prints).
    counter(add, `${base}.2.1.5.1.2`, c.printMono + c.a3Mono);
    if (p.model.a3) counter(add, `${base}.2.1.7.1.2`, c.a3Mono);
    if (p.model.color) {
      if (p.model.type === 'MFP') counter(add, `${base}.2.1.5.2.1`, c.copyColor);
      counter(add, `${base}.2.1.5.2.2`, c.printColor + c.a3Color);
      if (p.model.a3) counter(add, `${base}.2.1.7.2.2`, c.a3Color);
    }
    if (p.model.type === 'MFP') {
      counter(add, `${base}.1.5.0`, c.scans); // the scan total, which models without the per-function table give alone
      counter(add, `${base}.3.1.5.1`, c.scans);
    }
  },
};

const sharp: VendorMib = {
  sysObjectID: '1.3.6.1.4.1.2385.3.1.51',
  sysDescr: (p) => `SHARP ${p.model.model}`,
  level: percentLevel,
  privateOids(p, add) {
    text(add, '1.3.6.1.4.1.2385.2.1.1.2.1.2.1', p.model.firmware);
    text(add, '1.3.6.1.4.1.2385.2.1.3.2.1.4.13501.1302.1', p.serial);
    const t = totals(p);
    // The rows a real Sharp names (corpus librenms-sharp); none is by paper size, so no A3 row (VENDOR-COUNTERS.md).
    const rows: Array<[string, string, number]> = [
      ['1.4.75', 'Duplex', p.counters.duplex],
      ['4.4.60', 'Copies', t.copies],
      ['5.4.61', 'Black & White Total Count', t.mono],
      ...(p.model.color ? [['5.4.63', 'Full Color Total Count', t.color] as [string, string, number]] : []),
      ['7.4.51', 'Black & White Scanner Count', Math.floor(p.counters.scans / 2)],
      ['7.4.53', 'Full Color Scanner Count', Math.ceil(p.counters.scans / 2)],
    ];
    for (const [row, name, value] of rows) {
      counter(add, `1.3.6.1.4.1.2385.1.1.19.2.1.3.${row}`, value);
      text(add, `1.3.6.1.4.1.2385.1.1.19.2.1.4.${row}`, name);
    }
  },
};

const lexmark: VendorMib = {
  sysObjectID: '1.3.6.1.4.1.641.1.5.7.4',
  sysDescr: (p) => `Lexmark ${p.model.model} version ${p.model.firmware} kernel 5.10.0 All-N-1`,
  level: percentLevel,
  privateOids(p, add) {
    text(add, '1.3.6.1.4.1.641.6.2.3.1.4.1', `Lexmark ${p.model.model}`);
    text(add, '1.3.6.1.4.1.641.6.2.3.1.5.1', p.serial);
    text(add, '1.3.6.1.4.1.641.6.3.3.1.7.1.1', p.model.firmware);
    const lx = '1.3.6.1.4.1.641.6.4';
    const c = p.counters;
    const t = totals(p);
    // paperGeneralCountTable: 2 delivered, 3 black, 4 colour, 32 copies.
    typedRows(add, `${lx}.2.1.1.2`, `${lx}.2.1.1.4`, [[2, p.totalPages], [3, t.mono], ...(p.model.color ? [[4, t.color] as [number, number]] : []),
      ...(p.model.type === 'MFP' ? [[32, t.copies] as [number, number]] : [])], '1.');
    // paperSidesCountTable by paper size (68 A4, 67 A3): black sides delivered, colour sides delivered.
    const sizes: Array<[number, number, number]> = [[68, t.mono - c.a3Mono, t.color - c.a3Color], ...(p.model.a3 ? [[67, c.a3Mono, c.a3Color] as [number, number, number]] : [])];
    sizes.forEach(([size, mono, color], i) => {
      num(add, `${lx}.2.2.1.2.1.${i + 1}`, size);
      counter(add, `${lx}.2.2.1.6.1.${i + 1}`, mono);
      counter(add, `${lx}.2.2.1.7.1.${i + 1}`, color);
    });
    // scanCountTable: 1 copy from the ADF, 3 scan to e-mail from the ADF.
    if (p.model.type === 'MFP') typedRows(add, `${lx}.3.1.1.2`, `${lx}.3.1.1.4`, [[1, Math.floor(c.scans / 2)], [3, Math.ceil(c.scans / 2)]], '1.');
  },
};

/** A maker unknown to the models pack: standard MIBs only, its own enterprise number. */
const acme: VendorMib = {
  sysObjectID: '1.3.6.1.4.1.64999.1.1',
  sysDescr: (p) => `Acme ${p.model.model} ${p.model.firmware}`,
  level: percentLevel,
  privateOids(p, add) {
    text(add, '1.3.6.1.4.1.64999.1.2.1.0', p.serial);
  },
};

export const VENDOR_MIBS: Record<VendorKey, VendorMib> = {
  hp, kyocera, ricoh, xerox, brother, canon, 'konica-minolta': konicaMinolta, sharp, lexmark, acme,
};
