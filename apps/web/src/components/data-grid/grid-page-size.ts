import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '@pagewatch/contracts/list';
import type { PageSizeChoice } from './grid-types.ts';

/** Spec section 9: every grid row is 34 px; a grid not yet measured counts with 300 px. */
export const ROW_HEIGHT = 34;
export const DEFAULT_COUNT_HEIGHT = 300;
/** Spec section 9: how long the filter row waits after the last key stroke. */
export const FILTER_DELAY_MS = 1700;

/**
 * Rows that fit into the body's height. Spec section 9: "the derived size must be an allowed
 * one, otherwise the default is used". Allowed here is the range the pager offers, 1 to its
 * largest size (100): reading it as "exactly 20, 50 or 100" would make fit-to-height a no-op
 * at nearly every height, and a taller page than the pager offers is not a page size it allows.
 */
export function fitPageSize(bodyHeight: number | null | undefined, rowHeight = ROW_HEIGHT): number {
  const height = bodyHeight && bodyHeight > 0 ? bodyHeight : DEFAULT_COUNT_HEIGHT;
  const rows = Math.floor(height / rowHeight);
  return isAllowedPageSize(rows) ? rows : DEFAULT_PAGE_SIZE;
}

export function isAllowedPageSize(n: number): boolean {
  return Number.isInteger(n) && n >= 1 && n <= Math.max(...PAGE_SIZES);
}

/** The page size a choice stands for now. */
export function effectivePageSize(choice: PageSizeChoice, bodyHeight: number | null | undefined): number {
  return choice === 'fit' ? fitPageSize(bodyHeight) : choice;
}

export function isPageSizeChoice(v: unknown): v is PageSizeChoice {
  return v === 'fit' || (PAGE_SIZES as readonly unknown[]).includes(v);
}
