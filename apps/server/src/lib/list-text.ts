import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

/**
 * How a text filter (contains, starts with, ends with) tests its column, beside the trigram
 * indexes that list-query.ts leaves to the planner: LIKE where case cannot matter, bigrams for
 * two characters, an exact range for a start of a column with a prefix index, five-grams, and
 * the grid's order for a text that many rows hold.
 */

/** A text as a LIKE pattern matches it: `%`, `_` and `\` as themselves. */
export const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
/**
 * Printable ASCII without letters: no character whose case varies, nor one that another lowers
 * to (ILIKE lowers the value), so LIKE and ILIKE find the same rows.
 */
export const CASELESS = /^[\x20-\x40\x5b-\x60\x7b-\x7e]*$/;

/**
 * The values that start with `text` (printable ASCII without letters, CASELESS) as the range
 * of a prefix index (`varchar_pattern_ops`, which compares bytes): from the text up to the
 * text with its last character the next one. Exactly the rows LIKE 'text%' finds, without
 * testing each with LIKE as PostgreSQL does beside the range it derives itself ("10.1.4": 0.09
 * ms of 0.6 for 2,800 devices, bench:lists). `hidden`: the bounds in subqueries, so that the
 * statement has one plan for any start, the range read and sorted (the `range` form, for a
 * start that fewer rows than `ListDef.walkFrom` hold: list-run.ts).
 */
export function prefixRange(e: SQL, text: string, hidden = false): SQL {
  const next = text.slice(0, -1) + String.fromCharCode(text.charCodeAt(text.length - 1) + 1);
  const bound = (b: string) => (hidden ? sql`(SELECT ${b}::text)` : sql`${b}::text`);
  return sql`(${e}::text ~>=~ ${bound(text)} AND ${e}::text ~<~ ${bound(next)})`;
}

/**
 * Which five-grams a text search reads (ListColumn.grams, migration 0027). Any of a text's
 * five-character substrings finds every row that holds the text; the fewer rows a gram is
 * held by, the fewer the index hands over for LIKE to test. But a common gram is not free:
 * GIN intersects grams by stepping through each one's list of rows. "10.17.3" on 3 million
 * records: ".17.3" alone names 881 rows in 0.1 ms; with "10.17" beside it (127,000 rows) the
 * same 881 took 0.6 ms (bench/logs.bench.ts). So a search reads the grams that the column's
 * statistics do not count among its common ones, and only where every gram is common, the
 * rarest few.
 */

/**
 * How often the column's common grams occur: the index's statistics, as ANALYZE left them.
 * `version` tells one reading from the next (statements built for the older are built again).
 */
export type GramStats = { common: Map<string, number>; version: number };

const STATS_TTL_MS = 10 * 60_000;
const MAX_GRAMS = 8;
let readings = 0;
const kept = new WeakMap<Db, Map<string, { until: number; stats: Promise<GramStats> }>>();

/**
 * The common grams of a five-gram index (its expression's most common elements), read again
 * every ten minutes. None before the first ANALYZE: searches then read the text's cover.
 */
export function gramStats(db: Db, index: string): Promise<GramStats> {
  let byIndex = kept.get(db);
  if (!byIndex) kept.set(db, (byIndex = new Map()));
  const hit = byIndex.get(index);
  if (hit && hit.until > Date.now()) return hit.stats;
  const stats = db
    .execute(sql`
      SELECT u.gram, u.freq FROM pg_stats s,
        unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs) AS u(gram, freq)
      WHERE s.schemaname = current_schema() AND s.tablename = ${index} AND u.gram IS NOT NULL`)
    .then((res) => ({ common: new Map((res.rows as { gram: string; freq: number }[]).map((r) => [r.gram, Number(r.freq)])), version: ++readings }))
    .catch(() => {
      // Searches still find every row, through the text's cover; the next one reads again.
      byIndex.delete(index);
      return { common: new Map<string, number>(), version: 0 };
    });
  byIndex.set(index, { until: Date.now() + STATS_TTL_MS, stats });
  return stats;
}

/** The statistics of each of `indexes` (a list's five-gram indexes), by name. */
export async function gramStatsOf(db: Db, indexes: readonly string[]): Promise<ReadonlyMap<string, GramStats>> {
  return new Map(await Promise.all(indexes.map(async (index) => [index, await gramStats(db, index)] as const)));
}

/**
 * The 1-based positions of the grams to read of `text` (a five-gram at each). With statistics:
 * every gram they do not count as common (each held by few rows: cheap to intersect, and each
 * narrows the rows to test), at most MAX_GRAMS of them, spread over the text; with none such,
 * the rarest three. Without statistics: grams that cover the text without overlapping, and its
 * last. Grams are looked up lowered as JavaScript lowers; PostgreSQL lowers the ones it reads
 * (`gramsCondition`), so a difference only costs speed, never a row.
 */
export function chosenGrams(text: string, stats?: GramStats): number[] {
  const chars = [...text];
  const last = chars.length - 4;
  if (last < 1) return [];
  const all = Array.from({ length: last }, (_, i) => i + 1);
  if (!stats || stats.common.size === 0) return [...all.filter((i) => (i - 1) % 5 === 0 && i !== last), last];
  const freq = (i: number) => stats.common.get(chars.slice(i - 1, i + 4).join('').toLowerCase());
  const rare = all.filter((i) => freq(i) === undefined);
  if (rare.length === 0) return all.sort((a, b) => freq(a)! - freq(b)! || a - b).slice(0, 3).sort((a, b) => a - b);
  if (rare.length <= MAX_GRAMS) return rare;
  return Array.from({ length: MAX_GRAMS }, (_, k) => rare[Math.round((k * (rare.length - 1)) / (MAX_GRAMS - 1))]);
}

/**
 * The condition that reads a text through its five-grams: the grams at `positions` of the
 * lowered text must all be among the row's, and LIKE tests the rows they name. Pattern and
 * grams are subqueries, out of the planner's sight: the statement has one plan for any text,
 * through the five-gram index (list-run.ts reads this form only when few rows match), and is
 * prepared once per connection instead of planned at every request.
 */
export function gramsCondition(e: SQL, like: SQL, pattern: string, text: string, positions: number[]): SQL {
  const at = `{${positions.join(',')}}`;
  const grams = sql`ARRAY(SELECT substr(lower(${text}::text), i, 5) FROM unnest(${at}::int[]) AS i WHERE i <= char_length(lower(${text}::text)) - 4)`;
  // LIKE tests a value no trigram index holds (`|| ''`): given the pattern at run time, a trigram
  // index could still take it, and the planner chose one in place of the five-grams.
  return sql`((${e} || '')::text ${like} (SELECT ${pattern}::text) AND pw_fivegrams(${e}) @> ${grams})`;
}

/**
 * What a filter's text patterns tell list-query.ts of it (part of its `Budget`): it holds one
 * (`patterns`), one whose plan depends on its text (`planEach`), a value hidden from the
 * planner (`hidden`: the estimate is then parsed again in the `estimate` form to see it), one
 * that five-grams can find (`gramable`: parsed again in the `grams` form), one that the `walk`
 * form cannot take (`unwalkable`: anything but `contains`), one that the `range` form cannot
 * take (`unrangeable`: anything but the start of a column with a prefix index), one of two
 * characters of a column with bigrams (`paired`: the table of pairs may read it).
 */
export type PatternBudget = {
  patterns: boolean; planEach: boolean; hidden: boolean; gramable: boolean; unwalkable: boolean; unrangeable: boolean; paired: boolean;
  /**
   * The condition being written: the page's; the estimate's; the page's through five-grams
   * (few rows match); the page's in the grid's order (`walkCondition`: many rows match); or the
   * page's through a prefix index's range, its bounds hidden (`prefixRange`: fewer than many);
   * or the page's from the table of pairs (`ListDef.pairs`: two characters of a column with
   * bigrams), its column of pairs `pair`.
   */
  form: 'page' | 'estimate' | 'grams' | 'walk' | 'range' | 'pairs';
  pair?: SQL;
  /** The five-gram indexes' statistics, by index name. */
  gramStats?: ReadonlyMap<string, GramStats>;
};

/** What a text filter needs of its column (`ListColumn`, list-query.ts, which has these fields and documents them). */
export type PatternColumn = { expr: SQL; bigrams?: boolean; grams?: string; prefix?: boolean; lowered?: boolean };

/** A text filter on `col`: `contains`, `notcontains`, `startswith` or `endswith` `text`. */
export function patternCondition(col: PatternColumn, op: 'contains' | 'notcontains' | 'startswith' | 'endswith', text: string, budget: PatternBudget): SQL {
  const e = col.expr;
  budget.patterns = true;
  if (op !== 'contains') budget.unwalkable = true;
  const s = escapeLike(text);
  const pattern = op === 'startswith' ? `${s}%` : op === 'endswith' ? `%${s}` : `%${s}%`;
  // A text without letters (digits, dots, dashes: part of a serial or an IP) matches the
  // same rows in either case, and LIKE tests a row several times faster than ILIKE, which
  // lowers every value it reads.
  const like = sql.raw(CASELESS.test(text) ? 'LIKE' : 'ILIKE');
  // Two characters have no trigram: a row that holds them has them among its bigrams, which
  // are lowered as ILIKE lowers. That alone says whether it contains them; a start or an
  // end is tested on the rows found.
  //
  // Its bigrams are hidden from the planner (a subquery, run once per statement), so every
  // pair of characters gets the same plan, through the bigram index: the statement needs no
  // planning of its own and is prepared once (list-run.ts). Planned for "00", which every
  // serial holds, PostgreSQL ran pw_bigrams() on each device instead (450 ms, against 36).
  // The planner's row estimate (the total past the count limit) still sees them.
  const chars = [...text].length;
  if (col.bigrams && op !== 'notcontains' && chars === 2) {
    budget.hidden = true;
    budget.paired = true;
    // Two characters are one bigram, lowered as pw_bigrams() lowers (the SQL function itself
    // cost 0.09 ms a statement); in the table of pairs, one row's pair.
    const bigrams = sql`ARRAY[lower(${text}::text)]`;
    const found = budget.form === 'pairs' ? sql`${budget.pair!} = (SELECT lower(${text}::text))`
      : sql`pw_bigrams(${e}) @> ${budget.form === 'estimate' ? bigrams : sql`(SELECT ${bigrams})`}`;
    return op === 'contains' ? sql`(${found})` : sql`(${found} AND ${e}::text ${like} ${pattern})`;
  }
  // Any other pattern's plan depends on its text, except in the forms read through five-grams
  // (`gramsWhere`, when few rows match), in the grid's order (`walkWhere`, when many do) and
  // through a prefix index's range (`rangeWhere`).
  budget.planEach = true;
  const prefix = col.prefix && op === 'startswith' && text !== '' && CASELESS.test(text);
  if (!prefix) budget.unrangeable = true;
  if (op === 'contains' && budget.form === 'walk') return walkCondition(e, text, !!col.lowered || !CASELESS.test(text));
  if (col.grams && op !== 'notcontains' && chars >= 5) {
    budget.gramable = true;
    if (budget.form === 'grams') return gramsCondition(e, like, pattern, text, chosenGrams(text, budget.gramStats?.get(col.grams)));
  }
  if (prefix) return prefixRange(e, text, budget.form === 'range');
  if (col.lowered) {
    const lowered = sql`lower(${e}) LIKE lower(${pattern}::text)`;
    return op === 'notcontains' ? sql`(${e} IS NULL OR NOT ${lowered})` : sql`(${lowered})`;
  }
  if (op === 'notcontains') return sql`(${e} IS NULL OR ${e}::text NOT ${like} ${pattern})`;
  return sql`(${e}::text ${like} ${pattern})`;
}

/**
 * A `contains` as the grid's order reads it when many rows hold the text (`ListDef.walkFrom`,
 * list-run.ts): `strpos`, which finds the same rows as LIKE (ILIKE lowers both sides, as
 * `lower` does here) and which no trigram index serves, with the text in a subquery. Its
 * statement then has one plan for any text, the walk along the grid's order index testing each
 * row until the page is full, and is prepared once per connection instead of planned at every
 * request. Given LIKE with a hidden pattern instead, the planner took the trigram index and
 * sorted what it found: "cyan" on 313,000 supplies, 45 ms against 0.7.
 */
export function walkCondition(e: SQL, text: string, lowered: boolean): SQL {
  return lowered ? sql`(strpos(lower(${e}::text), (SELECT lower(${text}::text))) > 0)` : sql`(strpos(${e}::text, (SELECT ${text}::text)) > 0)`;
}
