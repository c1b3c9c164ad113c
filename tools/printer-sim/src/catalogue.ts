/**
 * The simulated models: our own made-up data in the shape real devices use (model names as
 * vendors sell them, invented firmware, serials and supply descriptions). Each entry names the
 * vendor MIB builder (vendor-mibs.ts) that publishes it the way the vendor's agents do.
 */

export type VendorKey = 'hp' | 'kyocera' | 'ricoh' | 'xerox' | 'brother' | 'canon' | 'konica-minolta' | 'sharp' | 'lexmark' | 'acme';
export type Colorant = 'black' | 'cyan' | 'magenta' | 'yellow';
export type SupplyKind = 'toner' | 'drum' | 'waste' | 'fuser';

export type SupplySpec = {
  kind: SupplyKind;
  colorant: Colorant | null;
  /** Printed as the device prints it; `{pn}` is replaced by the part number. */
  description: string;
  partNumber: string;
  /** Pages one unit lasts (at 5 % coverage for toner). */
  lifePages: number;
};

export type ModelSpec = {
  vendor: VendorKey;
  /** What the probe must read as the vendor (the models pack's vendor name). */
  vendorName: string;
  model: string;
  type: 'PRINTER' | 'MFP';
  color: boolean;
  a3: boolean;
  /** Average pages per day, spread over the day. */
  pagesPerDay: number;
  firmware: string;
  supplies: SupplySpec[];
};

const toner = (colorant: Colorant, description: string, partNumber: string, lifePages: number): SupplySpec => ({
  kind: 'toner', colorant, description, partNumber, lifePages,
});
const unit = (kind: SupplyKind, description: string, partNumber: string, lifePages: number): SupplySpec => ({
  kind, colorant: null, description, partNumber, lifePages,
});
const cmyk = (make: (c: Colorant) => [string, string], lifePages: number): SupplySpec[] =>
  (['black', 'cyan', 'magenta', 'yellow'] as const).map((c) => {
    const [description, pn] = make(c);
    return toner(c, description, pn, c === 'black' ? lifePages : Math.round(lifePages * 0.8));
  });
const cap = (c: string): string => c[0]!.toUpperCase() + c.slice(1);

export const MODELS: ModelSpec[] = [
  {
    vendor: 'hp', vendorName: 'HP', model: 'LaserJet Pro M404dn', type: 'PRINTER', color: false, a3: false, pagesPerDay: 120,
    firmware: '002.2330A',
    supplies: [toner('black', 'Black Cartridge HP {pn}', 'CF259A', 3000)],
  },
  {
    vendor: 'hp', vendorName: 'HP', model: 'Color LaserJet Pro MFP M479fdw', type: 'MFP', color: true, a3: false, pagesPerDay: 200,
    firmware: '002.2341B',
    supplies: [
      ...cmyk((c) => [`${cap(c)} Cartridge HP {pn}`, { black: 'W2030A', cyan: 'W2031A', magenta: 'W2033A', yellow: 'W2032A' }[c]], 2400),
    ],
  },
  {
    vendor: 'hp', vendorName: 'HP', model: 'LaserJet Enterprise MFP M725dn', type: 'MFP', color: false, a3: true, pagesPerDay: 600,
    firmware: '2409081_000410',
    supplies: [toner('black', 'Black Cartridge HP {pn}', 'CF214X', 17500), unit('fuser', 'Fuser Kit HP {pn}', 'CF254A', 200000)],
  },
  {
    vendor: 'kyocera', vendorName: 'Kyocera', model: 'ECOSYS P3145dn', type: 'PRINTER', color: false, a3: false, pagesPerDay: 250,
    firmware: '2T5_2F00.005.003',
    supplies: [toner('black', 'TK-3160', 'TK-3160', 12500), unit('waste', 'Waste Toner Box', 'WT-3100', 100000)],
  },
  {
    vendor: 'kyocera', vendorName: 'Kyocera', model: 'ECOSYS M5526cdw', type: 'MFP', color: true, a3: false, pagesPerDay: 150,
    firmware: '2R7_2000.003.101',
    supplies: [...cmyk((c) => [`TK-5240${c[0]!.toUpperCase()}`, `TK-5240${c[0]!.toUpperCase()}`], 4000), unit('waste', 'Waste Toner Box', 'WT-5140', 36000)],
  },
  {
    vendor: 'kyocera', vendorName: 'Kyocera', model: 'TASKalfa 3253ci', type: 'MFP', color: true, a3: true, pagesPerDay: 700,
    firmware: '2V9_S000.002.211',
    supplies: [...cmyk((c) => [`TK-8335${c[0]!.toUpperCase()}`, `TK-8335${c[0]!.toUpperCase()}`], 25000), unit('waste', 'Waste Toner Box', 'WT-8500', 40000)],
  },
  {
    vendor: 'ricoh', vendorName: 'Ricoh', model: 'IM C3000', type: 'MFP', color: true, a3: true, pagesPerDay: 800,
    firmware: '1.02',
    supplies: [...cmyk((c) => [`Toner ${cap(c)}`, `842${{ black: '255', cyan: '258', magenta: '257', yellow: '256' }[c]}`], 33000), unit('waste', 'Waste Toner', 'D2426400', 100000)],
  },
  {
    vendor: 'ricoh', vendorName: 'Ricoh', model: 'SP 5300DN', type: 'PRINTER', color: false, a3: false, pagesPerDay: 300,
    firmware: '1.05',
    supplies: [toner('black', 'Toner Black', '418477', 25000)],
  },
  {
    vendor: 'xerox', vendorName: 'Xerox', model: 'VersaLink C405', type: 'MFP', color: true, a3: false, pagesPerDay: 250,
    firmware: '74.21.11',
    supplies: [
      ...cmyk((c) => [`${cap(c)} Toner Cartridge, PN {pn};SN{sn}`, { black: '106R03508', cyan: '106R03502', magenta: '106R03503', yellow: '106R03504' }[c]], 5000),
      unit('drum', 'Drum Cartridge, PN {pn};SN{sn}', '101R00555', 48000),
    ],
  },
  {
    vendor: 'xerox', vendorName: 'Xerox', model: 'AltaLink C8130', type: 'MFP', color: true, a3: true, pagesPerDay: 900,
    firmware: '111.009.013.24300',
    supplies: [
      ...cmyk((c) => [`${cap(c)} Toner Cartridge, PN {pn};SN{sn}`, { black: '006R01746', cyan: '006R01747', magenta: '006R01748', yellow: '006R01749' }[c]], 26000),
      unit('waste', 'Waste Cartridge, PN {pn};SN{sn}', '008R08101', 47000),
    ],
  },
  {
    vendor: 'xerox', vendorName: 'Xerox', model: 'Phaser 6510', type: 'PRINTER', color: true, a3: false, pagesPerDay: 100,
    firmware: '64.60.51',
    supplies: [...cmyk((c) => [`${cap(c)} Toner Cartridge, PN {pn};SN{sn}`, { black: '106R03480', cyan: '106R03477', magenta: '106R03478', yellow: '106R03479' }[c]], 5500)],
  },
  {
    vendor: 'brother', vendorName: 'Brother', model: 'HL-L6210DW', type: 'PRINTER', color: false, a3: false, pagesPerDay: 150,
    firmware: '1.05',
    supplies: [toner('black', 'Black Toner Cartridge', 'TN-3600', 3000), unit('drum', 'Drum Unit', 'DR-3600', 75000)],
  },
  {
    vendor: 'brother', vendorName: 'Brother', model: 'MFC-L8900CDW', type: 'MFP', color: true, a3: false, pagesPerDay: 180,
    firmware: '1.22',
    supplies: [...cmyk((c) => [`${cap(c)} Toner Cartridge`, `TN-423${c[0]!.toUpperCase()}`], 4000), unit('drum', 'Drum Unit', 'DR-421CL', 30000)],
  },
  {
    vendor: 'canon', vendorName: 'Canon', model: 'iR-ADV C3530', type: 'MFP', color: true, a3: true, pagesPerDay: 650,
    firmware: '44.05',
    supplies: [...cmyk((c) => [`Canon C-EXV 49 ${cap(c)} Toner`, `C-EXV49${c[0]!.toUpperCase()}`], 36000), unit('waste', 'Waste Toner Container', 'FM1-A606', 80000)],
  },
  {
    vendor: 'canon', vendorName: 'Canon', model: 'i-SENSYS LBP325x', type: 'PRINTER', color: false, a3: false, pagesPerDay: 200,
    firmware: '02.09',
    supplies: [toner('black', 'Canon Cartridge 056 Black', 'CRG-056', 10000)],
  },
  {
    vendor: 'konica-minolta', vendorName: 'Konica Minolta', model: 'bizhub C300i', type: 'MFP', color: true, a3: true, pagesPerDay: 750,
    firmware: 'GC7-50',
    supplies: [
      ...cmyk((c) => [`Toner (${cap(c)})`, `TN328${c[0]!.toUpperCase()}`], 28000),
      unit('drum', 'Drum Unit (Black)', 'DR316K', 225000),
      unit('waste', 'Waste Toner Box', 'WX-107', 44000),
    ],
  },
  {
    vendor: 'konica-minolta', vendorName: 'Konica Minolta', model: 'bizhub 4700P', type: 'PRINTER', color: false, a3: false, pagesPerDay: 400,
    firmware: 'A63P-0F00',
    supplies: [toner('black', 'Toner (Black)', 'TNP-64', 25000), unit('drum', 'Imaging Unit', 'IUP-34', 60000)],
  },
  {
    vendor: 'sharp', vendorName: 'Sharp', model: 'MX-3071', type: 'MFP', color: true, a3: true, pagesPerDay: 700,
    firmware: '1100b',
    supplies: [...cmyk((c) => [`${cap(c)} Toner`, `MX-61GT${c[0]!.toUpperCase()}A`], 40000), unit('waste', 'Waste Toner Box', 'MX-601HB', 50000)],
  },
  {
    vendor: 'sharp', vendorName: 'Sharp', model: 'MX-B467F', type: 'MFP', color: false, a3: false, pagesPerDay: 350,
    firmware: '0301a',
    supplies: [toner('black', 'Black Toner', 'MX-B45GT', 20000)],
  },
  {
    vendor: 'lexmark', vendorName: 'Lexmark', model: 'MS621', type: 'PRINTER', color: false, a3: false, pagesPerDay: 300,
    firmware: 'MSNGM.081.233',
    supplies: [toner('black', 'Black Cartridge', '56F2H00', 15000), unit('drum', 'Imaging Unit', '56F0Z00', 60000)],
  },
  {
    vendor: 'lexmark', vendorName: 'Lexmark', model: 'CX625ade', type: 'MFP', color: true, a3: false, pagesPerDay: 220,
    firmware: 'CXLBN.081.233',
    supplies: [
      ...cmyk((c) => [`${cap(c)} Cartridge`, `78C2XK0`.replace('K', c[0]!.toUpperCase())], 8500),
      unit('waste', 'Waste Toner Bottle', '78C0W00', 90000),
    ],
  },
];

/**
 * Devices no profile knows (only by name, via `models`): a printer of a maker the models pack
 * does not have, which the agent must send with a full walk.
 */
export const EXTRA_MODELS: ModelSpec[] = [
  {
    vendor: 'acme', vendorName: 'Acme', model: 'LaserWriter 9000', type: 'PRINTER', color: false, a3: false, pagesPerDay: 50,
    firmware: '9.0.1',
    supplies: [toner('black', 'Black Toner', 'AC-9000', 5000)],
  },
];

