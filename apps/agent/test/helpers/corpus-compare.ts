import type { Reading } from '@pagewatch/contracts/reading';

/** The parts of a corpus expected.json (schema printer-corpus/expected@1) the test uses. */
export type Expected = {
  dataset: string;
  kind: string;
  device: { os: string; hardware?: string | null; serial?: string | null; version?: string | null };
  supplies?: Array<{
    index: number; category: 'marker-supply' | 'input-tray'; type: string; description: string;
    percent: number; oid: string; walk_raw: { level: number | null; capacity: number | null };
  }> | null;
  counters?: Array<{ oid: string; description: string; value: number }> | null;
};

/** LibreNMS OS name → the vendor the project reports. */
export const VENDOR_BY_OS: Record<string, string> = {
  brother: 'Brother', canonprinter: 'Canon', 'dell-laser': 'Dell', developprinter: 'Develop',
  epson: 'Epson', 'epson-scanner': 'Epson', fujifilmprinter: 'FUJIFILM', gestetner: 'Gestetner',
  jetdirect: 'HP', konica: 'Konica Minolta', lanier: 'Lanier', nrg: 'NRG', okilan: 'OKI',
  ricoh: 'Ricoh', samsungprinter: 'Samsung', sharp: 'Sharp', 'toshiba-tec': 'Toshiba TEC',
  tsc: 'TSC', xerox: 'Xerox', zebra: 'Zebra',
};

/**
 * Where the project deliberately differs from LibreNMS, with the reason. Keys are
 * "<dataset>:<check>"; each entry gives the value the project expects instead.
 */
export const ALLOWED_DIFFERENCES: Record<string, { ours: unknown; why: string }> = {
  'librenms-xerox_apeosport:vendor': {
    ours: 'Fuji Xerox',
    why: 'LibreNMS files Fuji Xerox (enterprise 297) under its "xerox" OS; the project names the maker, as it does for FUJIFILM.',
  },
  'librenms-xerox_docuprint:vendor': {
    ours: 'Fuji Xerox',
    why: 'As for xerox_apeosport: a FUJI XEROX DocuPrint (enterprise 297) is reported as made by Fuji Xerox.',
  },
  'librenms-brother_hl5370dw:supply:1': {
    ours: 0,
    why: 'LibreNMS found Printer-MIB level 0, tried Ricoh\'s private OID (absent) and still reported 100 % there; the walk says level 0 with unknown capacity, i.e. empty (LibreNMS\'s own poller says 0 % too).',
  },
  'librenms-zebra:serial': {
    ours: '37J162600538',
    why: 'LibreNMS reports the ZebraNet print server\'s serial (683.1.5.0); the project reports the printer\'s own (ZEBRA-MIB 10642.200.19.5.0), which is what identifies the device.',
  },
  'librenms-zebra:model': {
    ours: 'TLP 2824 Plus',
    why: 'LibreNMS reports the print server\'s part number (79071); the project reports the printer model.',
  },
  'librenms-epson-scanner_ds-860:isPrinter': {
    ours: false,
    why: 'A DS-860 is a document scanner ("Scan Server"); LibreNMS types every device of its printer OSes as a printer.',
  },
};

/** Why -3 differs, applied to every supply and tray whose raw level is -3. */
export const SOME_REMAINING_REASON =
  'RFC 3805 level -3 means "some remaining", an unknown amount: the project keeps levelState SOME_REMAINING and percent null where LibreNMS invents 50 %.';

export type Check = { name: string; ok: boolean; detail: string };

const norm = (s: string | null | undefined): string =>
  (s ?? '').toLowerCase().replace(/\[.*?\]/g, '').replace(/\bseries\b/g, '').replace(/[^a-z0-9+]/g, '');

function allowed(dataset: string, key: string, ours: unknown): boolean {
  const entry = ALLOWED_DIFFERENCES[`${dataset}:${key}`];
  return entry !== undefined && entry.ours === ours;
}

/** Every check of one dataset: vendor, supplies and trays, counters, serial, model, firmware. */
export function compareWithExpected(expected: Expected, r: Reading): Check[] {
  const ds = expected.dataset;
  const checks: Check[] = [];
  const add = (name: string, ok: boolean, detail: string): void => void checks.push({ name, ok, detail });

  const wantVendor = VENDOR_BY_OS[expected.device.os];
  add('vendor', r.vendor === wantVendor || allowed(ds, 'vendor', r.vendor), `want ${wantVendor}, got ${r.vendor}`);
  const isPrinterOk = r.isPrinter || allowed(ds, 'isPrinter', r.isPrinter);
  add('isPrinter', isPrinterOk, `got ${r.isPrinter}`);

  for (const s of expected.supplies ?? []) {
    const tray = s.category === 'input-tray';
    const ours = tray ? r.trays.find((t) => t.index === s.index) : r.supplies.find((x) => x.index === s.index);
    const label = `${tray ? 'tray' : 'supply'} ${s.index}`;
    if (!ours) {
      add(label, false, 'missing');
      continue;
    }
    let ok: boolean;
    if (s.walk_raw.level === -3) ok = ours.percent === null && ours.levelState === 'SOME_REMAINING';
    else ok = ours.percent === s.percent || allowed(ds, `supply:${s.index}`, ours.percent);
    const name = 'name' in ours ? ours.name : ours.description;
    if (norm(name) !== norm(s.description)) ok = false;
    if (!tray && 'type' in ours && s.type !== 'markerSupply' && ours.type !== s.type) ok = false;
    add(label, ok, `want ${s.percent}% "${s.description}" ${s.type}, got ${ours.percent}% (${ours.levelState}) "${name}"`);
  }

  for (const c of expected.counters ?? []) {
    let value: number | null | undefined;
    if (c.oid === '.1.3.6.1.2.1.43.10.2.1.4.1.1') value = r.counters.markerTotal ?? r.counters.total; // the marker's count, kept beside a vendor total
    else if (c.oid === '.1.3.6.1.2.1.43.10.2.1.5.1.1') value = r.counters.powerOn;
    else value = r.counters.vendor.find((v) => `.${v.oid}` === c.oid)?.value;
    add(`counter ${c.description}`, value === c.value, `want ${c.value}, got ${value}`);
  }

  const serial = expected.device.serial;
  if (serial) add('serial', r.serialNumber === serial || allowed(ds, 'serial', r.serialNumber), `want ${serial}, got ${r.serialNumber}`);
  const hardware = expected.device.hardware;
  if (hardware) {
    const ok = norm(hardware).endsWith(norm(r.model)) && norm(r.model).length > 0;
    add('model', ok || allowed(ds, 'model', r.model), `want ${hardware}, got ${r.model}`);
  }
  const version = expected.device.version;
  if (version) add('firmware', r.firmware === version, `want ${version}, got ${r.firmware}`);
  return checks;
}
