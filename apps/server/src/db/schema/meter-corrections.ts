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
    /** The counter reset (migration 0056) this correction is part of: the id of its first correction; null for one entered alone. */
    resetId: integer('reset_id'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    withdrawnBy: integer('withdrawn_by').references(() => users.id, { onDelete: 'set null' }),
    withdrawnAt: ts('withdrawn_at'),
    withdrawReason: varchar('withdraw_reason', { length: 500 }),
  },
  (t) => [index('meter_corrections_device').on(t.deviceId, t.fromDate), index('meter_corrections_reset').on(t.resetId)],
);

/** The column of the daily history (dm_device_days) and of `devices` each correctable meter (CORRECTABLE_METERS) is read from. */
export const METER_COLUMN = {
  total: 'total_count', mono: 'mono_count', color: 'color_count', a3: 'a3_count', a4: 'a4_count', a3Bw: 'a3_bw_count', a4Bw: 'a4_bw_count',
  a3Color: 'a3_color_count', a4Color: 'a4_color_count', copies: 'copy_count', scans: 'scan_count', fax: 'fax_count', duplex: 'duplex_count',
} as const;
export type CorrectedMeter = keyof typeof METER_COLUMN;
