import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

/**
 * How a text filter (contains, starts with, ends with) tests its column, beside the trigram
 * indexes that list-query.ts leaves to the planner: LIKE where case cannot matter, an exact
 * range for a start of a column with a prefix index, and five-grams.
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
 * ms of 0.6 for 2,800 devices, bench:lists).
 */
export function prefixRange(e: SQL, text: string): SQL {
  const next = text.slice(0, -1) + String.fromCharCode(text.charCodeAt(text.length - 1) + 1);
  return sql`(${e}::text ~>=~ ${text}::text AND ${e}::text ~<~ ${next}::text)`;
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
