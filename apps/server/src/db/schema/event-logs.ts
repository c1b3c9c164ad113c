import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, integer, jsonb, pgTable, primaryKey, text, varchar } from 'drizzle-orm/pg-core';
import { codedColumns, ginIndex, trigramIndex, ts } from '../columns.ts';
import { locations } from './locations.ts';
import { users } from './users.ts';

export const eventGroups = pgTable('event_groups', {
  ...codedColumns(),
});

export const eventLogs = pgTable(
  'event_logs',
  {
    id: bigserial('id', { mode: 'number' }).notNull(),
    parentId: bigint('parent_id', { mode: 'number' }),
    logDatetime: ts('log_datetime').notNull().defaultNow(),
    eventGroupId: integer('event_group_id').notNull().references(() => eventGroups.id),
    // varchar, not char: the list binds filter values as text, and text = char would cast the
    // column and lose its indexes.
    logLevel: varchar('log_level', { length: 1 }).notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    locationId: integer('location_id').references(() => locations.id, { onDelete: 'set null' }),
    message: text('message').notNull(),
    // The message as a Russian reader sees it, rendered when written (the log-translation job
    // renders older records), so that a search matches the screen; null when it is `message`
    // (a plain text without a template). English is `message` itself.
    messageRu: text('message_ru'),
    messageCode: varchar('message_code', { length: 100 }),
    // The message's parameters: with messageCode they render it in the reader's language
    // (event-logs.messages.ts); `message` keeps the English text for search and old records.
    messageParams: jsonb('message_params').$type<Record<string, unknown>>(),
    stackTrace: text('stack_trace'),
    objectClass: varchar('object_class', { length: 50 }),
    objectId: bigint('object_id', { mode: 'number' }),
    durationMs: integer('duration_ms'),
    childrenCount: integer('children_count').notNull().default(0),
    // What the record is about, from its params when written (event-log-subject.ts, migration
    // 0050): the logs grid's structured filters, offered before the message search.
    device: varchar('device', { length: 250 }),
    serial: varchar('serial', { length: 100 }),
    address: varchar('address', { length: 100 }),
  },
  // The logs page sorts by date (DESC NULLS LAST, then id) and usually shows top-level records only
  // (bench/logs.bench.ts): each filter the grid offers first has a partial index in that order,
  // ending in location_id so that counting a scoped caller's rows is an index-only scan.
  // Partitioned by month on log_datetime (migration 0038): the key holds it.
  (t) => [
    primaryKey({ name: 'event_logs_pkey', columns: [t.id, t.logDatetime] }),
    index('event_logs_parent').on(t.parentId, t.logDatetime, t.id),
    index('event_logs_datetime').on(t.logDatetime),
    index('event_logs_top_date').on(t.logDatetime.desc().nullsLast(), t.id, t.locationId).where(sql`${t.parentId} IS NULL`),
    index('event_logs_top_level_date').on(t.logLevel, t.logDatetime.desc().nullsLast(), t.id, t.locationId).where(sql`${t.parentId} IS NULL`),
    index('event_logs_top_group_date').on(t.eventGroupId, t.logDatetime.desc().nullsLast(), t.id, t.locationId).where(sql`${t.parentId} IS NULL`),
    // A text filter on top-level messages (the logs page).
    trigramIndex('event_logs_top_message_trgm', t.message).where(sql`${t.parentId} IS NULL`),
    // The same for a Russian reader (`eventLogsListIn`, event-logs.list.ts). Migration 0041 also
    // keeps statistics of its expression (CREATE STATISTICS, which drizzle does not declare): the
    // planner reads none from a partial index, and would take every Russian text for a rare one.
    ginIndex('event_logs_top_message_ru_trgm', sql`COALESCE(${t.messageRu}, ${t.message}) gin_trgm_ops`).where(sql`${t.parentId} IS NULL`),
    index('event_logs_location').on(t.locationId, t.logDatetime.desc().nullsLast(), t.id),
    // Equality and prefix filters on the structured fields; only the records that name one.
    ...(['device', 'serial', 'address'] as const).map((c) => index(`event_logs_${c}`).using('btree', sql`${t[c]} text_pattern_ops`).where(sql`${t[c]} IS NOT NULL`)),
  ],
);
