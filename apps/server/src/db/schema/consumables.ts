import { sql } from 'drizzle-orm';
import { date, index, integer, pgTable, primaryKey, real, smallint, varchar } from 'drizzle-orm/pg-core';
import { lowered, loweredTrigramIndex, trigramIndex, ts } from '../columns.ts';
import { devices } from './devices.ts';

/** The current state of each consumable (supply) of a device: one row per supply index. */
export const consumables = pgTable(
  'consumables',
  {
    deviceId: integer('device_id').notNull().references(() => devices.id, { onDelete: 'cascade' }),
    supplyIndex: integer('supply_index').notNull(),
    /** Supply type (toner, opc, wasteToner…). */
    partCode: varchar('part_code', { length: 50 }).notNull(),
    partName: varchar('part_name', { length: 500 }).notNull(),
    colorant: varchar('colorant', { length: 50 }),
    supplyClass: varchar('supply_class', { length: 20 }),
    partModelCode: varchar('part_model_code', { length: 100 }),
    partSerialNumber: varchar('part_serial_number', { length: 100 }),
    unit: varchar('unit', { length: 30 }),
    /** The level and max capacity as the printer reports them (prtMarkerSuppliesLevel; may be -1, -2, -3). */
    rawLevel: integer('raw_level'),
    maxCapacity: integer('max_capacity'),
    levelState: varchar('level_state', { length: 20 }),
    /** How full the supply is, in percent (null when the printer gives no number: see levelState). */
    level: smallint('level'),
    /** Where the level came from, as the agent read it (reading.ts `source`; migration 0059): an OID and the rule. */
    levelSource: varchar('level_source', { length: 300 }),
    /** The level before the current one, to tell a one-reading dip from a replacement. */
    previousLevel: smallint('previous_level'),
    installedAt: ts('installed_at'),
    refreshedAt: ts('refreshed_at').notNull(),
    /**
     * The device's location and model, copied here by triggers (migrations 0010 and 0014) so that the
     * consumables grid filters and sorts by them on this table's own indexes.
     */
    locationId: integer('location_id'),
    modelCode: varchar('model_code', { length: 250 }),
    /**
     * When the supply runs out, as the forecast job last fitted it (supply-forecast.ts): pages and
     * days left and the day; without a forecast, its reason (FORECAST_REASONS).
     */
    pagesLeft: integer('pages_left'),
    daysLeft: real('days_left'),
    runsOutOn: date('runs_out_on', { mode: 'string' }),
    forecastReason: varchar('forecast_reason', { length: 30 }),
    forecastAt: ts('forecast_at'),
    /**
     * The smallest step its level moved by lately (percentage points, issue 45), as the forecast
     * job saw it: 10 or more is a coarse level, and its forecast's error is wider by a step.
     */
    levelStep: smallint('level_step'),
  },
  (t) => [
    primaryKey({ columns: [t.deviceId, t.supplyIndex] }),
    index('consumables_level').on(t.level),
    // The consumables grid's default order (level, name, in the list's NULLS FIRST order),
    // for everyone and per location; and a location's supplies in device-model order. Each
    // ends with the lowered part name, which a filter on the name tests without lowering it.
    index('consumables_grid_level').on(t.level.asc().nullsFirst(), t.partName.asc().nullsFirst(), t.deviceId, t.supplyIndex, lowered(t.partName)),
    index('consumables_grid_location_level').on(t.locationId, t.level.asc().nullsFirst(), t.partName.asc().nullsFirst(), t.deviceId, t.supplyIndex, lowered(t.partName)),
    index('consumables_grid_location_model').on(t.locationId, t.modelCode.asc().nullsFirst(), t.partName.asc().nullsFirst(), t.deviceId, t.supplyIndex, lowered(t.partName)),
    // The grid's colour filter in its default order.
    index('consumables_grid_colorant_level').on(t.colorant, t.level.asc().nullsFirst(), t.partName.asc().nullsFirst(), t.deviceId, t.supplyIndex, lowered(t.partName)),
    // Text filters on the supply's own text (the device's are on devices).
    loweredTrigramIndex('consumables_part_name_trgm', t.partName),
    trigramIndex('consumables_part_model_trgm', t.partModelCode),
    // Supplies that run out soon, for everyone and per location.
    index('consumables_runs_out').on(t.runsOutOn, t.deviceId, t.supplyIndex),
    index('consumables_location_runs_out').on(t.locationId, t.runsOutOn, t.deviceId, t.supplyIndex),
    // What to order's third branch: a supply of unknown level that says it is low or empty
    // (issue 53; the (location, level) index read about 1,000 rows a location to keep none).
    index('consumables_location_low_unknown').on(t.locationId).where(sql`${t.level} IS NULL AND ${t.levelState} IN ('LOW', 'EMPTY')`),
  ],
);

/**
 * The forecasts the job made (issue 45, migration 0047): each supply's run-out day as forecast
 * on each day, kept a year, so that a replacement can be compared with what was forecast 30, 14
 * and 7 days before it (the forecast's error in days).
 */
export const supplyForecastHistory = pgTable(
  'supply_forecast_history',
  {
    deviceId: integer('device_id').notNull().references(() => devices.id, { onDelete: 'cascade' }),
    supplyIndex: integer('supply_index').notNull(),
    madeOn: date('made_on', { mode: 'string' }).notNull(),
    runsOutOn: date('runs_out_on', { mode: 'string' }).notNull(),
    partCode: varchar('part_code', { length: 50 }),
  },
  (t) => [primaryKey({ name: 'supply_forecast_history_pk', columns: [t.deviceId, t.supplyIndex, t.madeOn] }), index('supply_forecast_history_made_on').on(t.madeOn)],
);
