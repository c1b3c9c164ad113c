import { z } from 'zod';
import { text } from './fields.ts';

/**
 * The list protocol (architecture.md, "API conventions"):
 * `page=pageSize,pageNumber` (1-based), repeated `sort=field,ASC|DESC`,
 * `filter-json` a nested expression, response `{ pageRows, totalRows }`.
 */
export const PAGE_SIZES = [20, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 1000;

export const FILTER_OPERATORS = [
  '=',
  '<>',
  '<',
  '<=',
  '>',
  '>=',
  'contains',
  'notcontains',
  'startswith',
  'endswith',
  'anyof',
  'noneof',
  'between',
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

export type FilterValue = string | number | boolean | null;
export type FilterCondition = [field: string, op: FilterOperator, value: FilterValue | FilterValue[]];
/** `[a, "and", b, "or", c]`, `["!", a]`, or a single condition. */
export type FilterExpression = FilterCondition | ['!', FilterExpression] | Array<FilterExpression | 'and' | 'or'>;

export type ColumnType = 'string' | 'number' | 'date' | 'boolean';

/** `pageNumber` is set when the request asked to `locate` a row: the page that holds it. */
export function pageResponseSchema<T extends z.ZodType>(row: T) {
  return z.object({ pageRows: z.array(row), totalRows: z.number().int(), pageNumber: z.number().int().optional() });
}
export type PageResponse<T> = { pageRows: T[]; totalRows: number; pageNumber?: number };

export const listQuerySchema = z.object({
  page: text(100).optional(),
  sort: z.union([text(100), z.array(text(100)).max(20)]).optional(),
  'filter-json': text(100_000).optional(),
  filter: text(100_000).optional(),
  /** Id of a row to show: the server answers with the page that holds it (after a save). */
  locate: z.string().regex(/^\d{1,15}$/, 'general.badValue').optional(),
});
export type ListQuery = z.infer<typeof listQuerySchema>;

export type SortSpec = { field: string; dir: 'ASC' | 'DESC' };

/**
 * One list definition feeds the API and the grid (house style, rule 4): the fields a list
 * returns, which of them filter and sort, and which are hidden until chosen. The server adds
 * an SQL expression per field (`defineList`), the console adds headers and widths
 * (`columnsFromList`).
 */
export type ListField = {
  field: string;
  type: ColumnType;
  sortable?: boolean;
  filterable?: boolean;
  /** Not shown until the user picks it in the column chooser. */
  hidden?: boolean;
};
export type ListSpec = {
  /** API path under /api, e.g. `/users`. */
  endpoint: string;
  defaultSort: SortSpec[];
  columns: readonly ListField[];
};

/** Writes the query string the server reads; the console's grid uses it. */
export function listQueryString(q: {
  pageSize: number;
  pageNumber: number;
  sort?: SortSpec[];
  filter?: FilterExpression | null;
  locate?: string | number | null;
}): string {
  const p = new URLSearchParams();
  p.set('page', `${q.pageSize},${q.pageNumber}`);
  for (const s of q.sort ?? []) p.append('sort', `${s.field},${s.dir}`);
  if (q.filter && q.filter.length) p.set('filter-json', JSON.stringify(q.filter));
  if (q.locate != null) p.set('locate', String(q.locate));
  return p.toString();
}
