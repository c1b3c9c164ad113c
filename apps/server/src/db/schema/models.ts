import { integer, jsonb, pgTable, timestamp, varchar } from 'drizzle-orm/pg-core';
import { users } from './users.ts';

/** Uploaded models packs; the one with the highest version is active. */
export const modelsPacks = pgTable('models_packs', {
  version: integer('version').primaryKey(),
  pack: jsonb('pack').notNull(),
  releasedAt: varchar('released_at', { length: 40 }),
  uploadedAt: timestamp('uploaded_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  uploadedBy: integer('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
});
