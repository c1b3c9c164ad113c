import { describe, expect, it } from 'vitest';
import { keptCount } from './list-counts.ts';

let keys = 0;
/** A filter key of its own for each test: the kept counts are the module's, shared by the tests. */
const freshKey = () => `test\u0000${++keys}`;
const T = 1_000_000;

describe('kept counts of capped and text filters', () => {
  it('keeps a count for half a minute, then the next request counts again', () => {
    const key = freshKey();
    expect(keptCount(key, T).known).toBeUndefined();
    keptCount(key, T).remember(60_000);
    expect(keptCount(key, T + 29_999).known).toBe(60_000);
    expect(keptCount(key, T + 30_000).known).toBeUndefined();
  });

  it('while one request counts an expired filter again, the others take the last count instead of counting too', () => {
    const key = freshKey();
    keptCount(key, T).remember(1_167);
    const recounting = keptCount(key, T + 30_000);
    expect(recounting.known).toBeUndefined();
    // Fifty clients paging through the same filter at that moment: none of them counts.
    for (let i = 1; i <= 50; i++) expect(keptCount(key, T + 30_000 + i).known).toBe(1_167);
    recounting.remember(1_170);
    expect(keptCount(key, T + 30_100).known).toBe(1_170);
    expect(keptCount(key, T + 60_000 - 1).known).toBe(1_170);
  });

  it('counts again when the request that was counting never came back (its statement failed)', () => {
    const key = freshKey();
    keptCount(key, T).remember(500);
    expect(keptCount(key, T + 30_000).known).toBeUndefined();
    expect(keptCount(key, T + 34_999).known).toBe(500);
    // Five seconds on, the next request counts, and the one after it takes the last count again.
    expect(keptCount(key, T + 35_000).known).toBeUndefined();
    expect(keptCount(key, T + 35_001).known).toBe(500);
  });

  it('a filter never counted is counted by every request until one remembers it', () => {
    const key = freshKey();
    expect(keptCount(key, T).known).toBeUndefined();
    expect(keptCount(key, T + 1).known).toBeUndefined();
  });
});
