import { sql } from 'drizzle-orm';
import { index, serial, timestamp, varchar, type ExtraConfigColumn } from 'drizzle-orm/pg-core';

/** A time stamp with its time zone, read as a Date: every table's time columns. */
export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** The first columns of a table of named things found by code (roles, event groups, dictionaries, locations). */
export const codedColumns = () => ({
  id: serial('id').primaryKey(),
  code: varchar('code', { length: 50 }).notNull().unique(),
  name: varchar('name', { length: 250 }).notNull(),
});

/**
 * A GIN index on a table written all the time (supplies and devices at every poll, the event
 * log as things happen). GIN keeps new entries in a list that every search reads whole until
 * they are merged into the index, 4 MB of it by default: after 12,000 supplies were written, a
 * part name search took 7.1 ms instead of 0.8 ms, and after 20,000 log records a message search
 * 40 ms instead of 1.7 ms. With 256 kB the list is merged more often, which costs each written
 * row about 10 µs (migrations 0027 and 0028).
 */
export const ginIndex = (name: string, expr: Parameters<ReturnType<typeof index>['using']>[1]) => index(name).using('gin', expr).with({ gin_pending_list_limit: 256 });

/**
 * A trigram index (pg_trgm) for a grid's text filters: `contains`, `startswith` and `endswith`
 * (ILIKE) then read the rows that hold the pattern's trigrams instead of the whole table. A
 * pattern of one or two characters has no trigram; PostgreSQL reads such a filter's rows in the
 * grid's order and stops at the page (list-run.ts plans each text filter for its own pattern).
 */
export const trigramIndex = (name: string, column: ExtraConfigColumn) => ginIndex(name, column.op('gin_trgm_ops'));

/**
 * A trigram index on the lowered text, for a column whose text filters are written
 * `lower(column) LIKE lower(pattern)` (`ListColumn.lowered`): models and part names, which a
 * filter often matches by the thousand, so that PostgreSQL reads them in the grid's order
 * from an index that holds the lowered text too (`lowered`) and never lowers a row itself.
 */
export const loweredTrigramIndex = (name: string, column: ExtraConfigColumn) => ginIndex(name, sql`lower(${column}) gin_trgm_ops`);

/** The lowered text of a column, as the last key of a grid's index (`loweredTrigramIndex`). */
export const lowered = (column: ExtraConfigColumn) => sql`lower(${column})`;
