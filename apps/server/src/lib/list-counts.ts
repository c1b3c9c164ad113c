/** The totals of lists' filters that are kept for a while instead of counted again (list-run.ts). */

const BIG_COUNT_TTL_MS = 30_000;
/** How long the other requests keep the last count while one request counts the filter again. */
const RECOUNT_MS = 5_000;
const MAX_KEPT = 1000;

type Kept = {
  n: number;
  until: number;
  /** While a request counts the filter again: until when the others take `n` meanwhile. */
  recountUntil?: number;
};
const keptCounts = new Map<string, Kept>();

/**
 * Counts that are kept for a while instead of counted again: a filter that matched more than a
 * thousand rows (counting it again reads them all, up to COUNT_CAP), and a text filter whatever its count (a
 * pattern is counted by testing each row that may hold it, where its page reads 50). For half
 * a minute a page of the same filter is read without counting (paging through a big list costs
 * a page each). At most a thousand filters, each known by its count statement (filter and scope).
 *
 * When the half minute is over, the first request counts again (`known` is undefined for it)
 * and the requests that come while it does take the last count: fifty clients paging through
 * the same filter would otherwise all count it at the same moment, every half minute.
 */
export function keptCount(key: string, now = Date.now()) {
  const hit = keptCounts.get(key);
  let known: number | undefined;
  if (hit && (hit.until > now || (hit.recountUntil ?? 0) > now)) known = hit.n;
  else if (hit) hit.recountUntil = now + RECOUNT_MS;
  return {
    known,
    remember(n: number) {
      keptCounts.delete(key);
      if (keptCounts.size >= MAX_KEPT) keptCounts.delete(keptCounts.keys().next().value!);
      keptCounts.set(key, { n, until: now + BIG_COUNT_TTL_MS });
      return n;
    },
  };
}
