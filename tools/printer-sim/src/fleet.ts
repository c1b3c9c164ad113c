import dgram from 'node:dgram';
import type { Socket } from 'node:dgram';
import { EXTRA_MODELS, MODELS } from './catalogue.ts';
import type { ModelSpec } from './catalogue.ts';
import { buildView } from './mib-view.ts';
import type { MibView } from './mib-view.ts';
import { SimPrinter, TICK_MS } from './printer-state.ts';
import type { PrinterCounters } from './printer-state.ts';
import { respond } from './responder.ts';
import { engineIdFor, respondV3 } from './snmpv3.ts';
import type { V3Engine } from './snmpv3.ts';
import { messageVersion } from '@pagewatch/snmp/ber-codec';
import { shuffled } from './rng.ts';
import { PrinterLink, isPerfect, planNetwork } from './network-model.ts';
import type { NetworkOptions, PrinterNetworkKind } from './network-model.ts';
import { VENDOR_MIBS } from './vendor-mibs.ts';

export type FleetOptions = {
  count: number;
  /** UDP port every printer listens on (default 1161). */
  port?: number;
  seed?: number;
  /** First address; printers take consecutive ones, skipping .0 and .255 (default 127.0.1.1). */
  base?: string;
  /** Simulated time runs this many times faster than real time (0 freezes it: see `advance`). */
  speed?: number;
  community?: string;
  /** Jams, outages, IP changes and replacements by themselves (default true). */
  randomEvents?: boolean;
  /** SNMPv3 users served at noAuthNoPriv (default "simuser"). */
  v3Users?: string[];
  /** sysLocation of every printer. */
  location?: string;
  /** Only these models (by model name), in this order; default the whole catalogue. */
  models?: string[];
  /** Addresses from one printer to the next (default 1); above 1, a printer's spare address is the one after its own. */
  stride?: number;
  /** Latency, loss, sleeping and silent printers (default: a perfect network). */
  network?: NetworkOptions;
};

export type PrinterInfo = {
  index: number;
  ip: string;
  port: number;
  vendor: string;
  model: string;
  type: 'PRINTER' | 'MFP';
  color: boolean;
  a3: boolean;
  serial: string;
  mac: string;
  hostName: string;
  online: boolean;
  /** How it behaves on the simulated network. */
  network: PrinterNetworkKind;
  jammed: boolean;
  totalPages: number;
  /** The page counters as the simulator keeps them (what its vendor MIBs publish, each in its own way). */
  counters: PrinterCounters;
  supplies: Array<{ index: number; kind: string; colorant: string | null; percent: number; replacements: number }>;
};

export const ipToInt = (ip: string): number => ip.split('.').reduce((n, o) => n * 256 + Number(o), 0);
export const intToIp = (n: number): string => [24, 16, 8, 0].map((s) => Math.floor(n / 2 ** s) % 256).join('.');

/** The n-th usable address from `base`, skipping host octets .0 and .255 (254 usable per /24). */
export function addressAt(base: string, n: number): string {
  let ip = ipToInt(base);
  if (ip % 256 === 255) ip++;
  if (ip % 256 === 0) ip++;
  const block = ip - (ip % 256);
  const u = (ip % 256) - 1 + n;
  return intToIp(block + Math.floor(u / 254) * 256 + (u % 254) + 1);
}

type Slot = { printer: SimPrinter; link: PrinterLink | null; address: string; socket: Socket | null; view: MibView | null; viewVersion: number; viewAddress: string; engine: V3Engine | null };

/**
 * A fleet of simulated printers served from one process: one UDP socket per printer address
 * (Node cannot tell which local address a datagram was sent to, so one socket per address).
 */
export class Fleet {
  readonly port: number;
  readonly seed: number;
  readonly base: string;
  readonly community: string;
  readonly location: string;
  readonly stride: number;
  private readonly slots: Slot[];
  private readonly v3Users: ReadonlySet<string>;
  private speed: number;
  private startReal = Date.now();
  /** Simulated milliseconds added by `advance` (and kept across speed changes). */
  private offsetMs = 0;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private started = false;

  constructor(options: FleetOptions) {
    this.port = options.port ?? 1161;
    this.seed = options.seed ?? 1;
    this.base = options.base ?? '127.0.1.1';
    this.speed = options.speed ?? 1;
    this.community = options.community ?? 'public';
    this.location = options.location ?? '';
    this.v3Users = new Set(options.v3Users ?? ['simuser']);
    const catalogue: ModelSpec[] = options.models
      ? options.models.map((name) => {
          const m = [...MODELS, ...EXTRA_MODELS].find((x) => x.model === name);
          if (!m) throw new Error(`unknown model "${name}"`);
          return m;
        })
      : MODELS;
    const order = options.models ? catalogue.map((_, i) => i) : shuffled(catalogue.length, this.seed);
    const randomEvents = options.randomEvents ?? true;
    this.stride = Math.max(1, Math.floor(options.stride ?? 1));
    const network = options.network ?? {};
    const plan = isPerfect(network) ? null : planNetwork(options.count, this.seed, network);
    this.slots = Array.from({ length: options.count }, (_, i) => {
      const printer = new SimPrinter(i, this.seed, catalogue[order[i % order.length]!]!, { randomEvents });
      const link = plan ? new PrinterLink(plan[i]!, network, this.seed, i) : null;
      return { printer, link, address: this.homeAddress(i), socket: null, view: null, viewVersion: -1, viewAddress: '', engine: null };
    });
  }

  get printers(): SimPrinter[] {
    return this.slots.map((s) => s.printer);
  }

  get count(): number {
    return this.slots.length;
  }

  /** The spare address a printer moves to when its IP changes by itself. */
  spareAddress(index: number): string {
    return this.stride > 1 ? addressAt(this.base, index * this.stride + 1) : addressAt(this.base, this.slots.length + index);
  }

  /** The address a printer starts on. */
  homeAddress(index: number): string {
    return addressAt(this.base, index * this.stride);
  }

  /** Simulated time since the start, in ticks (simulated minutes). */
  currentTick(): number {
    return Math.floor((this.offsetMs + (Date.now() - this.startReal) * this.speed) / TICK_MS);
  }

  /** Moves simulated time on by `ms` (tests freeze time with speed 0 and step it). */
  async advance(ms: number): Promise<void> {
    this.offsetMs += ms;
    await this.sync();
  }

  setSpeed(speed: number): void {
    this.offsetMs += (Date.now() - this.startReal) * this.speed;
    this.startReal = Date.now();
    this.speed = speed;
  }

  async start(): Promise<void> {
    this.started = true;
    // Every MIB built before the first request (about 0.5 ms each): a real printer answers its
    // first request as fast as the next, and 10,000 views built on first contact would hold
    // the simulator up for seconds.
    for (const slot of this.slots) this.viewOf(slot);
    await Promise.all(this.slots.map((slot) => this.bind(slot)));
    this.timer = setInterval(() => void this.sync().catch(() => undefined), 1000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await Promise.all(this.slots.map((slot) => this.unbind(slot)));
  }

  /** Brings every printer to the current tick and moves the ones whose IP changed. */
  async sync(): Promise<void> {
    const tick = this.currentTick();
    const moves: Promise<void>[] = [];
    for (const slot of this.slots) {
      slot.printer.advanceTo(tick);
      const wanted = slot.printer.ipSlot === 0 ? this.homeAddress(slot.printer.index) : this.spareAddress(slot.printer.index);
      if (wanted !== slot.address && !this.overridden.has(slot.printer.index)) moves.push(this.move(slot, wanted));
    }
    await Promise.all(moves);
  }

  private readonly overridden = new Set<number>();

  info(index: number): PrinterInfo {
    const slot = this.slot(index);
    const p = slot.printer;
    return {
      index,
      ip: slot.address,
      port: this.port,
      vendor: p.model.vendorName,
      model: p.model.model,
      type: p.model.type,
      color: p.model.color,
      a3: p.model.a3,
      serial: p.serial,
      mac: [...p.mac].map((b) => b.toString(16).padStart(2, '0')).join(':'),
      hostName: p.hostName,
      online: p.online && (!this.started || slot.socket !== null),
      network: slot.link?.net.kind ?? 'normal',
      jammed: p.jammed,
      totalPages: p.totalPages,
      counters: { ...p.counters },
      supplies: p.supplies.map((s) => ({ index: s.index, kind: s.spec.kind, colorant: s.spec.colorant, percent: Math.round(p.percent(s) * 10) / 10, replacements: s.replacements })),
    };
  }

  list(): PrinterInfo[] {
    return this.slots.map((_, i) => this.info(i));
  }

  // ------------------------------------------------------------ forced events

  /** Moves a printer to `ip` (default: between its own and its spare address). */
  async changeIp(index: number, ip?: string): Promise<string> {
    const slot = this.slot(index);
    const target = ip ?? (slot.address === this.homeAddress(index) ? this.spareAddress(index) : this.homeAddress(index));
    if (this.slots.some((s) => s !== slot && s.address === target)) throw new Error(`${target} is taken by another printer`);
    this.overridden.add(index);
    await this.move(slot, target);
    return target;
  }

  setSupplyPercent(index: number, supplyIndex: number, percent: number): void {
    const p = this.slot(index).printer;
    p.setSupplyPercent(this.supply(p, supplyIndex), percent);
  }

  replaceSupply(index: number, supplyIndex: number): void {
    const p = this.slot(index).printer;
    p.replace(this.supply(p, supplyIndex));
  }

  setOffline(index: number, offline: boolean): void {
    this.slot(index).printer.setForcedOffline(offline);
  }

  setJammed(index: number, jammed: boolean): void {
    this.slot(index).printer.setJammed(jammed);
  }

  /** The printer's MIB as it stands now (for tests and tools). */
  view(index: number): MibView {
    const slot = this.slot(index);
    slot.printer.advanceTo(this.currentTick());
    return this.viewOf(slot);
  }

  // ------------------------------------------------------------ internals

  private slot(index: number): Slot {
    const slot = this.slots[index];
    if (!slot) throw new Error(`no printer ${index}`);
    return slot;
  }

  private supply(p: SimPrinter, supplyIndex: number) {
    const s = p.supplies.find((x) => x.index === supplyIndex);
    if (!s) throw new Error(`printer ${p.index} has no supply ${supplyIndex}`);
    return s;
  }

  private viewOf(slot: Slot): MibView {
    if (!slot.view || slot.viewVersion !== slot.printer.version || slot.viewAddress !== slot.address) {
      slot.view = buildView(slot.printer, slot.address, VENDOR_MIBS[slot.printer.model.vendor], this.location);
      slot.viewVersion = slot.printer.version;
      slot.viewAddress = slot.address;
    }
    return slot.view;
  }

  private engineOf(slot: Slot): V3Engine {
    slot.engine ??= {
      id: engineIdFor(`pagewatch-sim-${this.seed}-${slot.printer.index}`),
      boots: 1,
      time: () => Math.floor((Date.now() - this.startReal) / 1000),
      users: this.v3Users,
    };
    return slot.engine;
  }

  private async move(slot: Slot, address: string): Promise<void> {
    if (!this.started) {
      slot.address = address;
      return;
    }
    await this.unbind(slot);
    slot.address = address;
    await this.bind(slot);
  }

  private bind(slot: Slot): Promise<void> {
    if (this.stopped) return Promise.resolve();
    const socket = dgram.createSocket({ type: 'udp4', reuseAddr: false });
    const address = slot.address;
    socket.on('message', (packet, rinfo) => {
      const p = slot.printer;
      p.advanceTo(this.currentTick());
      if (!p.online) return;
      // The simulated network: the request lost, or the answer sent after the printer's delay.
      const delay = slot.link ? slot.link.delay() : 0;
      if (delay === null) return;
      const view = (): MibView => this.viewOf(slot);
      const answer = messageVersion(packet) === 3 ? respondV3(packet, this.engineOf(slot), view) : respond(packet, this.community, view);
      if (!answer) return;
      if (delay < 1) socket.send(answer, rinfo.port, rinfo.address);
      else setTimeout(() => slot.socket === socket && socket.send(answer, rinfo.port, rinfo.address), delay).unref();
    });
    return new Promise((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(this.port, address, () => {
        socket.off('error', reject);
        // A send to a client that has gone away must not kill the simulator.
        socket.on('error', () => undefined);
        slot.socket = socket;
        resolve();
      });
    });
  }

  private unbind(slot: Slot): Promise<void> {
    const socket = slot.socket;
    slot.socket = null;
    if (!socket) return Promise.resolve();
    return new Promise((resolve) => socket.close(() => resolve()));
  }
}

/** Creates a fleet and binds every printer's address. */
export async function startFleet(options: FleetOptions): Promise<Fleet> {
  const fleet = new Fleet(options);
  await fleet.start();
  return fleet;
}
