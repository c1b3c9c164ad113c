import { bigint, boolean, char, date, index, integer, jsonb, pgTable, primaryKey, serial, smallint, varchar } from 'drizzle-orm/pg-core';
import type { MeterPrice } from '@pagewatch/contracts/billing';
import { ts } from '../columns.ts';
import { devices } from './devices.ts';
import { locations } from './locations.ts';
import { users } from './users.ts';

/**
 * Contracts and billing runs (issue 54, migration 0055; modules/contracts, docs/billing.md). The
 * repositories write raw SQL; these tables say what the migration made. Money is in minor units,
 * click prices in millionths of the currency's major unit.
 */
export const contracts = pgTable('contracts', {
  id: serial('id').primaryKey(),
  locationId: integer('location_id').notNull().references(() => locations.id, { onDelete: 'cascade' }),
  name: varchar('name', { length: 200 }).notNull(),
  billingDay: smallint('billing_day').notNull(),
  period: varchar('period', { length: 10 }).notNull(),
  currency: char('currency', { length: 3 }).notNull(),
  baseFeeMinor: bigint('base_fee_minor', { mode: 'number' }).notNull(),
  /** PER_DEVICE or POOLED (migration 0061): whose the prices' included pages are. */
  includedPages: varchar('included_pages', { length: 10 }).notNull().default('PER_DEVICE'),
  prices: jsonb('prices').$type<MeterPrice[]>().notNull().default([]),
  startsOn: date('starts_on', { mode: 'string' }).notNull(),
  endsOn: date('ends_on', { mode: 'string' }),
  createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: ts('created_at').notNull().defaultNow(),
}, (t) => [index('contracts_location').on(t.locationId)]);

/** A device of a contract by serial, from the day it joined to the day it left (inclusive). */
export const contractDevices = pgTable('contract_devices', {
  id: serial('id').primaryKey(),
  contractId: integer('contract_id').notNull().references(() => contracts.id, { onDelete: 'cascade' }),
  serialNumber: varchar('serial_number', { length: 100 }).notNull(),
  equipmentId: varchar('equipment_id', { length: 100 }),
  joinedOn: date('joined_on', { mode: 'string' }).notNull(),
  leftOn: date('left_on', { mode: 'string' }),
});

/** A run of a contract's period: OPEN, then CLOSED (never written again). */
export const billingRuns = pgTable('billing_runs', {
  id: serial('id').primaryKey(),
  contractId: integer('contract_id').notNull().references(() => contracts.id, { onDelete: 'cascade' }),
  periodFrom: date('period_from', { mode: 'string' }).notNull(),
  periodTo: date('period_to', { mode: 'string' }).notNull(),
  state: varchar('state', { length: 10 }).notNull(),
  currency: char('currency', { length: 3 }).notNull(),
  baseFeeMinor: bigint('base_fee_minor', { mode: 'number' }).notNull(),
  totalMinor: bigint('total_minor', { mode: 'number' }).notNull(),
  computedAt: ts('computed_at').notNull().defaultNow(),
  createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  closedBy: integer('closed_by').references(() => users.id, { onDelete: 'set null' }),
  closedAt: ts('closed_at'),
});

/** A device of a run: its window of the period, flags, review and amount. */
export const billingRunDevices = pgTable('billing_run_devices', {
  id: serial('id').primaryKey(),
  runId: integer('run_id').notNull().references(() => billingRuns.id, { onDelete: 'cascade' }),
  serialNumber: varchar('serial_number', { length: 100 }).notNull(),
  equipmentId: varchar('equipment_id', { length: 100 }),
  deviceId: integer('device_id').references(() => devices.id, { onDelete: 'set null' }),
  modelCode: varchar('model_code', { length: 200 }),
  windowFrom: date('window_from', { mode: 'string' }).notNull(),
  windowTo: date('window_to', { mode: 'string' }).notNull(),
  flags: varchar('flags', { length: 10 }).array().notNull().default([]),
  estimated: boolean('estimated').notNull().default(false),
  amountMinor: bigint('amount_minor', { mode: 'number' }).notNull(),
  reviewedBy: integer('reviewed_by').references(() => users.id, { onDelete: 'set null' }),
  reviewedAt: ts('reviewed_at'),
  reviewNote: varchar('review_note', { length: 500 }),
}, (t) => [index('billing_run_devices_run').on(t.runId, t.id)]);

/** A priced meter of a run's device: its two boundary reads (value, day, source) and its amount. */
export const billingRunMeters = pgTable('billing_run_meters', {
  runDeviceId: integer('run_device_id').notNull().references(() => billingRunDevices.id, { onDelete: 'cascade' }),
  meter: varchar('meter', { length: 20 }).notNull(),
  openingValue: bigint('opening_value', { mode: 'number' }),
  openingDate: date('opening_date', { mode: 'string' }),
  openingSource: varchar('opening_source', { length: 12 }),
  closingValue: bigint('closing_value', { mode: 'number' }),
  closingDate: date('closing_date', { mode: 'string' }),
  closingSource: varchar('closing_source', { length: 12 }),
  pages: bigint('pages', { mode: 'number' }),
  includedPages: bigint('included_pages', { mode: 'number' }).notNull(),
  billablePages: bigint('billable_pages', { mode: 'number' }).notNull(),
  priceMicros: bigint('price_micros', { mode: 'number' }).notNull(),
  amountMinor: bigint('amount_minor', { mode: 'number' }).notNull(),
}, (t) => [primaryKey({ name: 'billing_run_meters_pk', columns: [t.runDeviceId, t.meter] })]);
