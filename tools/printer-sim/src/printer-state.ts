import type { ModelSpec, SupplySpec } from './catalogue.ts';
import { createRng, hash32 } from './rng.ts';
import type { Rng } from './rng.ts';

/** One simulated minute: the state moves in whole ticks, so it depends on elapsed time only. */
export const TICK_MS = 60_000;
const MINUTES_PER_DAY = 1440;
const AVG_JOB_PAGES = 6;

/** Odds per tick of the random events (when they are on). */
const P_OFFLINE = 1 / (25 * MINUTES_PER_DAY);
const P_IP_CHANGE = 1 / (120 * MINUTES_PER_DAY);
const P_JAM_PER_PAGE = 1 / 9000;
const P_JAM_CLEARED = 1 / 15;
/** Someone notices an empty supply and replaces it in about six hours. */
const P_REPLACE_EMPTY = 1 / 360;
const P_TRAY_REFILL = 1 / 45;

export type SupplyState = {
  spec: SupplySpec;
  /** prtMarkerSuppliesIndex, 1-based. */
  index: number;
  /** Pages left (for a waste container: pages of room left). */
  remaining: number;
  serial: string;
  replacements: number;
};

export type TrayState = { index: number; name: string; capacity: number; level: number; a3: boolean };

export type PrinterCounters = {
  printMono: number; printColor: number; copyMono: number; copyColor: number;
  /** Of the pages above, those on A3 (prints and copies), black-and-white and colour. */
  a3Mono: number; a3Color: number;
  scans: number; fax: number; duplex: number; jams: number; powerOn: number;
};

export type PrinterOptions = {
  /** Jams, going offline, IP changes and replacements happen by themselves (default true). */
  randomEvents: boolean;
};

const SERIAL_STYLE: Record<string, (r: Rng) => string> = {
  hp: (r) => `CNB${r.int(1, 9)}${letters(r, 1)}${r.int(10000, 99999)}`,
  kyocera: (r) => `V${letters(r, 2)}${r.int(1000000, 9999999)}`,
  ricoh: (r) => `3${r.int(100, 999)}R${r.int(100000, 999999)}`,
  xerox: (r) => `${letters(r, 3)}${r.int(100000, 999999)}`,
  brother: (r) => `E${r.int(10000, 99999)}${letters(r, 1)}${r.int(100000, 999999)}`,
  canon: (r) => `${letters(r, 4)}${r.int(10000, 99999)}`,
  'konica-minolta': (r) => `A${r.int(10, 99)}${letters(r, 1)}${r.int(100000, 999999)}`,
  sharp: (r) => `${r.int(10000000, 99999999)}`,
  lexmark: (r) => `${r.int(4000, 7999)}${r.int(100, 999)}${letters(r, 2)}${r.int(100, 999)}`,
  acme: (r) => `AC${r.int(1000000, 9999999)}`,
};

function letters(r: Rng, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += String.fromCharCode(65 + r.int(0, 25));
  return s;
}

/**
 * One simulated printer. Its state at tick n is a pure function of (seed, index, n) as long as
 * nobody forces an event through the control API.
 */
export class SimPrinter {
  readonly index: number;
  readonly model: ModelSpec;
  readonly serial: string;
  readonly mac: Uint8Array;
  readonly hostName: string;
  readonly bootTicksAgo: number;
  readonly options: PrinterOptions;
  tick = 0;
  counters: PrinterCounters;
  supplies: SupplyState[];
  trays: TrayState[];
  jammed = false;
  offlineTicks = 0;
  /** Forced offline through the control API (until told otherwise). */
  forcedOffline = false;
  /** 0 the first address, 1 the spare one (see Fleet). */
  ipSlot = 0;
  /** Printed something in the last tick. */
  busy = false;
  /** Bumped on every change, so the MIB view knows when to rebuild. */
  version = 0;
  private readonly rng: Rng;

  constructor(index: number, seed: number, model: ModelSpec, options: PrinterOptions) {
    this.index = index;
    this.model = model;
    this.options = options;
    const init = createRng(hash32(seed, index, 1));
    this.rng = createRng(hash32(seed, index, 2));
    this.serial = SERIAL_STYLE[model.vendor]!(init) + String(index % 100).padStart(2, '0');
    // Locally administered, one fleet's byte from its seed: printers of two fleets (the demo's ranges) differ.
    this.mac = Uint8Array.from([0x02, 0x50, hash32(seed, 0, 3) & 0xff, (index >> 16) & 0xff, (index >> 8) & 0xff, index & 0xff]);
    this.hostName = `${model.vendor.replace(/[^a-z]/g, '').toUpperCase().slice(0, 3)}${this.serial.slice(-6)}`;
    this.bootTicksAgo = init.int(60, 30 * MINUTES_PER_DAY);
    const ageDays = init.int(200, 1500);
    const lifetime = Math.round(ageDays * model.pagesPerDay * (0.5 + init.next()));
    const colorShare = model.color ? 0.3 + init.next() * 0.2 : 0;
    const copyShare = model.type === 'MFP' ? 0.2 + init.next() * 0.2 : 0;
    const printed = Math.round(lifetime * (1 - copyShare));
    const copied = lifetime - printed;
    this.counters = {
      printMono: Math.round(printed * (1 - colorShare)),
      printColor: Math.round(printed * colorShare),
      copyMono: Math.round(copied * (1 - colorShare)),
      copyColor: Math.round(copied * colorShare),
      a3Mono: model.a3 ? Math.round(lifetime * (1 - colorShare) * 0.08) : 0,
      a3Color: model.a3 ? Math.round(lifetime * colorShare * 0.08) : 0,
      scans: model.type === 'MFP' ? Math.round(lifetime * 0.15) : 0,
      fax: 0,
      duplex: Math.round(lifetime * 0.3),
      jams: init.int(0, Math.ceil(lifetime / 20000)),
      powerOn: Math.round((this.bootTicksAgo / MINUTES_PER_DAY) * model.pagesPerDay),
    };
    this.supplies = model.supplies.map((spec, i) => ({
      spec,
      index: i + 1,
      remaining: Math.round(spec.lifePages * (0.15 + init.next() * 0.85)),
      serial: `${letters(init, 2)}${init.int(1000000, 9999999)}`,
      replacements: 0,
    }));
    const a4 = (index: number, capacity: number): TrayState => ({ index, name: `Tray ${index}`, capacity, level: init.int(capacity / 5, capacity), a3: false });
    this.trays = [a4(1, model.type === 'MFP' ? 550 : 250), a4(2, 550)];
    if (model.a3) this.trays.push({ index: 3, name: 'Tray 3 (A3)', capacity: 550, level: init.int(100, 550), a3: true });
  }

  get online(): boolean {
    return !this.forcedOffline && this.offlineTicks === 0;
  }

  /** Percent left of a supply, 0..100. */
  percent(s: SupplyState): number {
    return Math.max(0, Math.min(100, (s.remaining / s.spec.lifePages) * 100));
  }

  get totalPages(): number {
    const c = this.counters;
    return c.printMono + c.printColor + c.copyMono + c.copyColor;
  }

  advanceTo(tick: number): void {
    if (tick <= this.tick) return;
    while (this.tick < tick) this.step();
    this.version++;
  }

  private step(): void {
    this.tick++;
    const r = this.rng;
    const random = this.options.randomEvents;
    this.busy = false;
    if (this.offlineTicks > 0) {
      this.offlineTicks--;
      if (this.offlineTicks === 0) this.counters.powerOn = 0; // it was off: a new power-on count
      return;
    }
    if (random) {
      if (r.chance(P_OFFLINE)) {
        this.offlineTicks = r.int(10, 180);
        return;
      }
      if (r.chance(P_IP_CHANGE)) this.ipSlot ^= 1;
      if (this.jammed && r.chance(P_JAM_CLEARED)) this.jammed = false;
      for (const s of this.supplies) {
        if (this.percent(s) < 1 && r.chance(P_REPLACE_EMPTY)) this.replace(s);
      }
    }
    for (const t of this.trays) if (t.level === 0 && r.chance(P_TRAY_REFILL)) t.level = t.capacity;
    if (this.jammed || this.forcedOffline) return;
    if (r.chance(this.model.pagesPerDay / (MINUTES_PER_DAY * AVG_JOB_PAGES))) {
      const pages = r.int(1, AVG_JOB_PAGES * 2 - 1);
      const color = this.model.color && r.chance(0.35);
      const copy = this.model.type === 'MFP' && r.chance(0.3);
      const duplex = r.chance(0.4);
      const a3 = this.model.a3 && r.chance(0.1);
      if (this.print(pages, color, copy, duplex, a3) && random && r.chance(pages * P_JAM_PER_PAGE)) {
        this.jammed = true;
        this.counters.jams++;
      }
    }
    if (this.model.type === 'MFP' && r.chance(this.model.pagesPerDay / (MINUTES_PER_DAY * 40))) this.counters.scans += r.int(1, 12);
  }

  /** Prints a job if paper and toner allow; false when it could not. */
  private print(pages: number, color: boolean, copy: boolean, duplex: boolean, a3: boolean): boolean {
    const tray = this.trays.find((t) => t.a3 === a3 && t.level > 0) ?? this.trays.find((t) => t.level > 0);
    if (!tray) return false;
    const black = this.supplies.find((s) => s.spec.kind === 'toner' && s.spec.colorant === 'black');
    if (black && black.remaining <= 0) return false;
    const sheets = Math.min(tray.level, duplex ? Math.ceil(pages / 2) : pages);
    const printed = duplex ? Math.min(pages, sheets * 2) : sheets;
    tray.level -= sheets;
    for (const s of this.supplies) {
      const uses = s.spec.kind !== 'toner' || s.spec.colorant === 'black' || color;
      if (uses) s.remaining = Math.max(0, s.remaining - printed * (a3 ? 2 : 1));
    }
    const c = this.counters;
    if (copy) {
      if (color) c.copyColor += printed;
      else c.copyMono += printed;
    } else if (color) c.printColor += printed;
    else c.printMono += printed;
    if (a3 && tray.a3) {
      if (color) c.a3Color += printed;
      else c.a3Mono += printed;
    }
    if (duplex) c.duplex += printed;
    c.powerOn += printed;
    this.busy = true;
    return true;
  }

  // ------------------------------------------------------------ forced events (control API)

  replace(s: SupplyState): void {
    s.remaining = s.spec.lifePages;
    s.replacements++;
    s.serial = `${s.serial.slice(0, 2)}${(Number(s.serial.slice(2)) + 7919) % 10_000_000}`;
    this.version++;
  }

  setSupplyPercent(s: SupplyState, percent: number): void {
    s.remaining = Math.round((s.spec.lifePages * Math.max(0, Math.min(100, percent))) / 100);
    this.version++;
  }

  setJammed(jammed: boolean): void {
    if (jammed && !this.jammed) this.counters.jams++;
    this.jammed = jammed;
    this.version++;
  }

  setForcedOffline(offline: boolean): void {
    this.forcedOffline = offline;
    this.version++;
  }

  /** RFC 3805 hrPrinterDetectedErrorState bits that are set, by bit number. */
  errorBits(): number[] {
    const bits: number[] = [];
    const paper = this.trays.filter((t) => !t.a3);
    if (paper.some((t) => t.level > 0 && t.level < t.capacity * 0.1)) bits.push(0); // lowPaper
    if (paper.every((t) => t.level === 0)) bits.push(1); // noPaper
    const toners = this.supplies.filter((s) => s.spec.kind === 'toner');
    if (toners.some((s) => this.percent(s) < 10 && s.remaining > 0)) bits.push(2); // lowToner
    if (toners.some((s) => s.remaining <= 0)) bits.push(3); // noToner
    if (this.jammed) bits.push(5);
    if (this.supplies.some((s) => s.spec.kind !== 'toner' && s.remaining <= 0)) bits.push(7); // serviceRequested
    if (this.trays.some((t) => t.level === 0)) bits.push(13); // inputTrayEmpty
    return bits;
  }

  /** hrDeviceStatus: running 2, warning 3, down 5. */
  deviceStatus(): number {
    const bits = this.errorBits();
    if (bits.some((b) => b === 1 || b === 3 || b === 5)) return 5;
    return bits.length > 0 ? 3 : 2;
  }

  /** hrPrinterStatus: other 1 when down, printing 4, idle 3. */
  printerStatus(): number {
    if (this.deviceStatus() === 5) return 1;
    return this.busy ? 4 : 3;
  }

  displayText(): string {
    if (this.jammed) return 'Paper jam';
    const bits = this.errorBits();
    if (bits.includes(3)) return 'Replace toner';
    if (bits.includes(1)) return 'Load paper';
    if (bits.includes(2)) return 'Toner low';
    return this.busy ? 'Printing' : 'Ready';
  }
}
