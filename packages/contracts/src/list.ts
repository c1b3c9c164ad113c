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

/**
 * The search policy of every grid (issue 40): `contains` (and `notcontains`) of fewer than this
 * many characters means "starts with" ("does not start with"): one or two characters are found
 * at the start of a value, three or more anywhere in it.
 */
export const CONTAINS_MIN_CHARS = 3;

/**
 * Big lists count their rows up to this many: past it `totalRows` is the cap and `totalCapped`
 * is true (the console shows "10,000+"), so a page never waits for every matching row.
 */
export const COUNT_CAP = 10_000;

/**
 * `pageNumber` is set when the request asked to `locate` a row: the page that holds it.
 * `totalCapped`: more than `totalRows` rows match (a list's count cap).
 */
export function pageResponseSchema<T extends z.ZodType>(row: T) {
  return z.object({ pageRows: z.array(row), totalRows: z.number().int(), totalCapped: z.boolean().optional(), pageNumber: z.number().int().optional() });
}
export type PageResponse<T> = { pageRows: T[]; totalRows: number; totalCapped?: boolean; pageNumber?: number };

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

/** A column of a list, complete: its type comes from the row schema. */
export type ListField<F extends string = string> = {
  field: F;
  type: ColumnType;
  sortable: boolean;
  filterable: boolean;
  hidden: boolean;
  /** A date column that holds a day (YYYY-MM-DD), not a time. */
  day: boolean;
  /** i18n key of the column's header, where the list names it (the console's default header). */
  title?: string;
};

/**
 * One list definition feeds the API and the grid (house style, rule 4): the fields a list
 * returns, which of them filter and sort, and which are hidden until chosen. Made by
 * `defineList` from the row schema, so a column is declared once: the server adds an SQL
 * expression per field (`listSql`, checked by the compiler against `F`), the console adds
 * headers and widths (`columnsFromList`, likewise).
 */
export type List<F extends string = string, R = unknown> = {
  /** API path under /api, e.g. `/users/page`. */
  endpoint: string;
  defaultSort: readonly SortSpec[];
  /** In the default column order: the shown ones, then the hidden ones. */
  columns: readonly ListField<F>[];
  /** The schema of a row: the API's response. */
  row: z.ZodObject;
  /** The row's type, for the compiler alone (the console's grid rows). */
  readonly rowType?: R;
};
/** The field names of a list. */
export type FieldOf<L> = L extends List<infer F, unknown> ? F : never;

/**
 * Column types that zod cannot tell from the schema alone: a string holding a time or a day.
 * Row schemas use `timestamp()` and `day()` for such fields (a zod registry, public API).
 */
const columnTypes = z.registry<{ type: ColumnType; day?: boolean }>();
/** An ISO 8601 time as text, a `date` column of a list. */
export const timestamp = () => z.string().register(columnTypes, { type: 'date' });
/** A calendar day as YYYY-MM-DD, a `date` column of a list. */
export const day = () => z.string().register(columnTypes, { type: 'date', day: true });

function unwrapped(schema: z.ZodType): z.ZodType {
  let s = schema;
  while (s instanceof z.ZodNullable || s instanceof z.ZodOptional) s = s.unwrap() as z.ZodType;
  return s;
}

/** The list column type of a row field's schema. */
export function columnTypeOf(schema: z.ZodType): ColumnType {
  const s = unwrapped(schema);
  const meta = columnTypes.get(s);
  if (meta) return meta.type;
  if (s instanceof z.ZodNumber) return 'number';
  if (s instanceof z.ZodBoolean) return 'boolean';
  if (s instanceof z.ZodString || s instanceof z.ZodEnum || s instanceof z.ZodLiteral) return 'string';
  throw new Error(`a list column must be a string, number, boolean or date, not ${s.type}`);
}

/** Whether a row field holds a day (YYYY-MM-DD) rather than a time. */
export const isDayField = (schema: z.ZodType) => columnTypes.get(unwrapped(schema))?.day === true;

/** A list's columns as it declares them: fields of its row (the compiler refuses any other). */
export type ListSpec<F extends string> = {
  endpoint: string;
  defaultSort: { field: NoInfer<F>; dir: 'ASC' | 'DESC' }[];
  /** Shown by default, in their default order. */
  columns: readonly F[];
  /** Not shown until the user picks them in the column chooser; after the shown ones. */
  hidden?: readonly F[];
  /** Columns are sortable and filterable unless named here. */
  unsortable?: readonly NoInfer<F>[];
  unfilterable?: readonly NoInfer<F>[];
  /** i18n keys of the columns' headers (`ListField.title`). */
  titles?: Partial<Record<NoInfer<F>, string>>;
};

/** A list from its row schema: the column types come from the schema. */
export function defineList<S extends z.ZodObject, F extends keyof z.output<S> & string>(row: S, spec: ListSpec<F>): List<F, z.output<S>> {
  const shape = row.shape as Record<string, z.ZodType>;
  const field = (name: F, hidden: boolean): ListField<F> => {
    if (!Object.hasOwn(shape, name)) throw new Error(`list ${spec.endpoint}: the row has no field "${name}"`);
    const sortable = !spec.unsortable?.includes(name);
    const filterable = !spec.unfilterable?.includes(name);
    const title = spec.titles?.[name];
    return { field: name, type: columnTypeOf(shape[name]), sortable, filterable, hidden, day: isDayField(shape[name]), ...(title ? { title } : {}) };
  };
  const columns = [...spec.columns.map((f) => field(f, false)), ...(spec.hidden ?? []).map((f) => field(f, true))];
  return { endpoint: spec.endpoint, defaultSort: spec.defaultSort, columns, row };
}

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
