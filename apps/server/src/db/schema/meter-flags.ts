import { bigint, bigserial, index, integer, jsonb, pgTable, varchar } from 'drizzle-orm/pg-core';
import { ts } from '../columns.ts';
import { devices } from './devices.ts';

/** What a flag keeps besides its meter's two values (contracts' meter-flags.ts). */
export type MeterFlagDetail = {
  minutes?: number;
  limit?: number;
  monoPlusColor?: number;
  others?: { meter: string; previousValue: number | null; value: number | null }[];
};

/**
 * Implausible meter reads (issue 41, migration 0042): one row per reading and kind, written at
 * ingest against the device's previous reading. The reading itself is stored as any other.
 */
export const meterFlags = pgTable(
  'meter_flags',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    deviceId: integer('device_id').notNull().references(() => devices.id, { onDelete: 'cascade' }),
    at: ts('at').notNull(),
    kind: varchar('kind', { length: 10 }).notNull(),
    meter: varchar('meter', { length: 20 }).notNull(),
    previousValue: bigint('previous_value', { mode: 'number' }),
    value: bigint('value', { mode: 'number' }),
    detail: jsonb('detail').$type<MeterFlagDetail>().notNull().default({}),
  },
  (t) => [index('meter_flags_device_at').on(t.deviceId, t.at), index('meter_flags_at').on(t.at)],
);
