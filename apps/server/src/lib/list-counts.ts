/** The totals of lists' filters that are kept for a while instead of counted again (list-run.ts). */

const BIG_COUNT_TTL_MS = 30_000;
const bigCounts = new Map<string, { n: number; until: number }>();

/**
 * Filters that matched more rows than the list counts (its `countLimit`): their total is the
 * planner's estimate anyway, so for half a minute a page of the same filter is read without
 * counting again (paging through a big list costs a page each). Text filters too, whatever
 * their count: a pattern is counted by testing each row that may hold it. At most a thousand
 * filters, each known by its key: the count limit and the estimate statement (the filter and
 * scope).
 */
export function bigCount(key: string) {
  const hit = bigCounts.get(key);
  const now = Date.now();
  return {
    known: hit && hit.until > now ? hit.n : undefined,
    remember(n: number) {
      if (bigCounts.size >= 1000) bigCounts.delete(bigCounts.keys().next().value!);
      bigCounts.set(key, { n, until: now + BIG_COUNT_TTL_MS });
      return n;
    },
  };
}
