import { sql, type SQL } from 'drizzle-orm';
import { direction, type ListDef } from './list-query.ts';

/**
 * A list's rows as JSON that PostgreSQL writes (list-run.ts): the selected columns, their JSON
 * types, a page as one text, and a report's every row from the same columns as its grid.
 */

/** The selected columns under their field names. */
const selected = (def: ListDef) => Object.entries(def.columns).filter(([, c]) => c.select !== false).map(([name]) => name);
/** The selected columns' expressions under their field names, for a SELECT list. */
export const selectedColumns = (def: ListDef) => sql.join(selected(def).map((name) => sql`${def.columns[name].expr} AS ${sql.identifier(name)}`), sql`, `);

/**
 * The page's rows (`p`) as the columns of their JSON objects, for `row_to_json`: text,
 * numbers and booleans as they are, timestamps as ISO 8601 in UTC with milliseconds, days as
 * YYYY-MM-DD, and the list's objects beside the fields.
 */
function jsonColumns(def: ListDef, fields = selected(def)): SQL {
  const value = (field: string): SQL => {
    const c = sql`p.${sql.identifier(field)}`;
    const type = def.columns[field].type;
    if (type === 'string') return sql`${c}::text`;
    if (type !== 'date') return c;
    return def.columns[field].day
      ? sql`to_char(${c}, 'YYYY-MM-DD')`
      : sql`to_char(${c} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  };
  const values = fields.map((f) => sql`${value(f)} AS ${sql.identifier(f)}`);
  const objects = Object.entries(def.objects ?? {}).map(([name, keys]) => {
    const pairs = Object.entries(keys).map(([k, f]) => {
      if (!/^[A-Za-z0-9_]+$/.test(k)) throw new Error(`not a field name: ${k}`);
      return sql`${sql.raw(`'${k}'`)}, ${value(f)}`;
    });
    return sql`json_build_object(${sql.join(pairs, sql`, `)}) AS ${sql.identifier(name)}`;
  });
  return sql.join([...values, ...objects], sql`, `);
}

/**
 * Every row of a list under `base`, in the list's default order, with `fields` in the JSON
 * types of its pages: a report's whole array and its files come from the same columns as its
 * grid, written once. The caller's locations must already bound `base`.
 */
export function everyRowSql(def: ListDef, base: SQL, fields: readonly string[]): SQL {
  const cols = sql.join(fields.map((f) => sql`${def.columns[f].expr} AS ${sql.identifier(f)}`), sql`, `);
  const order = sql.join([...def.defaultSort.map((s) => sql`${def.columns[s.field].expr} ${direction(s.dir)}`), ...def.tiebreaker], sql`, `);
  // A projection of a sorted subquery keeps its order, as the pages' JSON does.
  return sql`SELECT ${jsonColumns(def, [...fields])} FROM (SELECT ${cols} FROM ${def.from} WHERE ${base} ORDER BY ${order}) p`;
}

/** The page's rows in the page's order (an aggregate over a sorted subquery keeps its order). */
export const jsonPage = (def: ListDef, page: SQL) =>
  sql`SELECT count(*)::int AS "__n", coalesce(json_agg(x), '[]')::text AS "__rows" FROM (SELECT ${jsonColumns(def)} FROM (${page}) p) x`;
