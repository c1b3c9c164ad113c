/**
 * When a supply runs out (issue 21): its level against the device's pages since it was put in,
 * and the device's pages per day lately. Both are fitted robustly (Theil–Sen: the median of the
 * slopes between every two days), so a day read wrong, a counter reset or a level the device
 * rounds does not move the answer; where the history cannot carry a forecast, the reason says
 * why.
 */

import type { ForecastReason } from '@pagewatch/contracts/consumables';

/** One day of a supply: its level (in percent) and the device's total page counter at the end of the day. */
export type SupplyDay = { day: string; level: number | null; pages: number | null; replaced?: boolean };


export type SupplyForecast =
  | {
      ok: true;
      /** Pages the supply prints per percent of its level. */
      pagesPerPercent: number;
      /** The device's pages per day lately (0: it did not print). */
      pagesPerDay: number;
      pagesLeft: number;
      /** Null when the device does not print at all lately. */
      daysLeft: number | null;
      /** The day it runs out (YYYY-MM-DD), null with daysLeft. */
      runsOutOn: string | null;
    }
  | { ok: false; reason: ForecastReason };

const gcd = (a: number, b: number): number => (b ? gcd(b, a % b) : a);

/**
 * The smallest step the level moves by (percentage points): the greatest common divisor of its
 * changes from day to day; null when it never changed. A device that reports only in tens (or
 * quarters) gives 10 (or 25): a coarse level, whose forecast cannot be finer than a step.
 */
export function levelStep(history: SupplyDay[]): number | null {
  let step = 0;
  let previous: number | null = null;
  for (const d of history) {
    if (d.level === null) continue;
    if (previous !== null && d.level !== previous) step = gcd(step, Math.abs(Math.round(d.level - previous)));
    previous = d.level;
  }
  return step || null;
}

/** Fewest days with a level and a counter since the supply was put in. */
export const MIN_POINTS = 5;
/** The level must have fallen at least this much (percentage points) to measure the use. */
export const MIN_DROP = 3;
/** Above this median distance from the fit (percentage points), the levels are noise. */
export const MAX_SPREAD = 4;
/** Days of history the fits look at, at most. */
export const WINDOW_DAYS = 90;
/** Days the pages per day are measured over. */
export const RATE_DAYS = 30;
/** A level rising by more than this (percentage points) is a new supply even unmarked. */
const REFILL_JUMP = 10;
/** Pairs at most per fit: the points are thinned evenly above this many. */
const MAX_POINTS = 45;

const DAY_MS = 86_400_000;
const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / DAY_MS;
const dayOf = (n: number) => new Date(Math.round(n) * DAY_MS).toISOString().slice(0, 10);

/** The k-th smallest of a[0..n) (Hoare's selection, in place): linear, where sorting every slope was most of the time. */
function select(a: Float64Array, n: number, k: number): number {
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const pivot = a[(lo + hi) >> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i] = a[j]!;
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k]!;
  }
  return a[k]!;
}

function medianOf(a: Float64Array, n: number): number {
  const m = n >> 1;
  return n % 2 ? select(a, n, m) : (select(a, n, m - 1) + select(a, n, m)) / 2;
}

const median = (xs: number[]): number => medianOf(Float64Array.from(xs), xs.length);

function thin<T>(xs: T[]): T[] {
  if (xs.length <= MAX_POINTS) return xs;
  const step = (xs.length - 1) / (MAX_POINTS - 1);
  return Array.from({ length: MAX_POINTS }, (_, i) => xs[Math.round(i * step)]!);
}

/** Theil–Sen: the median slope between every two points, and the median intercept for it. */
export function theilSen(points: Array<[number, number]>): { slope: number; intercept: number } | null {
  const p = thin(points);
  const slopes = new Float64Array((p.length * (p.length - 1)) / 2);
  let n = 0;
  for (let i = 0; i < p.length; i++) {
    for (let j = i + 1; j < p.length; j++) {
      const dx = p[j]![0] - p[i]![0];
      if (dx !== 0) slopes[n++] = (p[j]![1] - p[i]![1]) / dx;
    }
  }
  if (!n) return null;
  const slope = medianOf(slopes, n);
  return { slope, intercept: median(p.map(([x, y]) => y - slope * x)) };
}

/**
 * The device's pages as an odometer: the counter's forward steps from day to day summed, so a
 * reset (a new board, a counter starting over) adds nothing instead of going back.
 */
function odometer(days: SupplyDay[]): Array<number | null> {
  let total = 0;
  let last: number | null = null;
  return days.map((d) => {
    if (d.pages === null) return null;
    if (last !== null && d.pages > last) total += d.pages - last;
    last = d.pages;
    return total;
  });
}

/** The forecast of one supply from its days (any order), as of its last day. */
export function forecastSupply(history: SupplyDay[]): SupplyForecast {
  const days = [...history].sort((a, b) => a.day.localeCompare(b.day));
  if (!days.length) return { ok: false, reason: 'TOO_LITTLE_HISTORY' };
  const lastDay = dayNumber(days.at(-1)!.day);
  const recent = days.filter((d) => dayNumber(d.day) > lastDay - WINDOW_DAYS);
  const pages = odometer(recent);
  if (pages.every((p) => p === null)) return { ok: false, reason: 'NO_COUNTER' };

  // Since the supply was put in: after the last day marked replaced, or the last jump of the level up.
  let start = 0;
  let previous: number | null = null;
  recent.forEach((d, i) => {
    if (d.replaced || (previous !== null && d.level !== null && d.level - previous > REFILL_JUMP)) start = i;
    if (d.level !== null) previous = d.level;
  });
  const used: Array<[number, number]> = [];
  for (let i = start; i < recent.length; i++) {
    const level = recent[i]!.level;
    const odo = pages[i];
    if (level !== null && odo !== null && odo !== undefined) used.push([odo, level]);
  }
  const current = [...recent].reverse().find((d) => d.level !== null)?.level ?? null;
  if (used.length < MIN_POINTS || current === null) return { ok: false, reason: 'TOO_LITTLE_HISTORY' };
  const levels = used.map(([, level]) => level);
  if (Math.max(...levels) - Math.min(...levels) < MIN_DROP || used.at(-1)![0] === used[0]![0]) return { ok: false, reason: 'TOO_LITTLE_HISTORY' };

  const fit = theilSen(used);
  if (!fit || fit.slope >= 0) return { ok: false, reason: 'NOT_USED' };
  const spread = median(used.map(([x, y]) => Math.abs(y - (fit.intercept + fit.slope * x))));
  if (spread > MAX_SPREAD) return { ok: false, reason: 'NOISY' };
  const pagesPerPercent = -1 / fit.slope;

  // Pages per day over the last RATE_DAYS days the counter was read (any supply: the device's use).
  const rate: Array<[number, number]> = [];
  recent.forEach((d, i) => {
    const odo = pages[i];
    if (odo !== null && odo !== undefined && dayNumber(d.day) > lastDay - RATE_DAYS) rate.push([dayNumber(d.day), odo]);
  });
  const perDay = rate.length >= 2 ? Math.max(0, theilSen(rate)?.slope ?? 0) : 0;
  const pagesLeft = Math.max(0, Math.round(current * pagesPerPercent));
  const daysLeft = perDay > 0 ? pagesLeft / perDay : null;
  return {
    ok: true,
    pagesPerPercent: Math.round(pagesPerPercent * 10) / 10,
    pagesPerDay: Math.round(perDay * 10) / 10,
    pagesLeft,
    daysLeft: daysLeft === null ? null : Math.round(daysLeft * 10) / 10,
    runsOutOn: daysLeft === null ? null : dayOf(lastDay + daysLeft),
  };
}
