import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { scopeCondition } from './scope.ts';

const render = (q: ReturnType<typeof sql> | null) => (q ? new PgDialect().sqlToQuery(q) : null);

describe('scopeCondition', () => {
  const col = sql`x.location_id`;
  it('is no condition for a caller who sees every location', () => {
    expect(scopeCondition({ scope: new Set([1, 2]), allLocations: true }, col)).toBeNull();
  });
  it('is the caller\'s locations, or false when they have none', () => {
    expect(render(scopeCondition({ scope: new Set([3, 5]), allLocations: false }, col))).toMatchObject({ sql: 'x.location_id IN ($1, $2)', params: [3, 5] });
    expect(render(scopeCondition({ scope: new Set(), allLocations: false }, col))?.sql).toBe('false');
  });
});
