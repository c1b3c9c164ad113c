import { sql } from 'drizzle-orm';
import { index, timestamp, type ExtraConfigColumn } from 'drizzle-orm/pg-core';

/** A time stamp with its time zone, read as a Date: every table's time columns. */
export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * A trigram index (pg_trgm) for a grid's text filters: `contains`, `startswith` and `endswith`
 * (ILIKE) then read the rows that hold the pattern's trigrams instead of the whole table. A
 * pattern of one or two characters has no trigram; PostgreSQL reads such a filter's rows in the
 * grid's order and stops at the page (list-run.ts plans each text filter for its own pattern).
 */
export const trigramIndex = (name: string, column: ExtraConfigColumn) => index(name).using('gin', column.op('gin_trgm_ops'));

/**
 * A trigram index on the lowered text, for a column whose text filters are written
 * `lower(column) LIKE lower(pattern)` (`ListColumn.lowered`): models and part names, which a
 * filter often matches by the thousand, so that PostgreSQL reads them in the grid's order
 * from an index that holds the lowered text too (`lowered`) and never lowers a row itself.
 */
export const loweredTrigramIndex = (name: string, column: ExtraConfigColumn) => index(name).using('gin', sql`lower(${column}) gin_trgm_ops`);

/** The lowered text of a column, as the last key of a grid's index (`loweredTrigramIndex`). */
export const lowered = (column: ExtraConfigColumn) => sql`lower(${column})`;
