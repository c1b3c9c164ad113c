import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { columnTypeOf, day, defineList, timestamp, type List } from './list.ts';

/** Every list the contracts export, found by shape in every module. */
async function allLists(): Promise<[string, List][]> {
  const lists: [string, List][] = [];
  for (const file of readdirSync(import.meta.dirname).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
    const mod = (await import(`./${file}`)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(mod)) {
      const v = value as Partial<List> | null;
      if (v && typeof v === 'object' && typeof v.endpoint === 'string' && Array.isArray(v.columns) && v.row instanceof z.ZodObject) lists.push([name, v as List]);
    }
  }
  return lists;
}

describe('list definitions', () => {
  it("every list of the contracts names only fields of its row schema, with the row schema's types", async () => {
    const lists = await allLists();
    expect(lists.map(([n]) => n)).toEqual(expect.arrayContaining(['devicesList', 'consumablesList', 'usersList', 'agentsList', 'networkRangesList', 'eventLogsList', 'dictionariesList', 'locationsList']));
    for (const [name, list] of lists) {
      const shape = list.row.shape as Record<string, z.ZodType>;
      for (const c of list.columns) {
        expect(Object.hasOwn(shape, c.field), `${name}.${c.field} is a field of its row`).toBe(true);
        expect(c.type, `${name}.${c.field}`).toBe(columnTypeOf(shape[c.field]));
      }
      for (const s of list.defaultSort) expect(list.columns.map((c) => c.field), `${name} sorts by a column`).toContain(s.field);
      expect(new Set(list.columns.map((c) => c.field)).size, `${name} names each column once`).toBe(list.columns.length);
    }
  });

  it('refuses a column the row schema lacks: at compile time, and at run time for a cast', () => {
    const row = z.object({ id: z.number().int(), name: z.string() });
    const spec = { endpoint: '/x', defaultSort: [], columns: ['id', 'nmae'] };
    // @ts-expect-error: "nmae" is not a field of the row
    expect(() => defineList(row, spec)).toThrow('list /x: the row has no field "nmae"');
  });

  it('derives the column types from the row schema, with sortable and filterable on by default', () => {
    const row = z.object({
      id: z.number().int(),
      name: z.string().nullable(),
      active: z.boolean(),
      state: z.enum(['A', 'B']),
      seenAt: timestamp().nullable(),
      factDate: day(),
    });
    const list = defineList(row, {
      endpoint: '/things/page',
      defaultSort: [{ field: 'name', dir: 'ASC' }],
      columns: ['name', 'active', 'state', 'factDate'],
      hidden: ['seenAt', 'id'],
      unsortable: ['active'],
      unfilterable: ['state'],
    });
    expect(list.columns).toEqual([
      { field: 'name', type: 'string', sortable: true, filterable: true, hidden: false, day: false },
      { field: 'active', type: 'boolean', sortable: false, filterable: true, hidden: false, day: false },
      { field: 'state', type: 'string', sortable: true, filterable: false, hidden: false, day: false },
      { field: 'factDate', type: 'date', sortable: true, filterable: true, hidden: false, day: true },
      { field: 'seenAt', type: 'date', sortable: true, filterable: true, hidden: true, day: false },
      { field: 'id', type: 'number', sortable: true, filterable: true, hidden: true, day: false },
    ]);
    // @ts-expect-error: a default sort must name a column of the list
    defineList(row, { endpoint: '/y', defaultSort: [{ field: 'seenAt', dir: 'ASC' }], columns: ['name'] });
  });

  it('refuses a row field that is no list column type', () => {
    const row = z.object({ tags: z.array(z.string()) });
    expect(() => defineList(row, { endpoint: '/z', defaultSort: [], columns: ['tags'] })).toThrow(/must be a string, number, boolean or date/);
  });
});
