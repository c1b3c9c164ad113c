import type { LevelState } from '@pagewatch/contracts/reading';

export type LevelReading = { levelState: LevelState | null; percent: number | null };

/** RFC 3805: -1 no restriction, -2 unknown, -3 "some remaining"; kept as states, never as numbers. */
const SPECIAL: Record<number, LevelState> = { [-1]: 'UNRESTRICTED', [-2]: 'UNKNOWN', [-3]: 'SOME_REMAINING' };

const clampPercent = (n: number): number => Math.min(100, Math.max(0, Math.round(n)));

/**
 * Percent of a supply or tray. With a positive MaxCapacity it is level/max. When the capacity
 * is unknown (-2), unrestricted (-1) or 0, `levelIsPercentWithoutMax` lets a level of 0..100
 * stand for a percentage: supplies report that way (Sharp, Brother); trays count sheets, so
 * for them the percent stays null.
 */
export function computeLevel(level: number | null, max: number | null, levelIsPercentWithoutMax: boolean): LevelReading {
  if (level === null) return { levelState: null, percent: null };
  const special = SPECIAL[level];
  if (special) return { levelState: special, percent: null };
  if (level < 0) return { levelState: null, percent: null };
  if (max !== null && max > 0) return { levelState: null, percent: clampPercent((level / max) * 100) };
  if (levelIsPercentWithoutMax && level <= 100) return { levelState: null, percent: level };
  // Nothing left is 0 % whatever the capacity.
  return { levelState: null, percent: level === 0 ? 0 : null };
}
