import { type AnyPgColumn, bigint, customType, integer, pgSequence, pgTable, primaryKey, real, text, timestamp, varchar } from 'drizzle-orm/pg-core';
import { codedColumns, ts } from '../columns.ts';

export const locations = pgTable('locations', {
  ...codedColumns(),
  parentId: integer('parent_id').references((): AnyPgColumn => locations.id),
  createdAt: ts('created_at').notNull().defaultNow(),
  // The LOCATION dictionary's item form (modules/dictionaries); the room plan is in location_plans.
  sortOrder: integer('sort_order').notNull().default(0),
  description: text('description'),
  addressIndex: varchar('address_index', { length: 20 }),
  city: varchar('city', { length: 250 }),
  street: varchar('street', { length: 250 }),
  house: varchar('house', { length: 50 }),
  floor: varchar('floor', { length: 50 }),
  room: varchar('room', { length: 50 }),
  contactName: varchar('contact_name', { length: 250 }),
  contactPosition: varchar('contact_position', { length: 250 }),
  contactPhones: varchar('contact_phones', { length: 250 }),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  // PGlite hands back a Uint8Array, node-postgres a Buffer.
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});

/** A location's room plan image (PNG, JPEG or sanitised SVG): its type, and which upload's parts are its bytes. */
export const locationPlans = pgTable('location_plans', {
  locationId: integer('location_id').primaryKey().references(() => locations.id, { onDelete: 'cascade' }),
  contentType: varchar('content_type', { length: 50 }).notNull(),
  upload: bigint('upload', { mode: 'number' }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});

/** Numbers the uploads of room plans, so that a new upload's parts never mix with the plan's. */
export const locationPlanUploads = pgSequence('location_plan_uploads');

/**
 * A room plan's bytes (at most 10 MB) in parts of PLAN_PART_BYTES (modules/locations), one statement each: on PGlite,
 * the one connection in the server's process, one 10 MB statement held every request for
 * seconds (issue 52). An upload writes its parts before its plan names it; parts that no plan
 * names are an upload under way, or one that stopped, and go with the next upload.
 */
export const locationPlanParts = pgTable(
  'location_plan_parts',
  {
    locationId: integer('location_id').notNull().references(() => locations.id, { onDelete: 'cascade' }),
    upload: bigint('upload', { mode: 'number' }).notNull(),
    part: integer('part').notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.locationId, t.upload, t.part] })],
);

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
