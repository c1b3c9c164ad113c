import { createRng, hash32, shuffled } from './rng.ts';
import type { Rng } from './rng.ts';

/**
 * How the simulated network behaves, for the whole fleet. Every figure defaults to a perfect
 * network (answers at once, nothing lost), which is what the tests of the MIB want.
 */
export type NetworkOptions = {
  /** Median answer time of a printer, in ms (each printer draws its own around it). */
  latencyMs?: number;
  /** Spread of the log-normal answer times (0.5: a quarter of printers above 1.4× the median). */
  latencySigma?: number;
  /** Fraction of printers that answer only after `slowMs` (the long tail). */
  slow?: number;
  slowMs?: number;
  /** Each request is lost with this probability (the answer never comes). */
  loss?: number;
  /** Fraction of printers asleep: they drop everything until `wakeMs` after the first request. */
  asleep?: number;
  wakeMs?: number;
  /** Fraction of printers that never answer (a firewall, SNMP switched off). */
  silent?: number;
};

export type PrinterNetworkKind = 'normal' | 'slow' | 'asleep' | 'silent';

/** One printer's behaviour on the wire, fixed by the seed and its index. */
export type PrinterNetwork = { kind: PrinterNetworkKind; baseMs: number };

/** A standard normal draw (Box–Muller). */
function gaussian(rng: Rng): number {
  const u = Math.max(rng.next(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
}

export const isPerfect = (o: NetworkOptions): boolean =>
  !o.latencyMs && !o.slow && !o.loss && !o.asleep && !o.silent;

/**
 * Which printers are silent, asleep and slow: exact fractions of the fleet (so 3% of 10,000 is
 * 300), chosen by a permutation of the seed, so the same seed gives the same network.
 */
export function planNetwork(count: number, seed: number, o: NetworkOptions): PrinterNetwork[] {
  const order = shuffled(count, hash32(seed, 0x4e7));
  const silent = Math.round(count * (o.silent ?? 0));
  const asleep = Math.round(count * (o.asleep ?? 0));
  const slow = Math.round(count * (o.slow ?? 0));
  const kinds: PrinterNetworkKind[] = new Array(count).fill('normal');
  order.forEach((index, rank) => {
    if (rank < silent) kinds[index] = 'silent';
    else if (rank < silent + asleep) kinds[index] = 'asleep';
    else if (rank < silent + asleep + slow) kinds[index] = 'slow';
  });
  const median = o.latencyMs ?? 0;
  const sigma = o.latencySigma ?? 0.5;
  return kinds.map((kind, index) => {
    const rng = createRng(hash32(seed, index, 0x1a7));
    const drawn = median * Math.exp(sigma * gaussian(rng));
    // A slow printer takes its time on top of its own answer time.
    return { kind, baseMs: kind === 'slow' ? (o.slowMs ?? 1000) + drawn : drawn };
  });
}

/**
 * The answer path of one printer: `delay()` for each request it receives is the ms after which
 * it answers, or null when the request (or its answer) is lost. Loss and jitter come from the
 * printer's own seeded stream, so a run that sends the same requests sees the same network.
 */
export class PrinterLink {
  readonly net: PrinterNetwork;
  private readonly options: NetworkOptions;
  private readonly rng: Rng;
  private firstSeen: number | null = null;

  constructor(net: PrinterNetwork, options: NetworkOptions, seed: number, index: number) {
    this.net = net;
    this.options = options;
    this.rng = createRng(hash32(seed, index, 0x105e));
  }

  delay(now = Date.now()): number | null {
    if (this.net.kind === 'silent') return null;
    this.firstSeen ??= now;
    if (this.net.kind === 'asleep' && now - this.firstSeen < (this.options.wakeMs ?? 5000)) return null;
    if (this.options.loss && this.rng.next() < this.options.loss) return null;
    // ±20% jitter around the printer's own answer time.
    return this.net.baseMs * (0.8 + 0.4 * this.rng.next());
  }
}
