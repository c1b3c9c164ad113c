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
    expect(matchesFilter([['count', '=', 9], 'and', ['count', '=', 3], 'or', ['login', '=', 'Admin']], get)).toBe(true);
    // true or false and false → true or (false and false) → true
    expect(matchesFilter([['count', '=', 3], 'or', ['count', '=', 9], 'and', ['count', '=', 8]], get)).toBe(true);
    expect(matchesFilter([['count', '=', 9], 'or', ['count', '=', 3], 'and', ['count', '=', 8]], get)).toBe(false);
  });

  it('sorts on several keys, stable', () => {
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

// The server orders ASC NULLS FIRST and DESC NULLS LAST (list-query.ts `direction`) and builds
// `=` as SQL's `column = value`, the value coerced to the column's type: a local grid does the same.
describe('local data as the server treats it', () => {
  const get = (r: Record<string, unknown>, f: string) => r[f];

  it('puts empty values first ascending and last descending; an empty text is a text', () => {
    const rows = [{ a: 'b' }, { a: null }, { a: '' }, { a: 'a' }, { a: undefined }];
    expect(sortRows(rows, [{ field: 'a', dir: 'ASC' }], get).map((r) => r.a)).toEqual([null, undefined, '', 'a', 'b']);
    expect(sortRows(rows, [{ field: 'a', dir: 'DESC' }], get).map((r) => r.a)).toEqual(['b', 'a', '', null, undefined]);
    const n = [{ a: 2 }, { a: null }, { a: 10 }];
    expect(sortRows(n, [{ field: 'a', dir: 'ASC' }], get).map((r) => r.a)).toEqual([null, 2, 10]);
  });

  it('orders text as text, not as numbers within it (no collation of the server reads digits as numbers)', () => {
    const rows = [{ a: 'Printer 2' }, { a: 'Printer 10' }];
    expect(sortRows(rows, [{ field: 'a', dir: 'ASC' }], get).map((r) => r.a)).toEqual(['Printer 10', 'Printer 2']);
  });

  it('matches `=` on text exactly, case and all, as SQL `=` does', () => {
    const row = { login: 'Admin', note: '', gone: null } as Record<string, unknown>;
    const at = (f: string) => row[f];
    expect(matchesFilter(['login', '=', 'Admin'], at)).toBe(true);
    expect(matchesFilter(['login', '=', 'admin'], at)).toBe(false);
    expect(matchesFilter(['login', '=', 'Admín'], at)).toBe(false);
    expect(matchesFilter(['login', '<>', 'admin'], at)).toBe(true);
    expect(matchesFilter(['login', 'anyof', ['admin', 'root']], at)).toBe(false);
    expect(matchesFilter(['login', 'noneof', ['admin']], at)).toBe(true);
    // An empty text is not a missing one.
    expect(matchesFilter(['note', '=', null], at)).toBe(false);
    expect(matchesFilter(['gone', '=', null], at)).toBe(true);
    expect(matchesFilter(['note', '=', ''], at)).toBe(true);
  });

  it('coerces the value to the column’s type: numbers, flags and instants compare as such', () => {
    const row = { count: 5, activeFlag: true, at: '2024-03-01T10:00:00.000Z' } as Record<string, unknown>;
    const at = (f: string) => row[f];
    expect(matchesFilter(['count', '=', '5'], at)).toBe(true);
    expect(matchesFilter(['count', '=', '5.0'], at)).toBe(true);
    expect(matchesFilter(['count', '>', '10'], at)).toBe(false);
    expect(matchesFilter(['activeFlag', '=', 'true'], at)).toBe(true);
    expect(matchesFilter(['at', '=', '2024-03-01T10:00:00Z'], at)).toBe(true);
    expect(matchesFilter(['at', '<', '2024-03-01T09:00:00+00:00'], at)).toBe(false);
  });

  it('leaves a missing value out of every comparison but IS NULL, noneof and notcontains', () => {
    const row = { count: null, login: null } as Record<string, unknown>;
    const at = (f: string) => row[f];
    expect(matchesFilter(['count', '<', 3], at)).toBe(false);
    expect(matchesFilter(['count', '<>', 3], at)).toBe(false);
    expect(matchesFilter(['count', 'between', [0, 3]], at)).toBe(false);
    expect(matchesFilter(['count', 'noneof', [3]], at)).toBe(true);
    expect(matchesFilter(['count', '<>', null], at)).toBe(false);
    expect(matchesFilter(['login', 'contains', ''], at)).toBe(false);
    expect(matchesFilter(['login', 'notcontains', 'x'], at)).toBe(true);
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
