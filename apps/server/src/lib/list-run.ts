import { fillPlaceholders, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { ListQuery } from '@pagewatch/contracts/list';
import { runStatement, type Db } from '../db/client.ts';
import { scopeCondition, type Scoped } from '../db/scope.ts';
import { direction, parseListQuery, type ListDef, type ParsedList } from './list-query.ts';
import { jsonPage, selectedColumns } from './list-json.ts';
import { keptCount } from './list-counts.ts';

/**
 * Running a list (see list-query.ts for the protocol): the statements of a page, built once
 * per list, scope and query and run as prepared statements; the page as rows or as JSON that
 * PostgreSQL writes; totals exact up to a list's count cap and capped above it.
 */

/**
 * A scope of a few locations, read location by location: `column = id` for each id, each in
 * the list's order, then merged. With an index on (location, sort columns) every location
 * yields its first rows straight from the index, where `column IN (ids)` would sort all the
 * rows of the scope. Used for up to MAX_SPLIT locations.
 */
export type ScopeSplit = { column: SQL; ids: number[] };
const MAX_SPLIT = 64;

/**
 * A limit or offset as a literal, not a parameter: a prepared statement's generic plan then
 * knows how many rows are wanted (with a parameter the planner guesses a tenth of the table
 * and keeps planning each run afresh). Always a whole number the server computed.
 */
function int(n: number): SQL {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`not a row count: ${n}`);
  return sql.raw(String(n));
}

/**
 * The page's keys, for lists read by key, from `keysFrom`: the sort values (`__o*`) and the
 * tiebreaker's columns (`__k*`) of the page's rows, in the page's order. A scope of a few
 * locations is read location by location on indexes that lead with the location, and merged.
 */
function keysSql(def: ListDef, keysFrom: SQL, filter: SQL | null, where: SQL, p: ParsedList, offset: number, split?: ScopeSplit): SQL {
  const sortKeys = p.order.map((o, i) => sql`${o.expr} AS ${id(`__o${i}`)}`);
  const rowKeys = def.tiebreaker.map((k, i) => sql`${k} AS ${id(`__k${i}`)}`);
  const keyCols = sql.join([...sortKeys, ...rowKeys], sql`, `);
  if (!bySplit(def, split)) {
    return sql`SELECT ${keyCols} FROM ${keysFrom} ${where} ORDER BY ${p.orderBy} LIMIT ${int(p.limit)} OFFSET ${int(offset)}`;
  }
  // One ordered branch per location; PostgreSQL merges them (Merge Append) and stops at the
  // page's last row.
  const branches = split!.ids.map((loc) => sql`(
    SELECT ${keyCols} FROM ${keysFrom}
    WHERE ${split!.column} = ${loc}::int ${filter ? sql`AND ${filter}` : sql``}
    ORDER BY ${p.orderBy} LIMIT ${int(p.limit + offset)})`);
  return sql`
    SELECT * FROM (${sql.join(branches, sql` UNION ALL `)}) u
    ORDER BY ${sql.join(keyOrder(def, p), sql`, `)} LIMIT ${int(p.limit)} OFFSET ${int(offset)}`;
}

const id = (name: string) => sql.identifier(name);
/** A WHERE clause of the conditions given (none: no clause). */
function whereOf(...conds: (SQL | null)[]): SQL {
  const all = conds.filter((c): c is SQL => c !== null);
  return all.length ? sql`WHERE ${sql.join(all, sql` AND `)}` : sql``;
}
const bySplit = (def: ListDef, split?: ScopeSplit) => !!def.keyLookup && !!split && split.ids.length >= 2 && split.ids.length <= MAX_SPLIT;
/** The page's order over the columns of `keysSql`. */
const keyOrder = (def: ListDef, p: ParsedList) =>
  [...p.order.map((o, i) => sql`${id(`__o${i}`)} ${direction(o.dir)}`), ...def.tiebreaker.map((_, i) => sql`${id(`__k${i}`)} ASC`)];

/**
 * The page's rows: the columns under their field names, plus helper columns named `__*`.
 *
 * Lists whose rows are found by key read a page past the first as its keys first (with the
 * sort values; joins that only add columns are left out by PostgreSQL), then its rows by key:
 * the rows skipped by OFFSET are never made whole.
 */
function pageSql(def: ListDef, keysFrom: SQL, cols: SQL, filter: SQL | null, where: SQL, p: ParsedList, offset: number, split?: ScopeSplit): SQL {
  // A pattern's matches may be sorted before the page is known (a rare text, read through its
  // trigram index): their keys alone, never their whole rows.
  if (!bySplit(def, split) && !(def.keyLookup && (offset > 0 || p.patterns))) {
    return sql`SELECT ${cols}, true AS "__row" FROM ${def.from} ${where} ORDER BY ${p.orderBy} LIMIT ${int(p.limit)} OFFSET ${int(offset)}`;
  }
  return sql`
    SELECT r.*, true AS "__row" FROM (${keysSql(def, keysFrom, filter, where, p, offset, split)}) k ${rowOfKey(def, cols)}
    ORDER BY ${sql.join(keyOrder(def, p).map((m) => sql`k.${m}`), sql`, `)}`;
}

/** The whole row (`cols`) of each key `k` (`__k*`, as `keysSql` names them). */
const rowOfKey = (def: ListDef, cols: SQL) =>
  sql`CROSS JOIN LATERAL (SELECT ${cols} FROM ${def.from} WHERE ${sql.join(def.tiebreaker.map((k, i) => sql`${k} = k.${id(`__k${i}`)}`), sql` AND `)}) r`;

/**
 * The rows of the keys a text filter's page found (`keysSql`), in their order, as rows or as
 * JSON: one statement per list and form, the keys passed as one array per key column.
 */
function rowsByKeySql(def: ListDef, json: boolean): Built {
  const types = def.keyLookup!;
  const arrays = types.map((t, i) => sql`${sql.placeholder(`k${i}`)}::${sql.raw(t)}[]`);
  const keyNames = sql.join([...types.map((_, i) => id(`__k${i}`)), id('__n')], sql`, `);
  const rows = sql`
    SELECT r.*, true AS "__row" FROM unnest(${sql.join(arrays, sql`, `)}) WITH ORDINALITY AS k(${keyNames}) ${rowOfKey(def, selectedColumns(def))}
    ORDER BY k."__n"`;
  return buildSql(json ? jsonPage(def, rows) : rows);
}

/** A row without the helper columns (`__total`, `__row`, sort keys). */
function withoutHelpers(r: Record<string, unknown>): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const k in r) if (!k.startsWith('__')) row[k] = r[k];
  return row;
}

/** `planEach`: never a named statement, so PostgreSQL plans it for its parameters every time. */
type Built = { sql: string; params: unknown[]; planEach?: boolean };

/** A request's reads of its page, under one form of its filter. */
type Reads = {
  /** The page alone. */
  page: Built;
  /** The total (capped for big lists) with the page beside it. */
  counted: Built;
  /**
   * A text filter's page of a list read by key: `page` and `counted` give its keys, and this
   * statement their rows. Planning the whole page for each pattern cost more than reading
   * it; its keys alone come from one table, planned in a tenth of that, and the rows'
   * statement is the same for every pattern, so each connection plans it once.
   */
  byKey?: Built;
};

/** A list request's statements, built once for the same list, scope and query. */
type Statements = Reads & {
  /** What the count of a list with a count cap is kept under: its statement and parameters. */
  countKey: string | null;
  /** The page comes as one JSON text (`__rows`) with its row count (`__n`). */
  json: boolean;
  /** The filter holds a text pattern (list-query.ts): its count is kept. */
  patterns: boolean;
  offset: number;
  limit: number;
};

const dialect = new PgDialect();
const buildSql = (query: SQL): Built => dialect.sqlToQuery(query);

function statements(def: ListDef, p: ParsedList, scope: SQL | null, offset: number, split?: ScopeSplit, json = false): Statements {
  const keysFrom = def.keysFrom && !p.joined ? def.keysFrom : def.from;
  const build = (query: SQL): Built => ({ ...buildSql(query), planEach: p.patterns });
  const filter = p.where;
  const where = whereOf(scope, filter);
  // Capped: the first COUNT_CAP + 1 rows at most, so a count past the cap reads no more.
  const count = def.countLimit
    ? sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM ${keysFrom} ${where} LIMIT ${int(def.countLimit + 1)}) c`
    : sql`SELECT count(*)::int AS n FROM ${keysFrom} ${where}`;
  let countKey: string | null = null;
  if (def.countLimit) {
    const built = buildSql(count);
    countKey = `${built.sql}\u0000${JSON.stringify(built.params)}`;
  }
  const base = { countKey, json, patterns: p.patterns, offset, limit: p.limit };
  // The page (or its keys) is a LATERAL subquery with its own LIMIT, so it is planned on its
  // own; with no rows on the page the one row left carries the total alone.
  const withCount = (page: SQL) => build(sql`SELECT t.n AS "__total", p.* FROM (${count}) t LEFT JOIN LATERAL (${page}) p ON true`);
  if (p.patterns && def.keyLookup) {
    const keys = keysSql(def, keysFrom, filter, where, p, offset, split);
    return { ...base, page: build(keys), counted: withCount(keys), byKey: rowsByKey(def, json) };
  }
  const page = pageSql(def, keysFrom, selectedColumns(def), filter, where, p, offset, split);
  if (!json) return { ...base, page: build(page), counted: withCount(page) };
  const rows = jsonPage(def, page);
  return { ...base, page: build(rows), counted: build(sql`SELECT t.n AS "__total", j."__n", j."__rows" FROM (${count}) t CROSS JOIN (${rows}) j`) };
}

const byKeyStatements = new WeakMap<ListDef, { rows?: Built; json?: Built }>();
/** `rowsByKeySql`, built once per list and form. */
function rowsByKey(def: ListDef, json: boolean): Built {
  let forms = byKeyStatements.get(def);
  if (!forms) byKeyStatements.set(def, (forms = {}));
  const form = json ? 'json' : 'rows';
  return (forms[form] ??= rowsByKeySql(def, json));
}

const MAX_CACHED = 2000;
const cached = new WeakMap<ListDef, Map<string, Statements>>();

/**
 * The statements of a list request without a `locate`: built once per list, scope, query
 * string and form (rows or JSON) and then reused, as a grid asks for the same pages again and
 * again. At most MAX_CACHED per list, the oldest dropped first.
 */
function cachedStatements(def: ListDef, q: ListQuery, scope: SQL | null, scopeKey: string, split?: ScopeSplit, json = false): Statements {
  const filter = q['filter-json'] ?? q.filter ?? '';
  const key = `${json ? 'json' : 'rows'}\u0000${scopeKey}\u0000${q.page ?? ''}\u0000${[q.sort ?? []].flat().join('\u0001')}\u0000${filter}`;
  let byKey = cached.get(def);
  if (!byKey) cached.set(def, (byKey = new Map()));
  const hit = byKey.get(key);
  if (hit) return hit;
  const p = parseListQuery(def, q);
  const made = statements(def, p, scope, p.offset, split, json);
  if (byKey.size >= MAX_CACHED) byKey.delete(byKey.keys().next().value!);
  byKey.set(key, made);
  return made;
}

const MAX_NAMED = 300;
const NAMED_PAGES = 10;
const statementNames = new Map<string, string>();

/**
 * Runs a list statement, as a named (prepared) statement when `named`: each database
 * connection parses it once, and later runs send their parameters alone and mostly reuse
 * its plan. Names go to the first MAX_NAMED statement texts of the first NAMED_PAGES pages
 * (the pages people read again and again), which bounds what each connection keeps. A text
 * pattern's statement is never named (`planEach`): one plan cannot serve both "A1B" (a few rows
 * through a trigram index) and "0" (most rows, best read in the grid's order up to the page).
 */
function execute(db: Db, q: Built, named: boolean): Promise<Record<string, unknown>[]> {
  if (q.planEach) return runStatement(db, q, undefined);
  let name = named ? statementNames.get(q.sql) : undefined;
  if (named && name === undefined && statementNames.size < MAX_NAMED) statementNames.set(q.sql, (name = `pw_list_${statementNames.size + 1}`));
  return runStatement(db, q, name);
}

type RunListOptions = {
  /** The scope of a few locations as ids, to read it location by location. */
  split?: ScopeSplit;
  /**
   * Identifies `scope` (say, its location ids): requests of the same list, scope key and
   * query reuse their built statements. Without it a scoped request builds its own.
   */
  scopeKey?: string;
};

/**
 * The caller's row restriction as the list defines it, with what lets statements be reused: a
 * location column gets the caller's location ids as the key (and, for lists read by key, the
 * split location by location); a computed condition is built for each request.
 */
function scoping(def: ListDef, caller: Scoped | null): { scope: SQL | null; opts: RunListOptions } {
  if (!caller) return { scope: null, opts: {} };
  if (def.visibleTo) return { scope: def.visibleTo(caller), opts: {} };
  if (!def.scope) throw new Error('a list run for a caller needs its scope column or visibleTo');
  if (caller.allLocations) return { scope: null, opts: {} };
  const ids = [...caller.scope].sort((a, b) => a - b);
  return { scope: scopeCondition(caller, def.scope), opts: { split: { column: def.scope, ids }, scopeKey: ids.join(',') } };
}

/** The request's statements, and the page a `locate` asked for. */
async function statementsFor(
  db: Db, def: ListDef, q: ListQuery, scope: SQL | null, opts: RunListOptions, json = false, base: SQL | null = null,
): Promise<{ st: Statements; pageNumber?: number }> {
  // Unscoped and scoped requests never share statements, whatever the caller's key; nor do
  // requests with a base condition of their own.
  const scopeKey = base !== null ? undefined : scope === null ? 'all' : opts.scopeKey === undefined ? undefined : `in:${opts.scopeKey}`;
  const parse = (): ParsedList => {
    const p = parseListQuery(def, q);
    // A base condition may read any table of the FROM clause.
    const and = (w: SQL | null) => (w ? sql`${w} AND ${base}` : base);
    if (base === null) return p;
    return { ...p, joined: true, where: and(p.where) };
  };
  if (q.locate && def.tiebreaker.length === 1) {
    // The row's position under the same filter and order decides the page to answer with.
    const p = parse();
    const where = whereOf(scope, p.where);
    const found = await db.execute<{ pos: number | string }>(sql`
      SELECT pos FROM (SELECT ${def.tiebreaker[0]} AS row_id, row_number() OVER (ORDER BY ${p.orderBy}) AS pos FROM ${def.from} ${where}) t
      WHERE t.row_id = ${q.locate}::numeric`);
    const pos = found.rows[0]?.pos;
    if (pos === undefined) return { st: statements(def, p, scope, p.offset, opts.split, json) };
    const pageNumber = Math.ceil(Number(pos) / p.limit);
    return { st: statements(def, p, scope, (pageNumber - 1) * p.limit, opts.split, json), pageNumber };
  }
  if (scopeKey !== undefined) return { st: cachedStatements(def, q, scope, scopeKey, opts.split, json) };
  const p = parse();
  return { st: statements(def, p, scope, p.offset, opts.split, json) };
}

/**
 * Counts above this many rows are kept (list-counts.ts): one location's 5,018 devices counted at
 * every request cost 1.9 ms of CPU a page against 1.1 with the count kept (bench:lists).
 */
const KEEP_FROM = 1_000;

/** A page's total: exact, or the count cap with `capped` where more rows match. */
type Total = { totalRows: number; capped: boolean };

/**
 * The page's raw rows (or, for JSON, the one row with `__rows`) and the total: in one round
 * trip with the count, or the page alone for a filter whose count is kept (list-counts.ts).
 * A text filter's page of a list read by key takes a second statement, its rows by their keys.
 */
async function readPage(db: Db, def: ListDef, st: Statements): Promise<{ rows: Record<string, unknown>[] } & Total> {
  const kept = st.countKey ? keptCount(st.countKey) : null;
  const named = st.offset < NAMED_PAGES * st.limit;
  const onPage = (rows: Record<string, unknown>[]) => (st.json ? Number(rows[0]?.__n ?? 0) : rows.length);
  const total = (n: number, seen = 0): Total =>
    def.countLimit && n > def.countLimit ? { totalRows: Math.max(def.countLimit, st.offset + seen), capped: true } : { totalRows: n, capped: false };
  if (kept?.known !== undefined) {
    // The kept count stands, and the page alone is read; a page past the end proves no rows.
    const rows = await rowsOf(db, def, st.json, st, await execute(db, st.page, named));
    const seen = onPage(rows);
    return { rows, ...total(seen > 0 ? Math.max(kept.known, st.offset + seen) : kept.known, seen) };
  }
  const all = await execute(db, st.counted, named);
  const counted = Number(all[0]?.__total ?? 0);
  // Without JSON, a page with no rows (or keys) leaves one row that carries the total alone.
  const empty = st.byKey ? all[0]?.__k0 === null : !st.json && all[0]?.__row === null;
  const rows = await rowsOf(db, def, st.json, st, empty ? [] : all);
  // A count of more than KEEP_FROM rows (up to the cap: counting it again reads them all, where
  // its page reads 50), or a text filter's (each row that may hold the text is tested), is kept
  // a while.
  if (kept && (st.patterns || counted > KEEP_FROM)) kept.remember(counted);
  return { rows, ...total(counted, onPage(rows)) };
}

/** The page's rows: as read, or for a page read as keys (`byKey`), the rows of those keys. */
async function rowsOf(db: Db, def: ListDef, json: boolean, reads: Reads, read: Record<string, unknown>[]): Promise<Record<string, unknown>[]> {
  if (!reads.byKey) return read;
  if (read.length === 0) return json ? [{ __n: 0, __rows: '[]' }] : [];
  const keys = Object.fromEntries(def.tiebreaker.map((_, i) => [`k${i}`, read.map((r) => r[`__k${i}`])]));
  return execute(db, { sql: reads.byKey.sql, params: fillPlaceholders(reads.byKey.params, keys) }, true);
}

/**
 * Runs a list: the page of rows (selected columns under their field names) and the total,
 * restricted to the caller's rows as the list's scope says (no caller: every row).
 */
export async function runList<T>(
  db: Db, def: ListDef, q: ListQuery, caller: Scoped | null = null,
): Promise<{ pageRows: T[]; totalRows: number; totalCapped?: boolean; pageNumber?: number }> {
  const { scope, opts } = scoping(def, caller);
  const { st, pageNumber } = await statementsFor(db, def, q, scope, opts);
  const { rows, totalRows, capped } = await readPage(db, def, st);
  const pageRows = rows.map((r) => withoutHelpers(r) as T);
  return { pageRows, totalRows, ...(capped ? { totalCapped: true } : {}), ...(pageNumber === undefined ? {} : { pageNumber }) };
}

/**
 * Runs a list as `runList` does and answers with the JSON text of `{ pageRows, totalRows,
 * pageNumber? }`, the rows written by PostgreSQL (as the list's column types say): the server passes the
 * page on without making an object of each row and a string of it again, which on big grids
 * read all day is most of what a request costs. `base`: a condition of the request's own (a
 * report's filter), joined with `and` to the user's filters.
 */
export async function runListJson(db: Db, def: ListDef, q: ListQuery, caller: Scoped, base: SQL | null = null): Promise<string> {
  const { scope, opts } = scoping(def, caller);
  const { st, pageNumber } = await statementsFor(db, def, q, scope, opts, true, base);
  const { rows, totalRows, capped } = await readPage(db, def, st);
  const page = typeof rows[0]?.__rows === 'string' ? rows[0].__rows : '[]';
  return `{"pageRows":${page},"totalRows":${totalRows}${capped ? ',"totalCapped":true' : ''}${pageNumber === undefined ? '' : `,"pageNumber":${pageNumber}`}}`;
}
