import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { bearer, createUser, testApp } from '../test/test-app.ts';

/**
 * The list protocol against a real database, through the users list: generated filters give
 * the rows a plain JavaScript evaluation gives; hostile ones give a 400, never a 500.
 */
const t = testApp();
type Row = { id: number; login: string; email: string; lastName: string; firstName: string | null; activeFlag: boolean };
let rows: Row[];

const NAMES = ['Ivanov', 'Petrova', "O'Brien", 'van_Dijk', '100%', 'Smith', 'smithson', 'Łukasz', 'a\\b'];

beforeAll(async () => {
  for (let i = 0; i < NAMES.length; i++) {
    const id = await createUser(t.app, t.admin, { login: `user${i}`, role: 'OPERATOR', locationIds: [1] });
    const res = await t.app.inject({ url: `/api/users/${id}`, headers: bearer(t.admin) });
    const u = res.json();
    await t.app.inject({
      method: 'PUT',
      url: `/api/users/${id}`,
      headers: bearer(t.admin),
      payload: { ...u, lastName: NAMES[i], firstName: i % 3 ? `F${i}` : null, activeFlag: i % 2 === 0, grants: u.grants.map((g: { id: number }) => ({ id: g.id })) },
    });
  }
  const all = await t.app.inject({ url: '/api/users?page=1000,1', headers: bearer(t.admin) });
  rows = all.json().pageRows;
  expect(rows).toHaveLength(NAMES.length + 1);
});

const list = (query: Record<string, string | string[]>) => {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) for (const x of [v].flat()) qs.append(k, x);
  return t.app.inject({ url: `/api/users?${qs}`, headers: bearer(t.admin) });
};

type Cond = [keyof Row, string, unknown];
const str = (v: unknown) => String(v ?? '').toLowerCase();
const short = (v: unknown) => [...String(v ?? '')].length < 3;
function matches(r: Row, [field, op, value]: Cond): boolean {
  const x = r[field];
  switch (op) {
    case '=': return value === null ? x === null : x === value;
    case '<>': return value === null ? x !== null : x !== value;
    // The search policy: one or two characters are the start of the value.
    case 'contains': return x !== null && (short(value) ? str(x).startsWith(str(value)) : str(x).includes(str(value)));
    case 'notcontains': return x === null || !(short(value) ? str(x).startsWith(str(value)) : str(x).includes(str(value)));
    case 'startswith': return x !== null && str(x).startsWith(str(value));
    case 'endswith': return x !== null && str(x).endsWith(str(value));
    case 'anyof': return (value as unknown[]).includes(x);
    default: throw new Error(op);
  }
}

const text = fc.constantFrom('ov', 'smith', '%', '_', "'", '\\', 'a\\b', 'F1', 'user1', 'Ł', '', 'zzz');
const cond: fc.Arbitrary<Cond> = fc.oneof(
  fc.tuple(fc.constantFrom<keyof Row>('login', 'lastName', 'firstName', 'email'), fc.constantFrom('contains', 'notcontains', 'startswith', 'endswith'), text),
  fc.tuple(fc.constant<keyof Row>('activeFlag'), fc.constantFrom('=', '<>'), fc.boolean()),
  fc.tuple(fc.constant<keyof Row>('firstName'), fc.constantFrom('=', '<>'), fc.constant(null)),
  fc.tuple(fc.constant<keyof Row>('lastName'), fc.constant('anyof'), fc.subarray(NAMES)),
);

describe('list protocol', () => {
  it('returns exactly the rows a filter describes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(cond, { minLength: 1, maxLength: 3 }), fc.constantFrom('and', 'or'), async (conds, join) => {
        const expr = conds.flatMap((c, i) => (i ? [join, c] : [c]));
        const res = await list({ page: '1000,1', 'filter-json': JSON.stringify(expr) });
        expect(res.statusCode).toBe(200);
        const expected = rows.filter((r) => (join === 'and' ? conds.every((c) => matches(r, c)) : conds.some((c) => matches(r, c)))).map((r) => r.id).sort();
        expect(res.json().pageRows.map((r: Row) => r.id).sort()).toEqual(expected);
        expect(res.json().totalRows).toBe(expected.length);
      }),
      { numRuns: 60 },
    );
  });

  it('answers hostile filters with 400, never 500', async () => {
    const hostile = fc.oneof(
      fc.json(),
      fc.string(),
      fc.array(fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.constant('and'), fc.constant('!'), fc.array(fc.anything(), { maxLength: 4 })), { maxLength: 6 }),
      fc.tuple(fc.string(), fc.string(), fc.anything()).map((c) => JSON.stringify(c)),
      fc.tuple(fc.constantFrom('login', 'id', 'activeFlag', 'lastName'), fc.constantFrom('=', '<', 'between', 'anyof', 'contains', 'LIKE', '; DROP TABLE users; --'), fc.anything()).map((c) => JSON.stringify(c)),
    );
    await fc.assert(
      fc.asyncProperty(hostile, async (f) => {
        const res = await list({ 'filter-json': typeof f === 'string' ? f : JSON.stringify(f) });
        expect([200, 400]).toContain(res.statusCode);
        if (res.statusCode === 400) expect(res.json().code).toBe('BAD_LIST_QUERY');
      }),
      { numRuns: 300 },
    );
    expect((await list({ page: '1000,1' })).json().totalRows).toBe(rows.length);
  });

  it('compares numbers exactly, whatever their notation', async () => {
    expect((await list({ 'filter-json': JSON.stringify(['id', '=', 1e300]) })).statusCode).toBe(400);
    for (const v of [-5e-324, '1e3', 0.5, -0]) {
      const res = await list({ 'filter-json': JSON.stringify(['id', '=', v]) });
      expect(res.statusCode, String(v)).toBe(200);
      expect(res.json().totalRows).toBe(0);
    }
    const one = await list({ 'filter-json': JSON.stringify([['id', 'between', ['0.5', 1.5]], 'or', ['id', 'anyof', [1e-9]]]) });
    expect(one.json().pageRows.map((r: Row) => r.id)).toEqual([1]);
  });

  it('answers numbers past a column type with 200 or 400, never 500: real, integer, every operator (issue 39)', async () => {
    const ops = ['=', '<>', '<', '<=', '>', '>=', 'anyof', 'noneof', 'between'];
    // daysLeft is a real, pagesLeft an integer, the users' id a serial.
    const lists = [['/api/device-part-v/page', 'daysLeft'], ['/api/device-part-v/page', 'pagesLeft'], ['/api/users', 'id']];
    for (const [url, field] of lists) {
      for (const op of ops) {
        for (const v of [1e-300, -1e-300, 5e-324, 1e-40, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 - 1, 3.5e38]) {
          const value = op === 'anyof' || op === 'noneof' ? [v, 1] : op === 'between' ? [v, v] : v;
          const res = await t.app.inject({ url: `${url}?page=10,1&filter-json=${encodeURIComponent(JSON.stringify([field, op, value]))}`, headers: bearer(t.admin) });
          expect([200, 400], `${field} ${op} ${v}: ${res.body}`).toContain(res.statusCode);
        }
      }
    }
  });

  it('pages with a total and sorts by several columns', async () => {
    const p1 = (await list({ page: '4,1', sort: ['activeFlag,DESC', 'login,ASC'] })).json();
    const p2 = (await list({ page: '4,2', sort: ['activeFlag,DESC', 'login,ASC'] })).json();
    expect(p1.totalRows).toBe(rows.length);
    expect(p1.pageRows).toHaveLength(4);
    const expected = [...rows].sort((a, b) => Number(b.activeFlag) - Number(a.activeFlag) || (a.login < b.login ? -1 : 1)).map((r) => r.login);
    expect([...p1.pageRows, ...p2.pageRows].map((r: Row) => r.login)).toEqual(expected.slice(0, 8));
  });

  it('answers with the page that holds a located row', async () => {
    const sorted = [...rows].sort((a, b) => (a.login < b.login ? -1 : 1));
    const target = sorted[7];
    const res = (await list({ page: '3,1', sort: 'login,ASC', locate: String(target.id) })).json();
    expect(res.pageNumber).toBe(3);
    expect(res.pageRows.map((r: Row) => r.id)).toContain(target.id);
    const filteredOut = (await list({ page: '3,1', locate: String(target.id), 'filter-json': JSON.stringify(['id', '<>', target.id]) })).json();
    expect(filteredOut.pageNumber).toBeUndefined();
    expect((await list({ locate: 'x' })).statusCode).toBe(400);
  });

  it('names what is wrong with page, sort and filter', async () => {
    for (const [q, field] of [
      [{ page: '20' }, 'page'],
      [{ page: '0,1' }, 'page'],
      [{ page: '5000,1' }, 'page'],
      [{ sort: 'passwordHash,ASC' }, 'sort'],
      [{ sort: 'login,UP' }, 'sort'],
      [{ 'filter-json': '["passwordHash","=","x"]' }, 'filter-json'],
      [{ 'filter-json': '["activeFlag","contains","x"]' }, 'filter-json'],
      [{ 'filter-json': '["id",">","abc"]' }, 'filter-json'],
      [{ 'filter-json': '[["login","=","a"],"and"]' }, 'filter-json'],
      [{ 'filter-json': JSON.stringify(Array(50).fill(null).reduce((e) => ['!', e], ['login', '=', 'a'])) }, 'filter-json'],
    ] as const) {
      const res = await list(q as Record<string, string>);
      expect(res.statusCode, JSON.stringify(q)).toBe(400);
      expect(res.json().details[0].field).toBe(field);
    }
  });
});
