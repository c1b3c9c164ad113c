import { describe, expect, it } from 'vitest';
import { LEVEL_BANDS, LEVEL_BAR_MIN_WIDTH, levelBand, levelBarWidth, SERIAL_LINE } from './devices.ts';

describe('consumable level bands (spec section 4)', () => {
  it('above 50 is high, 10 to 50 medium, below 10 low', () => {
    expect([100, 51, 50, 10, 9, 0].map(levelBand)).toEqual(['HIGH', 'HIGH', 'MEDIUM', 'MEDIUM', 'LOW', 'LOW']);
  });

  it('a level that is not a number has no band', () => {
    expect(levelBand(null)).toBeNull();
    expect(levelBand(undefined)).toBeNull();
    expect(levelBand(Number.NaN)).toBeNull();
  });

  it('each band has its own colour and label', () => {
    const bands = Object.values(LEVEL_BANDS);
    expect(new Set(bands.map((b) => b.color)).size).toBe(bands.length);
    expect(new Set(bands.map((b) => b.labelKey)).size).toBe(bands.length);
  });

  it('the bar is never narrower than 4 percent nor wider than 100', () => {
    expect(LEVEL_BAR_MIN_WIDTH).toBe(4);
    expect([0, 1, 3, 4, 37, 100, 120].map(levelBarWidth)).toEqual([4, 4, 4, 4, 37, 100, 100]);
  });
});

describe('serial number lines of the service uploads', () => {
  it('takes serials and refuses lines with spaces or odd characters', () => {
    expect(['CNB3M5296110', 'E18848B60580711', 'sn-01/2', 'Серийный1'].every((s) => SERIAL_LINE.test(s))).toBe(true);
    expect(['two words', 'bad!', '', 'x'.repeat(101)].some((s) => SERIAL_LINE.test(s))).toBe(false);
  });
});
