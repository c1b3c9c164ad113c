import { date, index, integer, pgTable, serial, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { devices } from './devices.ts';
import { ts } from '../columns.ts';

/**
 * Pages per user per device per day (spec section 3, Device user day). Written by the print
 * queues work (queue jobs name the user); the devices card reads it.
 */
export const dmDeviceUserDays = pgTable(
  'dm_device_user_days',
  {
    id: serial('id').primaryKey(),
    factDate: date('fact_date', { mode: 'string' }).notNull(),
    deviceId: integer('device_id').notNull().references(() => devices.id, { onDelete: 'cascade' }),
    locationId: integer('location_id').notNull(),
    username: varchar('username', { length: 255 }).notNull(),
    printedPageCount: integer('printed_page_count').notNull().default(0),
    /** The colour pages of the jobs that told theirs; null while none did (unknown, not 0). */
    colorPageCount: integer('color_page_count'),
  },
  (t) => [
    uniqueIndex('dm_device_user_days_key').on(t.deviceId, t.factDate, t.username),
  ],
);

/**
 * A fresh walk asked for from the console (update-walk): the device's agent takes it on its
 * next contact and the request is cleared when the walk arrives.
 */
export const deviceWalkRequests = pgTable(
  'device_walk_requests',
  {
    deviceId: integer('device_id').primaryKey().references(() => devices.id, { onDelete: 'cascade' }),
    agentId: integer('agent_id'),
    requestedAt: ts('requested_at').notNull().defaultNow(),
    requestedBy: integer('requested_by'),
  },
  (t) => [index('device_walk_requests_agent').on(t.agentId)],
);
