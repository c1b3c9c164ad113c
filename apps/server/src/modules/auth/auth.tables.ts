import { index, integer, pgTable, timestamp, varchar } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

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
