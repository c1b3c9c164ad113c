import { getTableColumns, getTableName, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './client.ts';

/**
 * Bulk writes as one statement each: the rows travel as a single JSON parameter read by
 * `jsonb_to_recordset`, so a batch of 500 devices is one small query for the ORM to build and
 * one for the database to parse (ingest target: 2,000 readings per second on PostgreSQL).
 */
type Columns = { key: string; name: string; type: string }[];
const columnsCache = new Map<PgTable, Columns>();

function columnsOf(table: PgTable): Columns {
  let cols = columnsCache.get(table);
  if (!cols) {
    cols = (Object.entries(getTableColumns(table)) as [string, PgColumn][])
      .map(([key, c]) => ({ key, name: c.name, type: c.getSQLType().replace(/^(big)?serial$/, (_m, big) => (big ? 'bigint' : 'integer')) }));
    columnsCache.set(table, cols);
  }
  return cols;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The rows as a JSON parameter keyed by column name (dates as ISO text). */
function rowsJson(cols: Columns, rows: object[]): string {
  return JSON.stringify(
    rows.map((r) => {
      const o: Record<string, unknown> = {};
      for (const c of cols) {
        const v = (r as Record<string, unknown>)[c.key];
        if (v !== undefined) o[c.name] = v instanceof Date ? v.toISOString() : v;
      }
      return o;
    }),
  );
}

/**
 * INSERT … SELECT FROM jsonb_to_recordset … [ON CONFLICT (keys) DO UPDATE SET …] [RETURNING …].
 * `omit` leaves columns to their defaults (an id from its sequence).
 */
export async function bulk(
  tx: Db,
  table: PgTable,
  rows: object[],
  opts: { omit?: string[]; conflict?: string[]; set?: Record<string, string>; updateAllBut?: string[]; returning?: string } = {},
) {
  if (!rows.length) return [];
  const cols = columnsOf(table).filter((c) => !opts.omit?.includes(c.key));
  const names = cols.map((c) => quote(c.name)).join(', ');
  const defs = cols.map((c) => `${quote(c.name)} ${c.type}`).join(', ');
  let tail = '';
  if (opts.conflict) {
    const target = opts.conflict.map((k) => quote(cols.find((c) => c.key === k)!.name)).join(', ');
    const set = { ...(opts.set ?? {}) };
    if (opts.updateAllBut) {
      for (const c of cols) if (!opts.updateAllBut.includes(c.key) && !opts.conflict.includes(c.key) && !set[c.key]) set[c.key] = `excluded.${quote(c.name)}`;
    }
    const assignments = Object.entries(set).map(([k, v]) => `${quote(cols.find((c) => c.key === k)?.name ?? k)} = ${v}`);
    tail = assignments.length ? ` ON CONFLICT (${target}) DO UPDATE SET ${assignments.join(', ')}` : ` ON CONFLICT (${target}) DO NOTHING`;
  }
  if (opts.returning) tail += ` RETURNING ${opts.returning}`;
  const res = await tx.execute(
    sql`INSERT INTO ${sql.raw(quote(getTableName(table)))} (${sql.raw(names)}) SELECT ${sql.raw(names)} FROM jsonb_to_recordset(${rowsJson(cols, rows)}::jsonb) AS x(${sql.raw(defs)})${sql.raw(tail)}`,
  );
  return res.rows;
}
