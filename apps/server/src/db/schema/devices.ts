import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import { locations } from './locations.ts';
import { agents } from './agents.ts';
import { networkRanges } from './network-ranges.ts';
import { lowered, loweredTrigramIndex, trigramIndex, ts } from '../columns.ts';

const counter = (name: string) => bigint(name, { mode: 'number' });

/** A vendor counter as stored on the device: the reading's key, name, OID and value. */
export type StoredVendorCounter = { key: string; name: string; oid: string; value: number };


/** The page counters a device reports and its days keep (spec section 3), besides the total. */
const pageCounters = () => ({
  monoCount: counter('mono_count'),
  colorCount: counter('color_count'),
  a3Count: counter('a3_count'),
  a3BwCount: counter('a3_bw_count'),
  a3ColorCount: counter('a3_color_count'),
  a4Count: counter('a4_count'),
  a4BwCount: counter('a4_bw_count'),
  a4ColorCount: counter('a4_color_count'),
  copyCount: counter('copy_count'),
  scanCount: counter('scan_count'),
  faxCount: counter('fax_count'),
  duplexCount: counter('duplex_count'),
});

/**
 * The current state of each device (spec section 3, Device). History lives in the dm_* tables;
 * this row is overwritten by every newer reading.
 */
export const devices = pgTable(
  'devices',
  {
    id: serial('id').primaryKey(),
    modelCode: varchar('model_code', { length: 250 }),
    modelVendorCode: varchar('model_vendor_code', { length: 100 }),
    profileId: varchar('profile_id', { length: 100 }),
    serialNumber: varchar('serial_number', { length: 100 }),
    inventoryNumber: varchar('inventory_number', { length: 100 }),
    snmpLocation: varchar('snmp_location', { length: 500 }),
    hostName: varchar('host_name', { length: 255 }),
    locationId: integer('location_id').notNull().references(() => locations.id),
    agentId: integer('agent_id').references(() => agents.id, { onDelete: 'set null' }),
    rangeId: integer('range_id').references(() => networkRanges.id, { onDelete: 'set null' }),
    ip: varchar('ip', { length: 45 }).notNull(),
    port: integer('port').notNull().default(161),
    macAddress: varchar('mac_address', { length: 17 }),
    firmware: varchar('firmware', { length: 250 }),
    sysObjectId: varchar('sys_object_id', { length: 256 }),
    sysDescr: text('sys_descr'),
    deviceType: varchar('device_type', { length: 20 }),
    colorType: varchar('color_type', { length: 20 }),
    paperFormat: varchar('paper_format', { length: 20 }),
    /** Derived status code (DEVICE_STATUS_CODES): OK, WARNING, ERROR, NOT_AVAILABLE, UNKNOWN. */
    statusCode: varchar('status_code', { length: 20 }).notNull().default('UNKNOWN'),
    /** hrDeviceStatus and hrPrinterStatus as read. */
    snmpStatusCode: varchar('snmp_status_code', { length: 20 }),
    printerStatus: varchar('printer_status', { length: 20 }),
    scannerStatus: varchar('scanner_status', { length: 20 }),
    errorStateHex: varchar('error_state_hex', { length: 16 }),
    errorBits: jsonb('error_bits').$type<string[]>().notNull().default([]),
    createdAt: ts('created_at').notNull().defaultNow(),
    refreshedAt: ts('refreshed_at').notNull().defaultNow(),
    walkRefreshedAt: ts('walk_refreshed_at'),
    managedFlag: boolean('managed_flag').notNull().default(true),
    comment: text('comment'),
    /** The counters the agent derived from others (colour as total − black…), not read: "color,a4". */
    derivedCounters: varchar('derived_counters', { length: 100 }).notNull().default(''),
    totalCount: counter('total_count'),
    totalUnit: varchar('total_unit', { length: 30 }),
    powerOnCount: counter('power_on_count'),
    ...pageCounters(),
    vendorCounters: jsonb('vendor_counters').$type<StoredVendorCounter[]>().notNull().default([]),
    /** How each counter was read (reading.ts `sources`): counter name → "<OID> (<profile>: <rule>)" or "derived: …". */
    counterSources: jsonb('counter_sources').$type<Record<string, string>>().notNull().default({}),
    /** Both totals a device may give: the Printer-MIB's marker count and the vendor's own (the billed one). */
    markerTotalCount: counter('marker_total_count'),
    vendorTotalCount: counter('vendor_total_count'),
    /** Black-and-white plus colour that do not add up to the billing total, as last read; null when they do. */
    splitMismatch: jsonb('split_mismatch').$type<{ total: number; monoPlusColor: number }>(),
    tonerBlack: smallint('toner_black'),
    tonerCyan: smallint('toner_cyan'),
    tonerMagenta: smallint('toner_magenta'),
    tonerYellow: smallint('toner_yellow'),
    newDevice30Flag: boolean('new_device30_flag').notNull().default(true),
    notAvailableFlag: boolean('not_available_flag').notNull().default(false),
    matReplacementRequiredFlag: boolean('mat_replacement_required_flag').notNull().default(false),
    needAttentionFlag: boolean('need_attention_flag').notNull().default(false),
    /** Set when a counter went backwards; cleared by the console (issue 6) or never. */
    counterBackwardsAt: ts('counter_backwards_at'),
    missedPolls: integer('missed_polls').notNull().default(0),
    lastRunId: uuid('last_run_id'),
    problems: jsonb('problems').$type<string[]>().notNull().default([]),
    trays: jsonb('trays').$type<unknown[]>().notNull().default([]),
  },
  (t) => [
    index('devices_location').on(t.locationId, t.id),
    index('devices_serial').on(sql`lower(${t.serialNumber})`),
    index('devices_mac').on(t.macAddress),
    index('devices_ip').on(t.ip),
    index('devices_agent').on(t.agentId),
    index('devices_range').on(t.rangeId),
    index('devices_model').on(t.modelCode),
    index('devices_status').on(t.statusCode),
    // No index on refreshed_at: every reading changes it, and an index there would make each
    // update of a device touch all its indexes (no HOT update). Sorting 100,000 rows by it is cheap.
    index('devices_inventory').on(t.inventoryNumber),
    // The devices grid (issue 6, bench/lists.bench.ts): its default order (model, serial) over the
    // whole scope and within one location, in the list's NULLS FIRST order so a page is an index
    // walk; the flags as small partial indexes in location and address order. None covers a
    // column every reading changes. The model's orders end with the lowered model, which a
    // filter on the model tests without lowering it (`loweredTrigramIndex`).
    index('devices_grid_model').on(t.modelCode.asc().nullsFirst(), t.serialNumber.asc().nullsFirst(), t.id, lowered(t.modelCode)),
    index('devices_grid_location_model').on(t.locationId, t.modelCode.asc().nullsFirst(), t.serialNumber.asc().nullsFirst(), t.id, lowered(t.modelCode)),
    // The type filter (printer or MFP) within a location, in the default order.
    index('devices_grid_location_type_model').on(t.locationId, t.deviceType, t.modelCode.asc().nullsFirst(), t.serialNumber.asc().nullsFirst(), t.id, lowered(t.modelCode)),
    index('devices_flag_attention').on(t.locationId.asc().nullsFirst(), t.ip.asc().nullsFirst(), t.id).where(sql`${t.needAttentionFlag}`),
    index('devices_flag_replacement').on(t.locationId.asc().nullsFirst(), t.ip.asc().nullsFirst(), t.id).where(sql`${t.matReplacementRequiredFlag}`),
    // Text filters on the grids' text columns (lib/list-text.ts): trigram indexes, which also
    // find 1 or 2 characters at the start of a word ("starts with").
    trigramIndex('devices_serial_trgm', t.serialNumber),
    trigramIndex('devices_inventory_trgm', t.inventoryNumber),
    loweredTrigramIndex('devices_model_trgm', t.modelCode),
    trigramIndex('devices_host_trgm', t.hostName),
    trigramIndex('devices_ip_trgm', t.ip),
    trigramIndex('devices_snmp_location_trgm', t.snmpLocation),
    // "IP starts with": digits and dots, matched by LIKE (list-query.ts), are a range of this
    // index; the location and key beside the address give a page's keys from the index alone.
    index('devices_ip_prefix').on(t.ip.op('varchar_pattern_ops'), t.locationId, t.id),
    index('devices_flag_not_available').on(t.locationId.asc().nullsFirst(), t.ip.asc().nullsFirst(), t.id).where(sql`${t.notAvailableFlag}`),
  ],
);

export const deviceIpHistory = pgTable(
  'device_ip_history',
  {
    id: bigserial('id', { mode: 'number' }).notNull(),
    deviceId: integer('device_id').notNull().references(() => devices.id, { onDelete: 'cascade' }),
    ip: varchar('ip', { length: 45 }).notNull(),
    oldIp: varchar('old_ip', { length: 45 }),
    changedAt: ts('changed_at').notNull(),
  },
  // Partitioned by month on changed_at (migration 0038): the key holds it.
  (t) => [primaryKey({ name: 'device_ip_history_pkey', columns: [t.id, t.changedAt] }), index('device_ip_history_device').on(t.deviceId, t.changedAt)],
);

/**
 * Counters per device per day, as of the last reading of that day. Keys start with the date so
 * the table can be partitioned by month (architecture.md).
 */
export const dmDeviceDays = pgTable(
  'dm_device_days',
  {
    factDate: date('fact_date', { mode: 'string' }).notNull(),
    deviceId: integer('device_id').notNull().references(() => devices.id, { onDelete: 'cascade' }),
    locationId: integer('location_id').notNull(),
    totalCount: counter('total_count'),
    ...pageCounters(),
    /** The first total of the day, so a day's pages are end minus start even on day one. */
    totalStart: counter('total_start'),
    readings: integer('readings').notNull().default(0),
    statusCode: varchar('status_code', { length: 20 }),
    counterBackwards: boolean('counter_backwards').notNull().default(false),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.factDate, t.deviceId] }), index('dm_device_days_device').on(t.deviceId, t.factDate)],
);

/**
 * Each device's months, rolled up from its days by the database itself (the triggers of
 * migration 0017 rebuild a month whenever one of its days, or an earlier day, is written):
 * what the reports read for periods of whole months instead of every day. A counter's `steps`
 * is the sum of its forward steps from each read day to the next, the first of the month
 * stepping from the last day read before it (null when no day of the month has the counter);
 * `open` is that earlier day's value, `first` and `last` the month's first and last known
 * values (for the total, `first` is the first day's first total); `backMask` has a bit per
 * counter that stepped back (REPORT_COUNTER_BITS).
 */
export const dmDeviceMonths = pgTable(
  'dm_device_months',
  {
    month: date('month', { mode: 'string' }).notNull(),
    deviceId: integer('device_id').notNull().references(() => devices.id, { onDelete: 'cascade' }),
    daysSeen: integer('days_seen').notNull(),
    daysUp: integer('days_up').notNull(),
    totalOpen: counter('total_open'),
    totalFirst: counter('total_first'),
    totalLast: counter('total_last'),
    monoOpen: counter('mono_open'),
    monoFirst: counter('mono_first'),
    monoLast: counter('mono_last'),
    colorOpen: counter('color_open'),
    colorFirst: counter('color_first'),
    colorLast: counter('color_last'),
    totalSteps: counter('total_steps'),
    monoSteps: counter('mono_steps'),
    colorSteps: counter('color_steps'),
    a3Steps: counter('a3_steps'),
    a4Steps: counter('a4_steps'),
    copySteps: counter('copy_steps'),
    scanSteps: counter('scan_steps'),
    backMask: smallint('back_mask').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.month, t.deviceId] }), index('dm_device_months_device').on(t.deviceId, t.month)],
);

/** Supply levels per device, supply and day (the last reading of the day, and the day's minimum). */
export const dmDevicePartDays = pgTable(
  'dm_device_part_days',
  {
    factDate: date('fact_date', { mode: 'string' }).notNull(),
    deviceId: integer('device_id').notNull().references(() => devices.id, { onDelete: 'cascade' }),
    supplyIndex: integer('supply_index').notNull(),
    partCode: varchar('part_code', { length: 50 }).notNull(),
    colorant: varchar('colorant', { length: 50 }),
    partModelCode: varchar('part_model_code', { length: 100 }),
    partSerialNumber: varchar('part_serial_number', { length: 100 }),
    /** The level as the printer reports it (prtMarkerSuppliesLevel). */
    rawLevel: integer('raw_level'),
    levelState: varchar('level_state', { length: 20 }),
    /** The level in percent at the day's last reading, and the day's lowest. */
    level: smallint('level'),
    minLevel: smallint('min_level'),
    replaced: boolean('replaced').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.factDate, t.deviceId, t.supplyIndex] }), index('dm_device_part_days_device').on(t.deviceId, t.factDate)],
);

/** Device events (DEVICE_EVENT_TYPES), kept for notifications; `processed` is set by them. */
export const deviceEvents = pgTable(
  'device_events',
  {
    id: bigserial('id', { mode: 'number' }).notNull(),
    eventAt: ts('event_at').notNull(),
    type: varchar('type', { length: 30 }).notNull(),
    deviceId: integer('device_id').notNull().references(() => devices.id, { onDelete: 'cascade' }),
    locationId: integer('location_id').notNull(),
    supplyIndex: integer('supply_index'),
    partCode: varchar('part_code', { length: 50 }),
    partModelCode: varchar('part_model_code', { length: 100 }),
    partSerialNumber: varchar('part_serial_number', { length: 100 }),
    oldValue: text('old_value'),
    newValue: text('new_value'),
    logId: bigint('log_id', { mode: 'number' }),
    processed: boolean('processed').notNull().default(false),
    processedAt: ts('processed_at'),
  },
  // Partitioned by month on event_at (migration 0038): the key holds it.
  (t) => [
    primaryKey({ name: 'device_events_pkey', columns: [t.id, t.eventAt] }),
    index('device_events_device').on(t.deviceId, t.eventAt),
    index('device_events_unprocessed').on(t.id).where(sql`NOT ${t.processed}`),
    index('device_events_type_at').on(t.type, t.eventAt),
  ],
);

/** Reading ids already stored: a batch sent twice is stored once. */
export const ingestedReadings = pgTable(
  'ingested_readings',
  {
    readingId: uuid('reading_id').primaryKey(),
    agentId: integer('agent_id'),
    receivedAt: ts('received_at').notNull().defaultNow(),
  },
  (t) => [index('ingested_readings_received').on(t.receivedAt)],
);

/** The last full walk of a device that matched no profile, for writing its profile later. */
export const deviceWalks = pgTable('device_walks', {
  deviceId: integer('device_id').primaryKey().references(() => devices.id, { onDelete: 'cascade' }),
  walkedAt: ts('walked_at').notNull(),
  sysObjectId: varchar('sys_object_id', { length: 256 }),
  sysDescr: text('sys_descr'),
  rowCount: integer('row_count').notNull(),
  rows: jsonb('rows').$type<[string, string, string][]>().notNull(),
});

/**
 * Identity pairs an administrator judged to be two devices after all (two printers of one model
 * that took turns on an address, say): home and the card no longer offer them for merging.
 */
export const deviceIdentityDismissals = pgTable(
  'device_identity_dismissals',
  {
    olderId: integer('older_id').notNull().references(() => devices.id, { onDelete: 'cascade' }),
    newerId: integer('newer_id').notNull().references(() => devices.id, { onDelete: 'cascade' }),
    dismissedBy: integer('dismissed_by'),
    dismissedAt: ts('dismissed_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.olderId, t.newerId] }), index('device_identity_dismissals_newer').on(t.newerId)],
);
