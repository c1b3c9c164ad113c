import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  char,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  varchar,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const locations = pgTable('locations', {
  id: serial('id').primaryKey(),
  code: varchar('code', { length: 50 }).notNull().unique(),
  name: varchar('name', { length: 250 }).notNull(),
  parentId: integer('parent_id').references((): AnyPgColumn => locations.id),
  createdAt: ts('created_at').notNull().defaultNow(),
  // The LOCATION dictionary's item form (modules/dictionaries); the room plan is in location_plans.
  sortOrder: integer('sort_order').notNull().default(0),
  description: text('description'),
  addressIndex: varchar('address_index', { length: 20 }),
  city: varchar('city', { length: 250 }),
  street: varchar('street', { length: 250 }),
  house: varchar('house', { length: 50 }),
  floor: varchar('floor', { length: 50 }),
  room: varchar('room', { length: 50 }),
  contactName: varchar('contact_name', { length: 250 }),
  contactPosition: varchar('contact_position', { length: 250 }),
  contactPhones: varchar('contact_phones', { length: 250 }),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const roles = pgTable('roles', {
  id: serial('id').primaryKey(),
  code: varchar('code', { length: 50 }).notNull().unique(),
  name: varchar('name', { length: 250 }).notNull(),
});

export const roleGrants = pgTable(
  'role_grants',
  {
    roleId: integer('role_id').notNull().references(() => roles.id, { onDelete: 'cascade' }),
    component: varchar('component', { length: 50 }).notNull(),
    operation: varchar('operation', { length: 20 }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.component, t.operation] })],
);

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    login: varchar('login', { length: 128 }).notNull(),
    email: varchar('email', { length: 256 }).notNull(),
    passwordHash: text('password_hash').notNull(),
    activeFlag: boolean('active_flag').notNull().default(true),
    isSystem: boolean('is_system').notNull().default(false),
    systemNotificationRecipient: boolean('system_notification_recipient').notNull().default(false),
    lastName: varchar('last_name', { length: 128 }).notNull(),
    firstName: varchar('first_name', { length: 128 }),
    middleName: varchar('middle_name', { length: 128 }),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_login_lower').on(sql`lower(${t.login})`)],
);

export const userRoles = pgTable(
  'user_roles',
  {
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    roleId: integer('role_id').notNull().references(() => roles.id),
  },
  (t) => [primaryKey({ columns: [t.userId, t.roleId] })],
);

export const userLocations = pgTable(
  'user_locations',
  {
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    locationId: integer('location_id').notNull().references(() => locations.id),
  },
  (t) => [primaryKey({ columns: [t.userId, t.locationId] }), index('user_locations_location').on(t.locationId)],
);

/** Sign-in sessions; only the SHA-256 of a token is stored. */
export const sessions = pgTable('sessions', {
  id: serial('id').primaryKey(),
  tokenHash: char('token_hash', { length: 64 }).notNull().unique(),
  userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  createdAt: ts('created_at').notNull().defaultNow(),
  expiresAt: ts('expires_at').notNull(),
  revokedAt: ts('revoked_at'),
});

export const passwordRestoreTokens = pgTable('password_restore_tokens', {
  tokenHash: char('token_hash', { length: 64 }).primaryKey(),
  userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  expiresAt: ts('expires_at').notNull(),
  usedAt: ts('used_at'),
});

export const demoRequests = pgTable('demo_requests', {
  id: serial('id').primaryKey(),
  email: varchar('email', { length: 256 }).notNull(),
  fullName: varchar('full_name', { length: 256 }).notNull(),
  phone: varchar('phone', { length: 32 }).notNull(),
  company: varchar('company', { length: 256 }).notNull(),
  comment: text('comment').notNull().default(''),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const settings = pgTable('settings', {
  code: varchar('code', { length: 64 }).primaryKey(),
  name: varchar('name', { length: 250 }).notNull(),
  valueType: char('value_type', { length: 1 }).notNull(),
  stringValue: text('string_value'),
  numericValue: numeric('numeric_value', { mode: 'number' }),
  dateValue: ts('date_value'),
  flagValue: boolean('flag_value'),
  systemComponent: varchar('system_component', { length: 50 }).notNull().default('GENERAL'),
  isWriteOnly: boolean('is_write_only').notNull().default(false),
});

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
    index('event_logs_location').on(t.locationId, t.logDatetime.desc().nullsLast(), t.id),
  ],
);
