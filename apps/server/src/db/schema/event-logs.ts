import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, integer, jsonb, pgTable, serial, text, varchar } from 'drizzle-orm/pg-core';
import { trigramIndex, ts } from '../columns.ts';
import { locations } from './locations.ts';
import { users } from './users.ts';

export const eventGroups = pgTable('event_groups', {
  id: serial('id').primaryKey(),
  code: varchar('code', { length: 50 }).notNull().unique(),
  name: varchar('name', { length: 250 }).notNull(),
});

export const eventLogs = pgTable(
  'event_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    parentId: bigint('parent_id', { mode: 'number' }),
    logDatetime: ts('log_datetime').notNull().defaultNow(),
    eventGroupId: integer('event_group_id').notNull().references(() => eventGroups.id),
    // varchar, not char: the list binds filter values as text, and text = char would cast the
    // column and lose its indexes.
    logLevel: varchar('log_level', { length: 1 }).notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    locationId: integer('location_id').references(() => locations.id, { onDelete: 'set null' }),
    message: text('message').notNull(),
    messageCode: varchar('message_code', { length: 100 }),
    // The message's parameters: with messageCode they render it in the reader's language
    // (event-logs.messages.ts); `message` keeps the English text for search and old records.
    messageParams: jsonb('message_params').$type<Record<string, unknown>>(),
    stackTrace: text('stack_trace'),
    objectClass: varchar('object_class', { length: 50 }),
    objectId: bigint('object_id', { mode: 'number' }),
    durationMs: integer('duration_ms'),
    childrenCount: integer('children_count').notNull().default(0),
  },
  // The logs page sorts by date (DESC NULLS LAST, then id) and usually shows top-level records only
  // (bench/logs.bench.ts): each filter the grid offers first has a partial index in that order,
  // ending in location_id so that counting a scoped caller's rows is an index-only scan.
  (t) => [
    index('event_logs_parent').on(t.parentId, t.logDatetime, t.id),
    index('event_logs_datetime').on(t.logDatetime),
    index('event_logs_top_date').on(t.logDatetime.desc().nullsLast(), t.id, t.locationId).where(sql`${t.parentId} IS NULL`),
    index('event_logs_top_level_date').on(t.logLevel, t.logDatetime.desc().nullsLast(), t.id, t.locationId).where(sql`${t.parentId} IS NULL`),
    index('event_logs_top_group_date').on(t.eventGroupId, t.logDatetime.desc().nullsLast(), t.id, t.locationId).where(sql`${t.parentId} IS NULL`),
    // A text filter on top-level messages (the logs page).
    trigramIndex('event_logs_top_message_trgm', t.message).where(sql`${t.parentId} IS NULL`),
    index('event_logs_location').on(t.locationId, t.logDatetime.desc().nullsLast(), t.id),
  ],
);
