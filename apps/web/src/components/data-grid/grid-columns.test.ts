import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { day, defineList, timestamp } from '@pagewatch/contracts/list';
import type { TFunction } from 'i18next';
import { formatCell } from './grid-cell.tsx';
import { columnsFromList } from './grid-columns.ts';

const thingsList = defineList(z.object({ id: z.number().int(), name: z.string(), level: z.number().nullable() }), {
  endpoint: '/things/page',
  defaultSort: [{ field: 'name', dir: 'ASC' }],
  columns: ['name', 'level'],
  hidden: ['id'],
  unfilterable: ['level'],
});

describe('columnsFromList', () => {
  it("gives the grid the list's columns in its order, with the screen's looks", () => {
    const columns = columnsFromList(thingsList, { name: { header: 'things.name', width: 200 }, level: { header: 'things.level', value: (r) => r.level ?? 0 } });
    expect(columns.map((c) => [c.field, c.type, c.sortable, c.filterable, c.hidden, c.header])).toEqual([
      ['name', 'string', true, true, false, 'things.name'],
      ['level', 'number', true, false, false, 'things.level'],
      ['id', 'number', true, true, true, 'id'],
    ]);
    expect(columns[1].value!({ id: 1, name: 'a', level: null })).toBe(0);
  });

  it('does not compile with a look for a field the list does not have', () => {
    // @ts-expect-error: colour is not a column of the list
    columnsFromList(thingsList, { colour: { header: 'things.colour' } });
  });

  it('shows a calendar day without a time, a time with it', () => {
    const dated = defineList(z.object({ on: day().nullable(), at: timestamp() }), { endpoint: '/dated/page', defaultSort: [{ field: 'on', dir: 'ASC' }], columns: ['on', 'at'] });
    const [on, at] = columnsFromList(dated, { on: { header: 'on' }, at: { header: 'at' } });
    const t = ((k: string) => k) as unknown as TFunction;
    expect(on.day).toBe(true);
    expect(formatCell(on, '2027-01-15', t)).toBe('15.01.2027');
    expect(formatCell(at, '2027-01-15T10:20:30', t)).toBe('15.01.2027 10:20:30');
  });
});
