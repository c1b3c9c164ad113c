import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { day, defineList } from '@pagewatch/contracts/list';
import { listSql } from './list-query.ts';

/** The server's SQL map of a list is checked against the list's fields by the compiler. */
const thingsList = defineList(z.object({ id: z.number().int(), name: z.string(), madeOn: day() }), {
  endpoint: '/things/page',
  defaultSort: [{ field: 'name', dir: 'ASC' }],
  columns: ['name', 'madeOn'],
  hidden: ['id'],
  unsortable: ['madeOn'],
});
const base = { from: sql`things t`, tiebreaker: [sql`t.id`] };

describe('listSql', () => {
  it('takes the types, filters, sorts and days of the shared list', () => {
    const def = listSql(thingsList, { ...base, scope: sql`t.location_id`, sql: { id: sql`t.id`, name: sql`t.name`, madeOn: sql`t.made_on` } });
    expect(Object.fromEntries(Object.entries(def.columns).map(([k, c]) => [k, [c.type, c.filter, c.sort, c.day]]))).toEqual({
      name: ['string', true, true, false],
      madeOn: ['date', true, false, true],
      id: ['number', true, true, false],
    });
    expect(def.defaultSort).toEqual([{ field: 'name', dir: 'ASC' }]);
    expect(def.scope).toBeDefined();
  });

  it('does not compile with a field missing from the SQL map, or one the list does not have', () => {
    // @ts-expect-error: madeOn has no SQL
    listSql(thingsList, { ...base, sql: { id: sql`t.id`, name: sql`t.name` } });
    // @ts-expect-error: colour is not a field of the list
    listSql(thingsList, { ...base, sql: { id: sql`t.id`, name: sql`t.name`, madeOn: sql`t.made_on`, colour: sql`t.colour` } });
  });
});
