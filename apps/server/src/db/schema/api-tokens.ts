import { boolean, char, index, integer, pgTable, serial, varchar } from 'drizzle-orm/pg-core';
import { ts } from '../columns.ts';
import { users } from './users.ts';

/**
 * Personal API tokens for integrations (issue 42): each acts as its user, never more. Only the
 * SHA-256 of a token is stored; `prefix` (its first characters) lets the owner tell them apart.
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 100 }).notNull(),
    tokenHash: char('token_hash', { length: 64 }).notNull().unique(),
    prefix: varchar('prefix', { length: 16 }).notNull(),
    readOnly: boolean('read_only').notNull().default(false),
    expiresAt: ts('expires_at').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastUsedAt: ts('last_used_at'),
    revokedAt: ts('revoked_at'),
  },
  (t) => [index('api_tokens_user').on(t.userId)],
);
