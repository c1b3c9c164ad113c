import { customType, integer, pgTable, primaryKey, real, timestamp, varchar } from 'drizzle-orm/pg-core';
import { locations } from '../../db/tables.ts';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  // PGlite hands back a Uint8Array, node-postgres a Buffer.
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});

/** A location's room plan image (PNG, JPEG or sanitised SVG), at most 10 MB. */
export const locationPlans = pgTable('location_plans', {
  locationId: integer('location_id').primaryKey().references(() => locations.id, { onDelete: 'cascade' }),
  contentType: varchar('content_type', { length: 50 }).notNull(),
  data: bytea('data').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** Devices placed on a plan; x and y are fractions of the image's width and height. */
export const locationPlanPlacements = pgTable(
  'location_plan_placements',
  {
    locationId: integer('location_id').notNull().references(() => locations.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id').notNull(),
    x: real('x').notNull(),
    y: real('y').notNull(),
  },
  (t) => [primaryKey({ columns: [t.locationId, t.deviceId] })],
);
