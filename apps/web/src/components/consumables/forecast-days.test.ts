import { describe, expect, it } from 'vitest';
import { isCoarse, withStep } from './forecast-days.tsx';

describe('honest levels', () => {
  it('calls a level coarse when it moves in steps of 10 points or more, or is only "some remaining"', () => {
    expect(isCoarse({ level: 40, levelState: null, levelStep: 10 })).toBe(true);
    expect(isCoarse({ level: 40, levelState: null, levelStep: 1 })).toBe(false);
    expect(isCoarse({ level: null, levelState: 'SOME_REMAINING', levelStep: null })).toBe(true);
    expect(isCoarse({ level: null, levelState: null, levelStep: null })).toBe(false);
  });

  it("widens a coarse level's expected error by the days one step lasts", () => {
    // 20 days left at 40%: a 10-point step lasts 5 days.
    expect(withStep(2, 20, 40, 10)).toBe(7);
    expect(withStep(null, 20, 40, 25)).toBe(13);
    expect(withStep(2, 20, 40, 1)).toBe(2);
  });
});
