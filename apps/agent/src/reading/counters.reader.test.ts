import { describe, expect, it } from 'vitest';
import { emptyCounters } from '@pagewatch/contracts/reading';
import { completeCounters } from './counters.reader.ts';

describe('counters a device implies', () => {
  it('sums a size from its black-and-white and colour pages, exactly (not marked)', () => {
    const c = completeCounters({ ...emptyCounters(), a3Bw: 30, a3Color: 12, a4Bw: 700, a4Color: 250 });
    expect(c).toMatchObject({ a3: 42, a4: 950, derived: [] });
  });

  it('derives colour as total − black and A4 as total − A3, and says so', () => {
    const c = completeCounters({ ...emptyCounters(), total: 1000, mono: 800, a3: 100, a3Bw: 70, a3Color: 30 });
    expect(c).toMatchObject({ color: 200, a4: 900, a4Bw: 730, a4Color: 170 });
    expect(c.derived).toEqual(['color', 'a4Bw', 'a4Color', 'a4']);
  });

  it('takes A4 as the sum of its parts where they are derived, and marks it derived', () => {
    const c = completeCounters({ ...emptyCounters(), total: 1000, mono: 750, color: 250, a3Bw: 50, a3Color: 20 });
    expect(c).toMatchObject({ a3: 70, a4Bw: 700, a4Color: 230, a4: 930 });
    expect(c.derived).toEqual(['a4Bw', 'a4Color', 'a4']);
  });

  it('derives black from colour too, and leaves unknown what it cannot know', () => {
    expect(completeCounters({ ...emptyCounters(), total: 500, color: 120 })).toMatchObject({ mono: 380, a3: null, a4: null, derived: ['mono'] });
    expect(completeCounters({ ...emptyCounters(), total: 500 })).toMatchObject({ mono: null, color: null, derived: [] });
    expect(completeCounters(emptyCounters())).toEqual(emptyCounters());
  });

  it('derives nothing negative: a part larger than its whole means other units (sides, A3 counted twice)', () => {
    const c = completeCounters({ ...emptyCounters(), total: 100, mono: 150, a3: 120 });
    expect(c).toMatchObject({ color: null, a4: null, derived: [] });
  });

  it('keeps what the device reported over anything derived', () => {
    const c = completeCounters({ ...emptyCounters(), total: 1000, mono: 800, color: 150 });
    expect(c).toMatchObject({ mono: 800, color: 150, derived: [] });
  });
});
