import { describe, expect, it } from 'vitest';
import { andAll, buildFilter, dayRange, filterRowCondition, matchesFilter, sortRows } from './grid-filter.ts';
import type { GridField } from './grid-types.ts';
import type { FilterExpression } from '@pagewatch/contracts/list';

const columns: GridField[] = [
  { field: 'login', type: 'string', filterable: true },
  { field: 'count', type: 'number', filterable: true },
  { field: 'activeFlag', type: 'boolean', filterable: true },
  { field: 'status', type: 'lookup', filterable: true, options: [{ value: 'OK', label: 'x' }] },
];

describe('filter expressions', () => {
  it('turns filter-row values into conditions by column type', () => {
    expect(filterRowCondition('login', 'string', '  adm ')).toEqual(['login', 'contains', 'adm']);
    expect(filterRowCondition('login', 'string', '   ')).toBeNull();
    expect(filterRowCondition('count', 'number', '1,5')).toEqual(['count', '=', 1.5]);
    expect(filterRowCondition('count', 'number', 'abc')).toBeNull();
    expect(filterRowCondition('activeFlag', 'boolean', false)).toEqual(['activeFlag', '=', false]);
    expect(filterRowCondition('status', 'lookup', 'OK')).toEqual(['status', '=', 'OK']);
    const [from, to] = dayRange('2024-03-01')!;
    expect(filterRowCondition('d', 'date', '2024-03-01')).toEqual([['d', '>=', from], 'and', ['d', '<', to]]);
    expect(new Date(to).getTime() - new Date(from).getTime()).toBe(24 * 3600 * 1000);
  });

  it('joins with and; one condition stays itself; nothing is null', () => {
    expect(andAll([])).toBeNull();
    expect(andAll([null, ['a', '=', 1]])).toEqual(['a', '=', 1]);
    expect(andAll([['a', '=', 1], ['b', '=', 2]])).toEqual([['a', '=', 1], 'and', ['b', '=', 2]]);
  });

  it('builds one expression from filter row, header filters and the base filter', () => {
    expect(buildFilter(columns, {}, {})).toBeNull();
    expect(buildFilter(columns, { login: 'adm' }, { activeFlag: [true] }, ['count', '>', 0])).toEqual([
      ['login', 'contains', 'adm'],
      'and',
      ['activeFlag', 'anyof', [true]],
      'and',
      ['count', '>', 0],
    ]);
  });
});

describe('local evaluation', () => {
  const row = { login: 'Admin', count: 3, activeFlag: true, status: 'OK' } as Record<string, unknown>;
  const get = (f: string) => row[f];
  it('evaluates conditions, negation and and/or with and binding tighter', () => {
    expect(matchesFilter(null, get)).toBe(true);
    expect(matchesFilter(['login', 'contains', 'adm'], get)).toBe(true);
    expect(matchesFilter(['login', 'startswith', 'x'], get)).toBe(false);
    expect(matchesFilter(['!', ['login', 'startswith', 'x']], get)).toBe(true);
    expect(matchesFilter(['count', 'between', [1, 3]], get)).toBe(true);
    expect(matchesFilter(['status', 'noneof', ['OK']], get)).toBe(false);
    // false and true or true → (false and true) or true → true
    expect(matchesFilter([['count', '=', 9], 'and', ['count', '=', 3], 'or', ['login', '=', 'admin']], get)).toBe(true);
    // true or false and false → true or (false and false) → true
    expect(matchesFilter([['count', '=', 3], 'or', ['count', '=', 9], 'and', ['count', '=', 8]], get)).toBe(true);
    expect(matchesFilter([['count', '=', 9], 'or', ['count', '=', 3], 'and', ['count', '=', 8]], get)).toBe(false);
  });

  it('sorts on several keys, stable, empty values last', () => {
    const rows = [
      { a: 'b', n: 2 },
      { a: 'a', n: 2 },
      { a: null, n: 1 },
      { a: 'a', n: 10 },
    ];
    const out = sortRows(rows, [{ field: 'n', dir: 'DESC' }, { field: 'a', dir: 'ASC' }], (r, f) => r[f as 'a' | 'n']);
    expect(out).toEqual([{ a: 'a', n: 10 }, { a: 'a', n: 2 }, { a: 'b', n: 2 }, { a: null, n: 1 }]);
  });
});

describe('header ranges ("runs out within 7 days")', () => {
  const ranged = [
    {
      field: 'daysLeft',
      type: 'number' as const,
      ranges: [
        { value: '7', label: 'w7', condition: ['daysLeft', '<=', 7] as FilterExpression },
        { value: '14', label: 'w14', condition: ['daysLeft', '<=', 14] as FilterExpression },
      ],
    },
  ];
  it('sends the ticked ranges\' conditions, joined with or', () => {
    expect(buildFilter(ranged, {}, { daysLeft: ['7'] })).toEqual(['daysLeft', '<=', 7]);
    expect(buildFilter(ranged, {}, { daysLeft: ['7', '14'] })).toEqual([['daysLeft', '<=', 7], 'or', ['daysLeft', '<=', 14]]);
    expect(buildFilter(ranged, {}, { daysLeft: ['99'] })).toBeNull();
    const rows = [{ daysLeft: 3 }, { daysLeft: 10 }, { daysLeft: 20 }, { daysLeft: null }];
    const f = buildFilter(ranged, {}, { daysLeft: ['14'] });
    expect(rows.filter((r) => matchesFilter(f, (k) => r[k as 'daysLeft'])).map((r) => r.daysLeft)).toEqual([3, 10]);
  });
});
