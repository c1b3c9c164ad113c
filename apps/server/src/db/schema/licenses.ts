import { check, date, integer, pgTable, serial, smallint, text, uuid, varchar } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { ts } from '../columns.ts';
import { locations } from './locations.ts';
import { users } from './users.ts';

/**
 * The instance: one row made on first start. Its id goes into license requests; the license the
 * issuer signed is kept as uploaded (`document`, verified again whenever it is read) and its
 * terms in columns, so the licenses grid can show them for DEFAULT.
 */
export const instanceLicense = pgTable('instance_license', {
  id: smallint('id').primaryKey().default(1),
  instanceId: uuid('instance_id').notNull(),
  document: text('document'),
  companyName: varchar('company_name', { length: 250 }),
  dateFrom: date('date_from', { mode: 'string' }),
  dateTo: date('date_to', { mode: 'string' }),
  deviceCount: integer('device_count'),
  uploadedAt: ts('uploaded_at'),
  uploadedBy: integer('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
}, (t) => [check('instance_license_single_row', sql`${t.id} = 1`)]);

/** A location's license, granted by the default administrator; it goes with its location. */
export const licenses = pgTable('licenses', {
  id: serial('id').primaryKey(),
  locationId: integer('location_id').notNull().unique().references(() => locations.id, { onDelete: 'cascade' }),
  dateFrom: date('date_from', { mode: 'string' }).notNull(),
  dateTo: date('date_to', { mode: 'string' }).notNull(),
  deviceCount: integer('device_count').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
}, (t) => [check('licenses_dates', sql`${t.dateFrom} <= ${t.dateTo}`), check('licenses_count', sql`${t.deviceCount} >= 1`)]);
