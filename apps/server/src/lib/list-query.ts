import { getTableColumns, sql, type SQL, type Table } from 'drizzle-orm';
import type { Scoped } from '../db/scope.ts';
import {
  DEFAULT_PAGE_SIZE,
  FILTER_OPERATORS,
  MAX_PAGE_SIZE,
  type ColumnType,
  type FilterOperator,
  type ListQuery,
  type List,
  type SortSpec,
} from '@pagewatch/contracts/list';
import { CONTROL_CHARS } from '@pagewatch/contracts/fields';
import { AppError } from './app-error.ts';
import { patternCondition } from './list-text.ts';

/**
 * The list protocol as one helper: a list declares its columns (an SQL expression, a type,
 * whether it filters and sorts); the query string is checked against that declaration and
 * turned into parameterised SQL. User text only ever becomes a bound parameter. Lists are run
 * by list-run.ts.
 */
export type ListColumn = {
  expr: SQL; type: ColumnType; filter?: boolean; sort?: boolean; select?: boolean;
  /** A date column holding a day, written as YYYY-MM-DD in JSON pages. */
  day?: boolean;
  /**
   * The column's indexes hold its lowered text (`loweredTrigramIndex`, migration 0026): a text
   * filter is `lower(column) LIKE lower(pattern)`, read from them, instead of ILIKE.
   */
  lowered?: boolean;
  /** Read from a joined table: a filter or sort on it needs the whole FROM (see `keysFrom`). */
  joined?: boolean;
};
/** The SQL type of a key column (`ListDef.keyLookup`). */
export type KeyType = 'int' | 'bigint' | 'date';
export type ListDef = {
  columns: Record<string, ListColumn>;
  /** FROM clause with its joins. */
  from: SQL;
  defaultSort: SortSpec[];
  /**
   * The list's own table alone (`devices d`), where a page's keys and the count are read when
   * neither the filter nor the order needs a joined column: PostgreSQL drops the unused LEFT
   * joins of `from` but still takes their columns as needed, which rules out an index-only scan.
   */
  keysFrom?: SQL;
  /** The unique key (one column or more) that makes the order total, so pages never overlap. */
  tiebreaker: SQL[];
  /**
   * For lists over large tables (devices, supplies, the event log): totalRows is exact up to
   * this many rows (COUNT_CAP) and capped above it (`totalCapped`), so a page never waits for
   * every matching row to be counted.
   */
  countLimit?: number;
  /**
   * A row is found by its key (`tiebreaker`) through an index of the FROM clause: pages can
   * then be read as keys first and whole rows after (a scope of a few locations merged location
   * by location; a page past the first). Not for FROM clauses that compute their rows, as a
   * window or a LATERAL subquery does. The key's columns' types, in the tiebreaker's order: a
   * text filter's keys are read by a statement of their own and passed back as arrays of them.
   */
  keyLookup?: readonly KeyType[];
  /** The column the caller's locations restrict (`scopeCondition`); */
  scope?: SQL;
  /** or, where that is not one column, the condition a caller sees rows under. */
  visibleTo?: (caller: Scoped) => SQL | null;
  /** Objects a JSON page builds of the row's own fields: `{ name: { key: field } }`. */
  objects?: Record<string, Record<string, string>>;
};

/**
 * A server list from the shared list definition (packages/contracts) plus one SQL expression
 * per field: `sql` must name exactly the list's fields (the compiler refuses a missing or an
 * extra one). Fields only the server knows (say, for a base filter) may be added as `extra`.
 */
export function listSql<F extends string>(
  list: List<F>,
  opts: {
    from: SQL;
    tiebreaker: SQL[];
    sql: Record<F, SQL>;
    extra?: Record<string, ListColumn>;
    /** Fields whose column's indexes hold its lowered text (`ListColumn.lowered`). */
    lowered?: F[];
    /** The list's own table alone, and the fields read from its joins (`ListDef.keysFrom`). */
    keysFrom?: SQL;
    joined?: F[];
    keyLookup?: readonly KeyType[];
    countLimit?: number;
    /** The column the caller's locations restrict (`db/scope.ts`), or */
    scope?: SQL;
    /** the condition a caller sees rows under, where that is not one column. */
    visibleTo?: (caller: Scoped) => SQL | null;
    objects?: Record<string, Record<string, string>>;
  },
): ListDef {
  const columns: Record<string, ListColumn> = {};
  for (const f of list.columns) {
    columns[f.field] = { expr: opts.sql[f.field], type: f.type, filter: f.filterable, sort: f.sortable, day: f.day,
      lowered: opts.lowered?.includes(f.field), joined: opts.joined?.includes(f.field) };
  }
  if (opts.keyLookup && opts.keyLookup.length !== opts.tiebreaker.length) throw new Error('keyLookup names the type of each tiebreaker column');
  return {
    columns: { ...columns, ...opts.extra },
    from: opts.from,
    keysFrom: opts.keysFrom,
    tiebreaker: opts.tiebreaker,
    defaultSort: [...list.defaultSort],
    keyLookup: opts.keyLookup,
    countLimit: opts.countLimit,
    scope: opts.scope,
    visibleTo: opts.visibleTo,
    objects: opts.objects,
  };
}

/**
 * The SQL of list fields that are columns of a table under the same name, read through an alias
 * of it (`u.last_name` for `lastName`): the compiler checks each name against the table.
 */
export function tableFields<T extends Table, K extends keyof T['$inferSelect'] & string>(alias: string, table: T, fields: readonly K[]): Record<K, SQL> {
  const columns = getTableColumns(table) as Record<string, { name: string }>;
  return Object.fromEntries(fields.map((f) => [f, sql`${sql.raw(alias)}.${sql.identifier(columns[f].name)}`])) as Record<K, SQL>;
}

const MAX_FILTER_CHARS = 20_000;
const MAX_DEPTH = 12;
const MAX_CONDITIONS = 200;
const MAX_LIST_VALUES = 1000;

const OPS_BY_TYPE: Record<ColumnType, readonly FilterOperator[]> = {
  string: FILTER_OPERATORS,
  number: ['=', '<>', '<', '<=', '>', '>=', 'anyof', 'noneof', 'between'],
  date: ['=', '<>', '<', '<=', '>', '>=', 'between'],
  boolean: ['=', '<>', 'anyof', 'noneof'],
};

const bad = (key: string, params: Record<string, unknown> = {}) =>
  new AppError('BAD_LIST_QUERY', { fields: [{ field: 'filter-json', key, params }] });

export function parsePage(page: string | undefined): { pageSize: number; pageNumber: number } {
  if (page === undefined || page === '') return { pageSize: DEFAULT_PAGE_SIZE, pageNumber: 1 };
  const m = /^(\d{1,5}),(\d{1,9})$/.exec(page);
  const pageSize = m ? Number(m[1]) : NaN;
  const pageNumber = m ? Number(m[2]) : NaN;
  if (!m || pageSize < 1 || pageSize > MAX_PAGE_SIZE || pageNumber < 1) {
    throw new AppError('BAD_LIST_QUERY', { fields: [{ field: 'page', key: 'list.badPage' }] });
  }
  return { pageSize, pageNumber };
}

export function parseSort(def: ListDef, sort: string | string[] | undefined): SortSpec[] {
  const items = sort === undefined ? [] : [sort].flat();
  if (items.length > 20) throw new AppError('BAD_LIST_QUERY', { fields: [{ field: 'sort', key: 'list.badSort' }] });
  return items.map((s) => {
    const m = /^([A-Za-z0-9_.]{1,64}),(ASC|DESC|asc|desc)$/.exec(s);
    if (!m) throw new AppError('BAD_LIST_QUERY', { fields: [{ field: 'sort', key: 'list.badSort' }] });
    const col = Object.hasOwn(def.columns, m[1]) ? def.columns[m[1]] : undefined;
    if (!col || !col.sort) throw new AppError('BAD_LIST_QUERY', { fields: [{ field: 'sort', key: 'list.unknownField', params: { field: m[1] } }] });
    return { field: m[1], dir: m[2].toUpperCase() as 'ASC' | 'DESC' };
  });
}

function coerce(type: ColumnType, field: string, v: unknown): string | number | boolean | Date {
  if (type === 'string') {
    // PostgreSQL text refuses NUL: a control character is a bad value, not a failed query.
    if (typeof v === 'string' && v.length <= 1000 && !CONTROL_CHARS.test(v)) return v;
    if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  } else if (type === 'number') {
    const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
    if (Number.isFinite(n) && Math.abs(n) <= Number.MAX_SAFE_INTEGER) return n;
  } else if (type === 'date') {
    if (typeof v === 'string' || typeof v === 'number') {
      const d = new Date(v);
      if (!Number.isNaN(d.getTime()) && d.getUTCFullYear() > 0 && d.getUTCFullYear() < 10000) return d;
    }
  } else if (type === 'boolean') {
    if (typeof v === 'boolean') return v;
    if (v === 'true' || v === 'false') return v === 'true';
  }
  throw bad('list.badValue', { field });
}

/** A bound value with an explicit type, so PostgreSQL never guesses it from the column. */
function param(type: ColumnType, field: string, v: unknown): SQL {
  const value = coerce(type, field, v);
  // Whole numbers as bigint: integer and bigint columns compare with it in their own index
  // (numeric would cast the column and lose the index); numeric columns still compare exactly.
  if (type === 'number') return Number.isInteger(value) ? sql`${String(value)}::bigint` : sql`${String(value)}::numeric`;
  if (type === 'date') return sql`${(value as Date).toISOString()}::timestamptz`;
  // Booleans as literals: a partial index on a flag (WHERE flag) then serves a prepared
  // statement's generic plan, which a parameter would hide it from.
  if (type === 'boolean') return sql.raw(value ? 'true' : 'false');
  return sql`${value}::text`;
}

function condition(def: ListDef, field: unknown, op: unknown, value: unknown, budget: Budget): SQL {
  if (typeof field !== 'string' || !Object.hasOwn(def.columns, field) || !def.columns[field].filter) {
    throw bad('list.unknownField', { field: String(field).slice(0, 64) });
  }
  const col = def.columns[field];
  if (typeof op !== 'string' || !OPS_BY_TYPE[col.type].includes(op as FilterOperator)) {
    throw bad('list.unknownOperator', { field, op: String(op).slice(0, 20) });
  }
  const e = col.expr;
  if (col.joined) budget.joined = true;
  if (value === null && (op === '=' || op === '<>')) return op === '=' ? sql`(${e} IS NULL)` : sql`(${e} IS NOT NULL)`;
  const operator = op as FilterOperator;
  switch (operator) {
    case 'anyof':
    case 'noneof': {
      if (!Array.isArray(value) || value.length > MAX_LIST_VALUES) throw bad('list.badValue', { field });
      if (value.length === 0) return op === 'anyof' ? sql`false` : sql`true`;
      // One value is `=`: PostgreSQL serves `= ANY(ARRAY[x])` from an index but then sorts every
      // matching row, where `= x` reads the index in the grid's order (one location's page).
      if (op === 'anyof' && value.length === 1) return sql`(${e} = ${param(col.type, field, value[0])})`;
      const list = sql.join(value.map((v) => param(col.type, field, v)), sql`, `);
      // Numbers as `= ANY(ARRAY[…])`: resolved as `=` is (a real column against a float8), where
      // IN would cast each value to the column's type and fail on 1e-300 for a real (issue 39).
      if (col.type === 'number') return op === 'anyof' ? sql`(${e} = ANY(ARRAY[${list}]))` : sql`(${e} IS NULL OR NOT (${e} = ANY(ARRAY[${list}])))`;
      return op === 'anyof' ? sql`(${e} IN (${list}))` : sql`(${e} IS NULL OR ${e} NOT IN (${list}))`;
    }
    case 'between': {
      if (!Array.isArray(value) || value.length !== 2) throw bad('list.badValue', { field });
      const [a, b] = value.map((v) => param(col.type, field, v));
      return sql`(${e} BETWEEN ${a} AND ${b})`;
    }
    case 'contains':
    case 'notcontains':
    case 'startswith':
    case 'endswith':
      budget.patterns = true;
      return patternCondition(col, operator, String(coerce('string', field, value)));
    default: {
      const v = param(col.type, field, value);
      // The operator comes from the fixed list above, never from user text.
      return sql`(${e} ${sql.raw(op as string)} ${v})`;
    }
  }
}

/** How many conditions a filter holds so far, whether it reads a joined column, whether it holds a text pattern. */
type Budget = { conditions: number; joined: boolean; patterns: boolean };

function expression(def: ListDef, node: unknown, depth: number, budget: Budget): SQL {
  if (depth > MAX_DEPTH || ++budget.conditions > MAX_CONDITIONS) throw bad('list.tooDeep');
  if (!Array.isArray(node) || node.length === 0) throw bad('list.badExpression');
  if (node[0] === '!' && node.length === 2) return sql`(NOT ${expression(def, node[1], depth + 1, budget)})`;
  if (typeof node[0] === 'string' && node[0] !== '!') {
    if (node.length === 3) return condition(def, node[0], node[1], node[2], budget);
    if (node.length === 2) return condition(def, node[0], '=', node[1], budget);
    throw bad('list.badExpression');
  }
  // A group: expr (and|or expr)*; a missing connective means "and". AND binds tighter than OR.
  const ors: SQL[][] = [[]];
  let expectExpr = true;
  for (const item of node) {
    if (item === 'and' || item === 'or') {
      if (expectExpr) throw bad('list.badExpression');
      if (item === 'or') ors.push([]);
      expectExpr = true;
    } else {
      ors[ors.length - 1].push(expression(def, item, depth + 1, budget));
      expectExpr = false;
    }
  }
  if (expectExpr) throw bad('list.badExpression');
  const parts = ors.map((ands) => (ands.length === 1 ? ands[0] : sql`(${sql.join(ands, sql` AND `)})`));
  return parts.length === 1 ? parts[0] : sql`(${sql.join(parts, sql` OR `)})`;
}

export type ParsedFilter = {
  where: SQL | null;
  /**
   * A text pattern (`contains`, `startswith`, `endswith`, `notcontains`): how many rows it
   * matches depends on its text (a rare one is read through a trigram index, a common one in the
   * grid's order), so its statements are planned for their text each time (list-run.ts), and
   * its count is kept.
   */
  patterns: boolean;
  joined: boolean;
};

/** The filter's condition, and what list-run.ts needs to know of it. */
export function parseFilter(def: ListDef, raw: string | undefined): ParsedFilter {
  const none = { where: null, patterns: false, joined: false };
  if (raw === undefined || raw === '' || raw === 'null' || raw === '[]') return none;
  if (raw.length > MAX_FILTER_CHARS) throw bad('list.tooDeep');
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw bad('list.badExpression');
  }
  if (json === null || (Array.isArray(json) && json.length === 0)) return none;
  const budget: Budget = { conditions: 0, patterns: false, joined: false };
  const where = expression(def, json, 0, budget);
  return { where, patterns: budget.patterns, joined: budget.joined };
}

export type ParsedList = Omit<ParsedFilter, 'joined'> & {
  /** The filter or the order reads a joined column (`ListColumn.joined`). */
  joined: boolean;
  orderBy: SQL;
  /** The sort terms before the tiebreaker, as `orderBy` applies them. */
  order: { expr: SQL; dir: 'ASC' | 'DESC' }[];
  limit: number;
  offset: number;
};

export const direction = (dir: 'ASC' | 'DESC') => sql.raw(dir === 'DESC' ? 'DESC NULLS LAST' : 'ASC NULLS FIRST');

export function parseListQuery(def: ListDef, q: ListQuery): ParsedList {
  const { pageSize, pageNumber } = parsePage(q.page);
  const sorts = parseSort(def, q.sort);
  const { joined, ...filter } = parseFilter(def, q['filter-json'] ?? q.filter);
  const sorted = sorts.length ? sorts : def.defaultSort;
  const order = sorted.map((s) => ({ expr: def.columns[s.field].expr, dir: s.dir }));
  const terms = order.map((o) => sql`${o.expr} ${direction(o.dir)}`);
  for (const k of def.tiebreaker) terms.push(sql`${k} ASC`);
  return { ...filter, joined: joined || sorted.some((s) => def.columns[s.field].joined), orderBy: sql.join(terms, sql`, `), order, limit: pageSize, offset: (pageNumber - 1) * pageSize };
}
