import { describe, expect, it } from 'vitest';
import { moveField } from './grid-columns.ts';
import { fitPageSize } from './grid-page-size.ts';
import { defaultGridState, gridLink, parseGridState, serializeGridState, withLinkedFilter } from './grid-storage.ts';
import type { GridField } from './grid-types.ts';

const columns: GridField[] = [
  { field: 'login', type: 'string', sortable: true, filterable: true },
  { field: 'email', type: 'string', sortable: true, filterable: true },
  { field: 'activeFlag', type: 'boolean', filterable: true },
  { field: 'id', type: 'number', sortable: true, hidden: true },
];

describe('stored grid state', () => {
  it('round-trips everything but the page number', () => {
    const state = {
      columnOrder: ['email', 'login', 'activeFlag', 'id'],
      hidden: ['login'],
      widths: { email: 300 },
      sort: [{ field: 'email', dir: 'DESC' as const }, { field: 'login', dir: 'ASC' as const }],
      filterRow: { login: 'adm' },
      headerFilters: { activeFlag: [false] },
      pageSize: 'fit' as const,
    };
    expect(parseGridState(serializeGridState(state), columns)).toEqual(state);
  });

  it('starts from the definition when nothing or garbage is stored', () => {
    const d = defaultGridState(columns, [{ field: 'login', dir: 'ASC' }]);
    expect(d.hidden).toEqual(['id']);
    expect(parseGridState(null, columns, d.sort)).toEqual(d);
    expect(parseGridState('{not json', columns, d.sort)).toEqual(d);
    expect(parseGridState('{"v":0}', columns, d.sort)).toEqual(d);
  });

  it('drops what no longer fits the columns and adds new columns as defined', () => {
    const stored = JSON.stringify({
      v: 1,
      columnOrder: ['gone', 'email', 'login'],
      hidden: ['gone', 'email'],
      widths: { email: 10, gone: 100, login: 'wide' },
      sort: [{ field: 'activeFlag', dir: 'ASC' }, { field: 'gone', dir: 'ASC' }, { field: 'login', dir: 'UP' }, { field: 'email', dir: 'ASC' }],
      filterRow: { gone: 'x', id: 5, login: { evil: true }, email: 'ex' },
      headerFilters: { activeFlag: [true, {}], gone: [1] },
      pageSize: 37,
    });
    expect(parseGridState(stored, columns)).toEqual({
      columnOrder: ['email', 'login', 'activeFlag', 'id'],
      hidden: ['email', 'id'],
      widths: { email: 40 },
      sort: [{ field: 'email', dir: 'ASC' }],
      filterRow: { email: 'ex' },
      headerFilters: { activeFlag: [true] },
      pageSize: 20,
    });
  });
});

describe('fit to height', () => {
  it('counts 34 px rows, 300 px when not measured, the default when not allowed', () => {
    expect(fitPageSize(680)).toBe(20);
    expect(fitPageSize(500)).toBe(14);
    expect(fitPageSize(0)).toBe(8);
    expect(fitPageSize(null)).toBe(8);
    expect(fitPageSize(20)).toBe(20); // less than one row
    expect(fitPageSize(34 * 100)).toBe(100);
    expect(fitPageSize(34 * 101)).toBe(20); // taller than the largest page the pager offers
  });
});

describe('column order', () => {
  it('moves a column before another or to the end', () => {
    expect(moveField(['a', 'b', 'c'], 'c', 'a')).toEqual(['c', 'a', 'b']);
    expect(moveField(['a', 'b', 'c'], 'a', null)).toEqual(['b', 'c', 'a']);
    expect(moveField(['a', 'b', 'c'], 'a', 'c')).toEqual(['b', 'a', 'c']);
  });
});

describe('a grid opened by a link (home\'s figures)', () => {
  const linked = [...columns, { field: 'status', type: 'lookup' as const, filterable: true, hidden: true }];
  it('replaces the remembered filters with the link\'s and shows the filtered columns', () => {
    const stored = { ...defaultGridState(linked), filterRow: { login: 'old' }, headerFilters: { activeFlag: [false] } };
    const url = gridLink('/devices', { headerFilters: { status: ['ERROR'] }, filterRow: { email: 'x@' } });
    const link = new URL(url, 'http://host').searchParams.get('filter')!;
    const state = withLinkedFilter(stored, link, linked);
    expect(state.headerFilters).toEqual({ status: ['ERROR'] });
    expect(state.filterRow).toEqual({ email: 'x@' });
    expect(state.hidden).not.toContain('status');
    expect(state.hidden).toContain('id');
  });

  it('keeps the remembered state for a link it cannot read, and drops fields the grid lacks', () => {
    const stored = { ...defaultGridState(linked), filterRow: { login: 'kept' } };
    expect(withLinkedFilter(stored, '{not json', linked)).toBe(stored);
    expect(withLinkedFilter(stored, '[1]', linked)).toBe(stored);
    const state = withLinkedFilter(stored, JSON.stringify({ headerFilters: { nope: [1], id: ['x'] }, filterRow: { secret: 'x' } }), linked);
    expect(state.headerFilters).toEqual({});
    expect(state.filterRow).toEqual({});
  });
});
