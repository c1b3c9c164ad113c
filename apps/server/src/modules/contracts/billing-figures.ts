import { BILLING_NEAR_DAYS, minorDigits, PRICE_DIGITS, unitsText, type MeterPrice, type ReadSource } from '@pagewatch/contracts/billing';
import { decimalUnits } from '@pagewatch/contracts/billing';
import type { Meter, MeterQualityFlag } from '@pagewatch/contracts/meter-reads';

/**
 * The figures of a billing run (issue 54), worked out from the reads the repository found near
 * each boundary: pure, so that the same reads give the same figures every time. Money is kept in
 * whole minor units (BigInt on the way), never a float sum.
 */

/** A day read of a device: its day and each meter (corrections in force that day applied). */
export type DayRead = { date: string; meters: Partial<Record<Meter, number | null>> };
/** What the repository found around one boundary: the last read on or before it, the first after, and one a while before/after each for the daily rate. */
export type Around = { before: DayRead | null; beforeRate: DayRead | null; after: DayRead | null; afterRate: DayRead | null };
export type BoundaryRead = { value: number | null; date: string | null; source: ReadSource | null };

const DAY = 86_400_000;
export const dayNumber = (d: string) => Date.parse(`${d}T00:00:00Z`) / DAY;
export const addDays = (d: string, n: number) => new Date(Date.parse(`${d}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);

/** The meter's value of a read, or null. */
const valueOf = (r: DayRead | null, m: Meter): number | null => (r ? (r.meters[m] ?? null) : null);

/** A meter's daily rate between two reads (pages a day, never negative), or 0. */
function rate(a: DayRead | null, b: DayRead | null, m: Meter): number {
  const va = valueOf(a, m);
  const vb = valueOf(b, m);
  if (va === null || vb === null || !a || !b || a.date === b.date) return 0;
  return Math.max(0, (vb - va) / (dayNumber(b.date) - dayNumber(a.date)));
}

/**
 * A meter's read at a boundary day: the last read on or before it when that is within
 * BILLING_NEAR_DAYS; else estimated from the reads either side (linear), or from the last read
 * before and its daily rate; a device first read after the boundary (one that joined new) opens
 * at that first read when it is near, else is estimated back from it.
 */
export function boundaryRead(boundary: string, around: Around, m: Meter): BoundaryRead {
  const { before, after } = around;
  const b = valueOf(before, m);
  const a = valueOf(after, m);
  const at = dayNumber(boundary);
  if (before && b !== null && at - dayNumber(before.date) <= BILLING_NEAR_DAYS) return { value: b, date: before.date, source: 'READ' };
  if (before && b !== null && after && a !== null && a >= b) {
    const share = (at - dayNumber(before.date)) / (dayNumber(after.date) - dayNumber(before.date));
    return { value: b + Math.floor((a - b) * share), date: boundary, source: 'ESTIMATED' };
  }
  if (before && b !== null) {
    return { value: b + Math.floor(rate(around.beforeRate, before, m) * (at - dayNumber(before.date))), date: boundary, source: 'ESTIMATED' };
  }
  if (after && a !== null) {
    if (dayNumber(after.date) - at <= BILLING_NEAR_DAYS) return { value: a, date: after.date, source: 'READ' };
    return { value: Math.max(0, a - Math.ceil(rate(after, around.afterRate, m) * (dayNumber(after.date) - at))), date: boundary, source: 'ESTIMATED' };
  }
  return { value: null, date: null, source: null };
}

/** A meter's amount in minor units: billable pages × price (millionths), rounded half up to the currency's minor unit. */
export function meterAmount(billable: number, priceMicros: number, currency: string): number {
  const scale = 10n ** BigInt(PRICE_DIGITS - minorDigits(currency));
  const raw = BigInt(billable) * BigInt(priceMicros);
  return Number((raw + scale / 2n) / scale);
}

export type MeterLine = {
  meter: Meter;
  opening: BoundaryRead;
  closing: BoundaryRead;
  pages: number | null;
  includedPages: number;
  billablePages: number;
  priceMicros: number;
  amountMinor: number;
};

/** The included pages a device's meter gets of its pages: a fixed number each (PER_DEVICE), or its share of a contract's pool. */
export type Included = (meter: Meter, pages: number) => number;
export const perDevice = (prices: MeterPrice[]): Included => {
  const of = new Map(prices.map((p) => [p.meter, p.includedPages]));
  return (m) => of.get(m) ?? 0;
};
/**
 * The contract's included pages as one pool per meter (POOLED): each device, in the order asked,
 * takes as many of its pages as remain, so the devices' billable pages add up to the contract's
 * pages past its included ones.
 */
export function pooled(prices: MeterPrice[]): Included {
  const left = new Map(prices.map((p) => [p.meter, p.includedPages]));
  return (m, pages) => {
    const take = Math.min(left.get(m) ?? 0, pages);
    left.set(m, (left.get(m) ?? 0) - take);
    return take;
  };
}

/** A device's lines: one per priced meter, from its opening and closing reads; a meter that went back bills nothing and flags BACKWARDS. */
export function deviceLines(prices: MeterPrice[], currency: string, opening: (m: Meter) => BoundaryRead, closing: (m: Meter) => BoundaryRead, included: Included = perDevice(prices)) {
  const flags = new Set<MeterQualityFlag>();
  const lines: MeterLine[] = prices.map((p) => {
    const open = opening(p.meter);
    const close = closing(p.meter);
    let pages: number | null = open.value !== null && close.value !== null ? close.value - open.value : null;
    if (pages !== null && pages < 0) {
      flags.add('BACKWARDS');
      pages = 0;
    }
    const includedPages = included(p.meter, pages ?? 0);
    const billablePages = Math.max(0, (pages ?? 0) - includedPages);
    const priceMicros = decimalUnits(p.price, PRICE_DIGITS);
    return { meter: p.meter, opening: open, closing: close, pages, includedPages, billablePages, priceMicros, amountMinor: meterAmount(billablePages, priceMicros, currency) };
  });
  const estimated = lines.some((l) => l.opening.source === 'ESTIMATED' || l.closing.source === 'ESTIMATED');
  return { lines, flags, estimated, amountMinor: lines.reduce((s, l) => s + l.amountMinor, 0) };
}

/** A run's money as text in its currency's minor unit ("1234.50"). */
export const moneyText = (minor: number, currency: string) => unitsText(minor, minorDigits(currency));
/** A click price as text, at least the currency's minor digits ("0.0085", "0.10"). */
export const priceText = (micros: number, currency: string) => unitsText(micros, PRICE_DIGITS, minorDigits(currency));
