import { char, index, integer, pgTable, serial, text, varchar } from 'drizzle-orm/pg-core';
import { ts } from '../columns.ts';
import { users } from './users.ts';

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

/**
 * One counter per throttled key (`signin:<login>|<address>`, `forgot-ip:<address>`, …), shared
 * by every server instance: how many attempts in a row, and when the next one is allowed. A row
 * is locked while an attempt is counted, so concurrent attempts cannot all pass (throttle.ts).
 */
export const authThrottle = pgTable(
  'auth_throttle',
  {
    key: varchar('key', { length: 400 }).primaryKey(),
    count: integer('count').notNull().default(0),
    nextAt: ts('next_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('auth_throttle_updated_at').on(t.updatedAt)],
);

/**
 * Browsers that signed in as a user before (their device cookie; only its SHA-256 is stored):
 * sign-in failures on the user's login from elsewhere do not slow them down (throttle.ts).
 */
export const knownDevices = pgTable(
  'known_devices',
  {
    tokenHash: char('token_hash', { length: 64 }).primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastUsedAt: ts('last_used_at').notNull().defaultNow(),
  },
  (t) => [index('known_devices_user').on(t.userId, t.lastUsedAt)],
);

/**
 * The one-time tickets an OpenID sign-in hands the console in its redirect (issue 55): the console
 * trades one for a session at once, so that no session token is ever in an address.
 */
export const ssoTickets = pgTable('sso_tickets', {
  ticketHash: char('ticket_hash', { length: 64 }).primaryKey(),
  userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
  expiresAt: ts('expires_at').notNull(),
});
