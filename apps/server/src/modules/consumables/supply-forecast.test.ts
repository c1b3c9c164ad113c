import { describe, expect, it } from 'vitest';
import { forecastSupply, levelStep, theilSen, type SupplyDay } from './supply-forecast.ts';
import { seededRandom as random } from '../../test/seeded-random.ts';

const dayAt = (n: number) => new Date(Date.UTC(2026, 5, 1) + n * 86_400_000).toISOString().slice(0, 10);

type Options = {
  days: number;
  pagesPerDay: number;
  /** Pages a full supply prints. */
  capacity: number;
  /** Pages left in the supply on the first day. */
  remaining: number;
  seed?: number;
  replaceOn?: number;
  resetOn?: number;
  idleFrom?: number;
  misreadOn?: number;
};

/**
 * A device printing about `pagesPerDay` (weekends less, every day different) with one supply;
 * the level is what a device reports, a whole percentage rounded up. Returns the days and the
 * truth: the days the supply really has left at the last day's use rate.
 */
function history(o: Options): { days: SupplyDay[]; truthDays: number } {
  const rnd = random(o.seed ?? 7);
  let counter = 120_000;
  let remaining = o.remaining;
  const days: SupplyDay[] = [];
  for (let i = 0; i < o.days; i++) {
    const weekend = i % 7 >= 5;
    const printed = i >= (o.idleFrom ?? Infinity) ? 0 : Math.round(o.pagesPerDay * (weekend ? 0.3 : 1.28) * (0.6 + rnd() * 0.8));
    let replaced = false;
    if (i === o.replaceOn) {
      remaining = o.capacity;
      replaced = true;
    }
    remaining = Math.max(0, remaining - printed);
    counter += printed;
    if (i === o.resetOn) counter = printed;
    const level = i === o.misreadOn ? 3 : Math.ceil((remaining / o.capacity) * 100);
    days.push({ day: dayAt(i), level, pages: counter, replaced });
  }
  return { days, truthDays: remaining / o.pagesPerDay };
}

const within10 = (got: number | null, truth: number) => {
  expect(got).not.toBeNull();
  expect(Math.abs(got! - truth) / truth, `${got} days against ${truth.toFixed(1)}`).toBeLessThan(0.1);
};

describe('supply forecast', () => {
  it('finds the median slope, whatever one wild point says', () => {
    const points: Array<[number, number]> = [[0, 100], [10, 90], [20, 80], [30, 70], [40, 5], [50, 50]];
    expect(theilSen(points)?.slope).toBeCloseTo(-1, 5);
  });

  it.each([1, 2, 3, 4, 5])('forecasts steady use within a tenth of the truth (history %i)', (seed) => {
    const { days, truthDays } = history({ days: 60, pagesPerDay: 150, capacity: 20_000, remaining: 19_000, seed });
    const f = forecastSupply(days);
    expect(f.ok).toBe(true);
    if (!f.ok) return;
    within10(f.daysLeft, truthDays);
    within10(f.pagesPerPercent, 200);
    expect(f.runsOutOn! > days.at(-1)!.day).toBe(true);
  });

  it('starts again at a replacement in the middle', () => {
    const { days, truthDays } = history({ days: 80, pagesPerDay: 300, capacity: 30_000, remaining: 4_000, replaceOn: 12 });
    const f = forecastSupply(days);
    expect(f.ok && f.daysLeft).toBeTruthy();
    if (f.ok) within10(f.daysLeft, truthDays);
    // Unmarked, the level's jump up says the same.
    const unmarked = forecastSupply(days.map((d) => ({ ...d, replaced: false })));
    expect(unmarked).toEqual(f);
  });

  it('goes on across a counter reset', () => {
    const { days, truthDays } = history({ days: 60, pagesPerDay: 200, capacity: 25_000, remaining: 24_000, resetOn: 33 });
    const f = forecastSupply(days);
    expect(f.ok).toBe(true);
    if (f.ok) within10(f.daysLeft, truthDays);
  });

  it('is not moved by a level read wrong once', () => {
    const { days, truthDays } = history({ days: 45, pagesPerDay: 180, capacity: 12_000, remaining: 11_000, misreadOn: 30 });
    const f = forecastSupply(days);
    expect(f.ok).toBe(true);
    if (f.ok) within10(f.daysLeft, truthDays);
  });

  it('gives the pages left but no date when the device stopped printing', () => {
    const { days } = history({ days: 70, pagesPerDay: 200, capacity: 20_000, remaining: 19_000, idleFrom: 35 });
    const f = forecastSupply(days);
    expect(f).toMatchObject({ ok: true, pagesPerDay: 0, daysLeft: null, runsOutOn: null });
    if (f.ok) expect(f.pagesLeft).toBeGreaterThan(0);
  });

  it('says why there is no forecast', () => {
    const long = history({ days: 40, pagesPerDay: 150, capacity: 20_000, remaining: 19_000 }).days;
    // Four days: too little.
    expect(forecastSupply(long.slice(0, 4))).toEqual({ ok: false, reason: 'TOO_LITTLE_HISTORY' });
    // Replaced three days ago: too little since.
    expect(forecastSupply(long.map((d, i) => ({ ...d, replaced: i === long.length - 3 })))).toEqual({ ok: false, reason: 'TOO_LITTLE_HISTORY' });
    // The level does not move (a supply the pages do not use, or a device that reports 100 throughout).
    expect(forecastSupply(long.map((d) => ({ ...d, level: 100 })))).toEqual({ ok: false, reason: 'TOO_LITTLE_HISTORY' });
    // No page counter.
    expect(forecastSupply(long.map((d) => ({ ...d, pages: null })))).toEqual({ ok: false, reason: 'NO_COUNTER' });
    // Levels that swing 5 points either side of the truth from day to day (no jump a refill would make).
    const wandering = long.map((d, i) => ({ ...d, level: d.level! + (i % 2 ? 5 : -5) }));
    expect(forecastSupply(wandering)).toEqual({ ok: false, reason: 'NOISY' });
    // A level that rises as the pages go by is no use of this supply.
    expect(forecastSupply(long.map((d, i) => ({ ...d, level: 50 + Math.floor(i / 4) })))).toEqual({ ok: false, reason: 'NOT_USED' });
    // Nothing at all.
    expect(forecastSupply([])).toEqual({ ok: false, reason: 'TOO_LITTLE_HISTORY' });
  });
});

describe('levelStep', () => {
  const days = (levels: (number | null)[]) => levels.map((level, i) => ({ day: `2026-01-${String(i + 1).padStart(2, '0')}`, level, pages: i * 100 }));
  it('is the smallest step the level moves by: 10 for a device that reports tens, 1 for a fine one, none when it never moved', () => {
    expect(levelStep(days([80, 80, 70, null, 70, 60, 50]))).toBe(10);
    expect(levelStep(days([100, 75, 75, 50]))).toBe(25);
    expect(levelStep(days([80, 79, 77, 74]))).toBe(1);
    expect(levelStep(days([60, 60, null]))).toBeNull();
    // A replacement between (a rise) keeps the step of the changes.
    expect(levelStep(days([20, 10, 100, 90]))).toBe(10);
  });
});
