import { sql, type SQL } from 'drizzle-orm';
import { CONTAINS_MIN_CHARS } from '@pagewatch/contracts/list';

/**
 * The grids' text search, one policy and one SQL form for every list (issue 40): `contains` of
 * three characters or more is ILIKE '%text%', which the column's trigram index serves; one or
 * two characters have no trigram of their own and mean "starts with" (CONTAINS_MIN_CHARS), ILIKE
 * 'te%', which the trigram index serves through the trigrams of a word's start (and LIKE a
 * prefix index, for a text without letters). The planner plans each such statement for its
 * text (list-run.ts): a rare text through the index, a common one in the grid's order.
 */

/** A text as a LIKE pattern matches it: `%`, `_` and `\` as themselves. */
export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
/**
 * Printable ASCII without letters: no character whose case varies, nor one that another lowers
 * to (ILIKE lowers the value), so LIKE and ILIKE find the same rows.
 */
export const CASELESS = /^[\x20-\x40\x5b-\x60\x7b-\x7e]*$/;

/** What a text filter needs of its column (`ListColumn`, list-query.ts, which documents it). */
export type PatternColumn = { expr: SQL; lowered?: boolean };
export type TextOperator = 'contains' | 'notcontains' | 'startswith' | 'endswith';

/** The operator the policy applies: `contains` of one or two characters is "starts with". */
export function searchedAs(op: TextOperator, text: string): TextOperator | 'notstartswith' {
  if ([...text].length >= CONTAINS_MIN_CHARS) return op;
  return op === 'contains' ? 'startswith' : op === 'notcontains' ? 'notstartswith' : op;
}

/** A text filter on `col`: `contains`, `notcontains`, `startswith` or `endswith` `text`. */
export function patternCondition(col: PatternColumn, op: TextOperator, text: string): SQL {
  const e = col.expr;
  const as = searchedAs(op, text);
  const s = escapeLike(text);
  const pattern = as === 'startswith' || as === 'notstartswith' ? `${s}%` : as === 'endswith' ? `%${s}` : `%${s}%`;
  const negated = as === 'notcontains' || as === 'notstartswith';
  // Models and part names: their indexes hold the lowered text (`ListColumn.lowered`), which
  // the filter reads instead of lowering each row as ILIKE does. Elsewhere a text without
  // letters (digits, dots, dashes: part of a serial or an IP) matches the same rows in either
  // case, and LIKE is several times faster than ILIKE and served by a prefix index.
  const test = col.lowered
    ? sql`lower(${e}) LIKE lower(${pattern}::text)`
    : sql`${e}::text ${sql.raw(CASELESS.test(text) ? 'LIKE' : 'ILIKE')} ${pattern}::text`;
  return negated ? sql`(${e} IS NULL OR NOT ${test})` : sql`(${test})`;
}
