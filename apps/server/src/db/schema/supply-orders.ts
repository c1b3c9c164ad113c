import { check, index, integer, pgTable, serial, smallint, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { ts } from '../columns.ts';
import { devices } from './devices.ts';
import { locations } from './locations.ts';
import { users } from './users.ts';

/**
 * Orders of supplies (issue 45, migration 0047): one row per device supply ordered, from
 * ORDERED through SHIPPED to INSTALLED (set by the supply's replacement event) or CANCELLED.
 * The part is copied at order time, so a closed order still says what was ordered.
 */
export const supplyOrders = pgTable(
  'supply_orders',
  {
    id: serial('id').primaryKey(),
    deviceId: integer('device_id').notNull().references(() => devices.id, { onDelete: 'cascade' }),
    supplyIndex: integer('supply_index').notNull(),
    partCode: varchar('part_code', { length: 50 }),
    partName: varchar('part_name', { length: 500 }),
    partModelCode: varchar('part_model_code', { length: 100 }),
    state: varchar('state', { length: 20 }).notNull(),
    reference: varchar('reference', { length: 100 }),
    orderedBy: integer('ordered_by').references(() => users.id, { onDelete: 'set null' }),
    orderedAt: ts('ordered_at').notNull().defaultNow(),
    shippedAt: ts('shipped_at'),
    installedAt: ts('installed_at'),
    cancelledAt: ts('cancelled_at'),
    /** Who shipped or cancelled it (an installation is the device's own doing). */
    closedBy: integer('closed_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    // One open order per device supply: two people ordering at once, one wins (the other's insert conflicts).
    uniqueIndex('supply_orders_one_open').on(t.deviceId, t.supplyIndex).where(sql`state IN ('ORDERED', 'SHIPPED')`),
    index('supply_orders_device').on(t.deviceId, t.orderedAt),
    check('supply_orders_state', sql`${t.state} IN ('ORDERED', 'SHIPPED', 'INSTALLED', 'CANCELLED')`),
  ],
);

/** A location's ordering settings; a location without a row orders 7 days ahead with a 7-day margin, and no supplier of its own. */
export const supplyOrderSettings = pgTable(
  'supply_order_settings',
  {
    locationId: integer('location_id').primaryKey().references(() => locations.id, { onDelete: 'cascade' }),
    leadDays: smallint('lead_days').notNull(),
    marginDays: smallint('margin_days').notNull(),
    supplierEmail: varchar('supplier_email', { length: 254 }),
  },
  (t) => [check('supply_order_settings_days', sql`${t.leadDays} BETWEEN 0 AND 365 AND ${t.marginDays} BETWEEN 0 AND 365`)],
);
