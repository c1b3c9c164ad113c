import { bigint, bigserial, boolean, index, integer, jsonb, pgTable, primaryKey, serial, smallint, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { ts } from '../columns.ts';
import { locations } from './locations.ts';
import { users } from './users.ts';
import { devices } from './devices.ts';

/**
 * A notification (spec section 3): what to watch (its type and filters), where (its locations
 * and those below them; none: every location), who hears of it and when (`schedule`, a
 * seconds-first cron string in UTC; null: at once).
 */
export const notifications = pgTable('notifications', {
  id: serial('id').primaryKey(),
  typeId: smallint('type_id').notNull(),
  name: varchar('name', { length: 250 }).notNull(),
  active: boolean('active').notNull().default(true),
  description: text('description'),
  subject: varchar('subject', { length: 500 }).notNull(),
  body: text('body').notNull(),
  schedule: varchar('schedule', { length: 100 }),
  includeSystemSubscribers: boolean('include_system_subscribers').notNull().default(false),
  statuses: jsonb('statuses').$type<string[]>().notNull().default([]),
  dim01List: jsonb('dim01_list').$type<string[]>().notNull().default([]),
  dim02List: jsonb('dim02_list').$type<string[]>().notNull().default([]),
  dim03List: jsonb('dim03_list').$type<string[]>().notNull().default([]),
  threshold: smallint('threshold'),
  reportCode: varchar('report_code', { length: 50 }),
  fileExtension: varchar('file_extension', { length: 10 }),
  attachment: varchar('attachment', { length: 2000 }),
  /** When a scheduled one fires next; a firing moves it on in the same transaction. */
  nextRunAt: ts('next_run_at'),
  lastRunAt: ts('last_run_at'),
  createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
}, (t) => [index('notifications_due').on(t.nextRunAt).where(sql`${t.active} AND ${t.nextRunAt} IS NOT NULL`)]);

export const notificationLocations = pgTable(
  'notification_locations',
  {
    notificationId: integer('notification_id').notNull().references(() => notifications.id, { onDelete: 'cascade' }),
    locationId: integer('location_id').notNull().references(() => locations.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.notificationId, t.locationId] }), index('notification_locations_location').on(t.locationId)],
);

export const notificationSubscribers = pgTable(
  'notification_subscribers',
  {
    notificationId: integer('notification_id').notNull().references(() => notifications.id, { onDelete: 'cascade' }),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.notificationId, t.userId] }), index('notification_subscribers_user').on(t.userId)],
);

/**
 * Supplies a MIN_CONSUMABLE_LEVEL notification has reported as low: a row while the level stays
 * at or below the threshold, so a low supply is reported once per crossing, not at every poll.
 */
export const notificationAlerts = pgTable(
  'notification_alerts',
  {
    notificationId: integer('notification_id').notNull().references(() => notifications.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id').notNull().references(() => devices.id, { onDelete: 'cascade' }),
    supplyIndex: integer('supply_index').notNull(),
    raisedAt: ts('raised_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.notificationId, t.deviceId, t.supplyIndex] })],
);

/** What a scheduled event notification gathers until its schedule fires: one row per event and recipient. */
export const notificationDigestItems = pgTable(
  'notification_digest_items',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    notificationId: integer('notification_id').notNull().references(() => notifications.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    email: varchar('email', { length: 256 }).notNull(),
    /** The body of this one event, variables filled. */
    html: text('html').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('notification_digest_items_notification').on(t.notificationId, t.id)],
);

/**
 * A channel besides e-mail (issue 42): where a notification's messages go too. `target` is what
 * may be shown (a webhook's URL, a Telegram chat); `secret` is sealed and write-only (a webhook's
 * HMAC key, a Slack or Teams webhook URL, a Telegram bot token). `allowInternal`: the
 * administrator lets it reach loopback and link-local addresses (refused otherwise, SSRF).
 */
export const notificationChannels = pgTable('notification_channels', {
  id: serial('id').primaryKey(),
  kind: varchar('kind', { length: 20 }).notNull(),
  name: varchar('name', { length: 100 }).notNull(),
  target: varchar('target', { length: 1000 }),
  secret: text('secret'),
  enabled: boolean('enabled').notNull().default(true),
  allowInternal: boolean('allow_internal').notNull().default(false),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** The channels a notification goes to beside its e-mail recipients. */
export const notificationChannelLinks = pgTable(
  'notification_channel_links',
  {
    notificationId: integer('notification_id').notNull().references(() => notifications.id, { onDelete: 'cascade' }),
    channelId: integer('channel_id').notNull().references(() => notificationChannels.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.notificationId, t.channelId] }), index('notification_channel_links_channel').on(t.channelId)],
);

/** An attachment as stored: text, or binary as base64 (`encoding`). */
export type OutboxAttachment = { filename: string; content: string; contentType: string; encoding?: 'base64' };

/**
 * The outbox: every e-mail is written here in the transaction that decides it, then sent by the
 * sender, which leases a batch, sends and marks it; a failed one waits with a back-off.
 */
export const notificationMessages = pgTable(
  'notification_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    notificationId: integer('notification_id').references(() => notifications.id, { onDelete: 'set null' }),
    /** The stable Message-ID: a resend after a crash is the same message to the receiving server. */
    messageId: varchar('message_id', { length: 200 }).notNull(),
    toEmail: varchar('to_email', { length: 256 }).notNull(),
    subject: varchar('subject', { length: 1000 }).notNull(),
    html: text('html').notNull(),
    attachments: jsonb('attachments').$type<OutboxAttachment[]>().notNull().default([]),
    locationId: integer('location_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    leaseUntil: ts('lease_until'),
    sentAt: ts('sent_at'),
    /** Set when it is given up after the last attempt. */
    failedAt: ts('failed_at'),
    lastError: varchar('last_error', { length: 1000 }),
    logId: bigint('log_id', { mode: 'number' }),
    /** A channel's delivery (none: an e-mail to `toEmail`), with what it says (`ChannelPayload`). */
    channelId: integer('channel_id').references(() => notificationChannels.id, { onDelete: 'cascade' }),
    payload: jsonb('payload').$type<Record<string, unknown>>(),
  },
  (t) => [
    uniqueIndex('notification_messages_message_id').on(t.messageId),
    index('notification_messages_pending').on(t.nextAttemptAt, t.id).where(sql`${t.sentAt} IS NULL AND ${t.failedAt} IS NULL`),
    index('notification_messages_channel').on(t.channelId).where(sql`${t.channelId} IS NOT NULL`),
  ],
);
