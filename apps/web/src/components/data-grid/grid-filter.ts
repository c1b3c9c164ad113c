import type { FilterCondition, FilterExpression, FilterValue, SortSpec } from '@pagewatch/contracts/list';
import type { GridColumnType, GridField } from './grid-types.ts';

type FilterColumn = Pick<GridField, 'field' | 'type' | 'ranges'>;

/** The ticked header choices of a column: its ranges' conditions joined by `or`, or an `anyof` of values. */
function headerCondition(col: FilterColumn, picked: FilterValue[]): FilterExpression | null {
  if (!col.ranges) return [col.field, 'anyof', picked];
  const conditions = col.ranges.filter((r) => picked.includes(r.value)).map((r) => r.condition);
  if (conditions.length <= 1) return conditions[0] ?? null;
  return conditions.flatMap((c, i) => (i ? ['or' as const, c] : [c]));
}

/** The start of a local calendar day `YYYY-MM-DD` and of the next one, as ISO instants. */
export function dayRange(day: string): [string, string] | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return null;
  const start = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  const end = new Date(start);
  end.setDate(end.getDate() + 1);
  return [start.toISOString(), end.toISOString()];
}

/** The filter-row cell's condition: text contains, numbers equal, dates within the day. */
export function filterRowCondition(field: string, type: GridColumnType, value: FilterValue): FilterExpression | null {
  if (value === null || value === '') return null;
  switch (type) {
    case 'string': {
      const text = String(value).trim();
      return text ? [field, 'contains', text] : null;
    }
    case 'number': {
      const n = typeof value === 'number' ? value : Number(String(value).trim().replace(',', '.'));
      return Number.isFinite(n) ? [field, '=', n] : null;
    }
    case 'date': {
      const range = dayRange(String(value));
      return range ? [[field, '>=', range[0]], 'and', [field, '<', range[1]]] : null;
    }
    case 'boolean':
      return [field, '=', value === true || value === 'true'];
    case 'lookup':
      return [field, '=', value];
  }
}

/** Joins expressions with `and`; one stays itself, none is null (no `filter-json` at all). */
export function andAll(parts: Array<FilterExpression | null | undefined>): FilterExpression | null {
  const present = parts.filter((p): p is FilterExpression => !!p && p.length > 0);
  if (present.length === 0) return null;
  if (present.length === 1) return present[0];
  const out: Array<FilterExpression | 'and'> = [];
  present.forEach((p, i) => {
    if (i > 0) out.push('and');
    out.push(p);
  });
  return out;
}

/** The one expression the grid sends: filter row, header filters and the screen's own filter. */
export function buildFilter(
  columns: readonly FilterColumn[],
  filterRow: Record<string, FilterValue>,
  headerFilters: Record<string, FilterValue[]>,
  baseFilter?: FilterExpression | null,
): FilterExpression | null {
  const parts: Array<FilterExpression | null> = [];
  for (const col of columns) {
    if (col.field in filterRow) parts.push(filterRowCondition(col.field, col.type, filterRow[col.field]));
    const picked = headerFilters[col.field];
    if (picked && picked.length) parts.push(headerCondition(col, picked));
  }
  parts.push(baseFilter ?? null);
  return andAll(parts);
}

function isCondition(expr: FilterExpression): expr is FilterCondition {
  return typeof expr[0] === 'string' && expr[0] !== '!';
}

// Local grids filter and sort as the server's lists do (apps/server/src/lib/list-query.ts), so
// a grid shows the same rows whether its data is local or remote.

const missing = (v: unknown): v is null | undefined => v === null || v === undefined;
const INSTANT = /^\d{4}-\d{2}-\d{2}T/;

/**
 * Two present values in the server's order. The second is read as the first one's type, as the
 * server coerces a filter's value to its column's type (`coerce`): a number column's '5' is 5,
 * a flag's 'true' is true, an instant compares by its time. Text is compared as text.
 */
function comparePresent(a: unknown, b: unknown): number {
  if (typeof a === 'number') {
    const n = typeof b === 'number' ? b : typeof b === 'string' && b.trim() !== '' ? Number(b) : NaN;
    if (!Number.isNaN(n)) return a - n;
  }
  if (typeof a === 'boolean' && (typeof b === 'boolean' || b === 'true' || b === 'false')) return Number(a) - Number(b === true || b === 'true');
  if (typeof a === 'string' && typeof b === 'string' && INSTANT.test(a) && INSTANT.test(b)) {
    const t = Date.parse(a) - Date.parse(b);
    if (!Number.isNaN(t)) return t;
  }
  return String(a).localeCompare(String(b));
}

/**
 * Orders values as the server's `ORDER BY … ASC NULLS FIRST` does (DESC is its reverse, nulls
 * last); an empty text is a text, not a missing value. Text is ordered as text: the digits in
 * "Printer 10" are not read as a number, as no collation of the server reads them.
 */
export function compareValues(a: unknown, b: unknown): number {
  if (missing(a) || missing(b)) return missing(a) === missing(b) ? 0 : missing(a) ? -1 : 1;
  return comparePresent(a, b);
}

/** SQL's `column = value`: exact (text keeps its case), the value as the column's type; never a missing value. */
function equals(actual: unknown, expected: unknown): boolean {
  if (missing(actual) || missing(expected)) return false;
  if (typeof actual === 'string' && typeof expected === 'string' && !(INSTANT.test(actual) && INSTANT.test(expected))) return actual === expected;
  return comparePresent(actual, expected) === 0;
}

function text(v: unknown): string {
  return missing(v) ? '' : String(v).toLowerCase();
}

/** A condition on one value, as its SQL evaluates: a comparison with NULL is never true. */
function testCondition([, op, expected]: FilterCondition, actual: unknown): boolean {
  const list = Array.isArray(expected) ? expected : [expected];
  // `= null` and `<> null` are IS NULL and IS NOT NULL; noneof and notcontains keep missing values.
  if (expected === null && (op === '=' || op === '<>')) return op === '=' ? missing(actual) : !missing(actual);
  if (missing(actual)) return op === 'noneof' || op === 'notcontains';
  switch (op) {
    case '=':
      return equals(actual, expected);
    case '<>':
      return !equals(actual, expected);
    case '<':
      return comparePresent(actual, expected) < 0;
    case '<=':
      return comparePresent(actual, expected) <= 0;
    case '>':
      return comparePresent(actual, expected) > 0;
    case '>=':
      return comparePresent(actual, expected) >= 0;
    case 'contains':
      return text(actual).includes(text(expected));
    case 'notcontains':
      return !text(actual).includes(text(expected));
    case 'startswith':
      return text(actual).startsWith(text(expected));
    case 'endswith':
      return text(actual).endsWith(text(expected));
    case 'anyof':
      return list.some((v) => equals(actual, v));
    case 'noneof':
      return !list.some((v) => equals(actual, v));
    case 'between':
      return comparePresent(actual, list[0]) >= 0 && comparePresent(actual, list[1]) <= 0;
  }
}

/**
 * Evaluates an expression against one row, for grids over local data; the same expression
 * goes to the server for remote grids, so both kinds filter alike.
 */
export function matchesFilter(expr: FilterExpression | null, get: (field: string) => unknown): boolean {
  if (!expr || expr.length === 0) return true;
  if (expr[0] === '!') return !matchesFilter(expr[1] as FilterExpression, get);
  if (isCondition(expr)) return testCondition(expr, get(expr[0]));
  // A group: `a and b or c`, with `and` binding tighter, as in SQL.
  let result = false;
  let acc: boolean | null = null;
  let pending: 'and' | 'or' = 'and';
  for (const item of expr as Array<FilterExpression | 'and' | 'or'>) {
    if (item === 'and' || item === 'or') {
      if (item === 'or') {
        result = result || acc === true;
        acc = null;
      }
      pending = item;
      continue;
    }
    const v = matchesFilter(item, get);
    acc = acc === null || pending === 'or' ? v : acc && v;
  }
  return result || acc === true;
}

/** Multi-column sort for local data, stable. */
export function sortRows<Row>(rows: readonly Row[], sort: readonly SortSpec[], get: (row: Row, field: string) => unknown): Row[] {
  if (!sort.length) return rows.slice();
  return rows
    .map((row, i) => ({ row, i }))
    .sort((a, b) => {
      for (const s of sort) {
        const c = compareValues(get(a.row, s.field), get(b.row, s.field));
        if (c !== 0) return s.dir === 'DESC' ? -c : c;
      }
      return a.i - b.i;
    })
    .map((x) => x.row);
}
