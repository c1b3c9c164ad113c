import { bigint, date, index, integer, pgTable, serial, varchar } from 'drizzle-orm/pg-core';
import { devices } from './devices.ts';
import { users } from './users.ts';
import { ts } from '../columns.ts';

/**
 * Meter corrections (issue 41, migration 0039): from `fromDate` on, a meter reads `offsetPages`
 * more (a new board starting from zero) or less. The reports and exports add it to the readings
 * of that day and later; the history itself is never rewritten. A correction is never deleted,
 * only withdrawn (who, when, why), so every one stays listed on the device card.
 */
export const meterCorrections = pgTable(
  'meter_corrections',
  {
    id: serial('id').primaryKey(),
    deviceId: integer('device_id').notNull().references(() => devices.id, { onDelete: 'cascade' }),
    /** A stored meter of meter-reads.ts (CORRECTABLE_METERS). */
    meter: varchar('meter', { length: 20 }).notNull(),
    fromDate: date('from_date', { mode: 'string' }).notNull(),
    offsetPages: bigint('offset_pages', { mode: 'number' }).notNull(),
    reason: varchar('reason', { length: 500 }).notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    withdrawnBy: integer('withdrawn_by').references(() => users.id, { onDelete: 'set null' }),
    withdrawnAt: ts('withdrawn_at'),
    withdrawReason: varchar('withdraw_reason', { length: 500 }),
  },
  (t) => [index('meter_corrections_device').on(t.deviceId, t.fromDate)],
);
