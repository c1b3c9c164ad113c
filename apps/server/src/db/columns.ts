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
