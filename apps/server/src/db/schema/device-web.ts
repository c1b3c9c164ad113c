import { char, index, integer, jsonb, pgTable, serial, varchar } from 'drizzle-orm/pg-core';
import { devices } from './devices.ts';
import { agents } from './agents.ts';
import { users } from './users.ts';
import { sessions } from './auth.ts';
import { ts } from '../columns.ts';

/**
 * Sessions of a device's own web page through its agent (issue 55, migration 0058). The token in
 * the page's path is kept as its hash only; the session belongs to the console session that
 * opened it (it ends with it), and the printer's cookies live here, never in the browser.
 */
export const deviceWebSessions = pgTable(
  'device_web_sessions',
  {
    id: serial('id').primaryKey(),
    tokenHash: char('token_hash', { length: 64 }).notNull().unique(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    sessionId: integer('session_id').notNull().references(() => sessions.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id').notNull().references(() => devices.id, { onDelete: 'cascade' }),
    agentId: integer('agent_id').notNull().references(() => agents.id, { onDelete: 'cascade' }),
    /** The device's address when the session opened: the only host it reaches. */
    host: varchar('host', { length: 45 }).notNull(),
    port: integer('port').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    closedAt: ts('closed_at'),
    /** The printer's cookies of this session, by name. */
    cookies: jsonb('cookies').$type<Record<string, string>>().notNull().default({}),
    /**
     * On an origin of its own (PAGEWATCH_DEVICE_WEB_ORIGIN, migration 0064): the session's host
     * label, the hash of the one-time ticket its URL carries and when that ends, and the hash of
     * the cookie the ticket was swapped for (the one browser the session serves).
     */
    hostLabel: varchar('host_label', { length: 32 }),
    ticketHash: char('ticket_hash', { length: 64 }),
    ticketExpiresAt: ts('ticket_expires_at'),
    cookieHash: char('cookie_hash', { length: 64 }),
  },
  (t) => [index('device_web_sessions_device').on(t.deviceId, t.expiresAt)],
);
