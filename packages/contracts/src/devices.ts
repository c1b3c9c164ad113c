import { z } from 'zod';
import { id, idRef, text } from './fields.ts';
import { day, defineList, timestamp, type List } from './list.ts';
import { DERIVED_COUNTERS, LEVEL_STATES, type DerivedCounter, type LevelState, type Reading } from './reading.ts';
import type { CounterField } from './models-pack.ts';
import { statusDefs } from './status-defs.ts';
import { meterFlagSchema } from './meter-flags.ts';

/**
 * Devices and consumables (spec sections 2, 3 and 7: devices, device-part-v, statistics,
 * service); their daily history is in device-history.ts. Every list is declared once here and feeds both the
 * server's SQL list and the console's grid (house style 4).
 */

// ------------------------------------------------------------------ consumable level bands

/**
 * The consumable level bar (spec section 4): above 50 high, 10 to 50 medium, below 10 low; the
 * bar is never narrower than 4 percent. Each band is defined here once, with its colour.
 */
export const LEVEL_BANDS = {
  HIGH: { labelKey: 'devices.band.HIGH', color: 'teal', min: 51 },
  MEDIUM: { labelKey: 'devices.band.MEDIUM', color: 'yellow', min: 10 },
  LOW: { labelKey: 'devices.band.LOW', color: 'red', min: 0 },
} as const;
export type LevelBand = keyof typeof LEVEL_BANDS;
export const LEVEL_BAR_MIN_WIDTH = 4;

/** What a level shows as when it is not a number: unknown, or "some remaining" (RFC 3805 -3). */
export const LEVEL_STATE_DISPLAY = statusDefs<LevelState>('devices.levelState', { UNKNOWN: 'gray', SOME_REMAINING: 'blue', UNRESTRICTED: 'teal', LOW: 'red', EMPTY: 'red' });

/** The band of a percent level (null when there is no number to band). */
export function levelBand(level: number | null | undefined): LevelBand | null {
  if (level === null || level === undefined || !Number.isFinite(level)) return null;
  if (level > 50) return 'HIGH';
  if (level >= 10) return 'MEDIUM';
  return 'LOW';
}

/** Width of the bar in percent: the level, clamped to 0..100, never under the minimum. */
export const levelBarWidth = (level: number) => Math.max(LEVEL_BAR_MIN_WIDTH, Math.min(100, Math.round(level)));

// ------------------------------------------------------------------ device flags

/** The four flags of a device (spec section 3), shown as icons with tooltips. */
export const DEVICE_FLAGS = ['newDevice30Flag', 'notAvailableFlag', 'matReplacementRequiredFlag', 'needAttentionFlag'] as const;
export type DeviceFlag = (typeof DEVICE_FLAGS)[number];

// ------------------------------------------------------------------ devices list and card

/** The device's toner levels (percent) by the colorant of the supply they come from (ingest); the grid and the card list them in this order. */
export const TONER_FIELDS = { black: 'tonerBlack', cyan: 'tonerCyan', magenta: 'tonerMagenta', yellow: 'tonerYellow' } as const;
export type TonerField = (typeof TONER_FIELDS)[keyof typeof TONER_FIELDS];
export const TONERS = Object.values(TONER_FIELDS);

export const nstr = z.string().nullable();
export const nnum = z.number().nullable();

/** A device's page counters (spec section 3), as its row, its card and its daily history carry them. */
export const pageCounters = {
  totalCount: nnum,
  monoCount: nnum,
  colorCount: nnum,
  a3Count: nnum,
  a3BwCount: nnum,
  a3ColorCount: nnum,
  a4Count: nnum,
  a4BwCount: nnum,
  a4ColorCount: nnum,
  copyCount: nnum,
  scanCount: nnum,
};

/**
 * Every page counter once (issue 40): the name a reading, the models pack and the meters give it,
 * and the device's field of it, which the daily history's column shares. Ingest copies a
 * reading's counters through this map, into the device and (all but the power-on count) its day.
 */
export const PAGE_COUNTERS = {
  total: 'totalCount', powerOn: 'powerOnCount', mono: 'monoCount', color: 'colorCount', a3: 'a3Count',
  a3Bw: 'a3BwCount', a3Color: 'a3ColorCount', a4: 'a4Count', a4Bw: 'a4BwCount', a4Color: 'a4ColorCount',
  copies: 'copyCount', scans: 'scanCount', fax: 'faxCount', duplex: 'duplexCount',
} as const satisfies Record<CounterField, `${string}Count`>;
export type CounterColumn = (typeof PAGE_COUNTERS)[CounterField];

/** The counters that may be derived (reading.ts DERIVED_COUNTERS) by the device's field of them. */
export const DERIVED_COUNTER_COLUMNS = Object.fromEntries(DERIVED_COUNTERS.map((c) => [c, PAGE_COUNTERS[c]])) as { [C in DerivedCounter]: (typeof PAGE_COUNTERS)[C] };

/** What identifies one supply of a device and says how full it is. */
export const supplyFields = {
  supplyIndex: z.number().int(),
  partCode: z.string(),
  colorant: nstr,
  partModelCode: nstr,
  level: nnum,
  levelState: z.enum(LEVEL_STATES).nullable(),
};

/** Why a supply has no forecast: too few days since it was put in, a level that does not fall with the pages, levels too scattered, no page counter. */
export const FORECAST_REASONS = ['TOO_LITTLE_HISTORY', 'NOT_USED', 'NOISY', 'NO_COUNTER'] as const;
export type ForecastReason = (typeof FORECAST_REASONS)[number];

/** When a supply runs out (the forecast job's last fit; issue 21): pages and days left, the day, or why not. */
export const forecastFields = {
  pagesLeft: nnum,
  daysLeft: nnum,
  runsOutOn: day().nullable(),
  forecastReason: z.enum(FORECAST_REASONS).nullable(),
};

// ------------------------------------------------------------------ the device row, defined once

/**
 * One field of a device row (issue 40): its schema, where its value comes from and how the
 * grid lists it. From DEVICE_FIELDS come the row schema of the list and the card, the list's
 * columns (with their filters, sorts and headers), the server's list SQL (devices.list.ts) and
 * the card, which reads its row through that list, and what ingest copies from a reading
 * (`reading`): adding a device column is an entry here, a migration that adds it and the
 * header's translations.
 */
export type DeviceFieldDef = {
  schema: z.ZodType;
  /**
   * Where the value comes from: a column of `devices` (by default the field's name in
   * snake_case: `tonerCyan` is `toner_cyan`), `derived` (an SQL expression over the device's
   * columns, written once in devices.list.ts) or `joined` (read from a joined table there).
   */
  source?: { column: string } | 'derived' | 'joined';
  /** A column the grid shows by default (the others are in its column chooser). */
  shown?: boolean;
  /** The grid sorts and filters by every field but these. */
  sortable?: false;
  filterable?: false;
  /** i18n key of the header; by default `devices.<field>`. */
  title?: string;
  /** The reading's field that ingest copies into it (kept as it was when a reading has none). */
  reading?: ReadingText;
};

/** A reading's fields of one text or code, which a device field may take as they are. */
export type ReadingText = { [K in keyof Reading]-?: Reading[K] extends string | null ? K : never }[keyof Reading];

/** The devices table's column of a field read from it (snake_case of its name unless named). */
export const deviceColumnOf = (name: string, def: DeviceFieldDef): string | null =>
  def.source === 'derived' || def.source === 'joined' ? null : def.source?.column ?? name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

const shown = <S extends z.ZodType>(schema: S) => ({ schema, shown: true as const });
const hidden = <S extends z.ZodType>(schema: S) => ({ schema });
const derived = <S extends z.ZodType>(schema: S, more: Pick<DeviceFieldDef, 'sortable' | 'filterable' | 'title'> = {}) => ({ ...more, schema, source: 'derived' as const });

/** Every field of the devices list, in the grid's default column order (shown ones first). */
export const DEVICE_FIELDS = {
  modelCode: { ...shown(nstr), reading: 'model' },
  serialNumber: { ...shown(nstr), reading: 'serialNumber' },
  inventoryNumber: shown(nstr),
  snmpLocation: { ...shown(nstr), reading: 'location' },
  hostName: { ...shown(nstr), reading: 'hostName' },
  locationId: { ...shown(z.number().int()), title: 'devices.location' },
  ip: shown(z.string()),
  deviceType: { ...shown(nstr), reading: 'deviceType' },
  colorType: { ...shown(nstr), reading: 'colorType' },
  paperFormat: { ...shown(nstr), reading: 'paperFormat' },
  totalCount: shown(pageCounters.totalCount),
  monoCount: shown(pageCounters.monoCount),
  colorCount: shown(pageCounters.colorCount),
  tonerBlack: shown(nnum),
  tonerCyan: shown(nnum),
  tonerMagenta: shown(nnum),
  tonerYellow: shown(nnum),
  newDevice30Flag: { ...shown(z.boolean()), title: 'devices.flagHeader.newDevice30Flag' },
  notAvailableFlag: { ...shown(z.boolean()), title: 'devices.flagHeader.notAvailableFlag' },
  matReplacementRequiredFlag: { ...shown(z.boolean()), title: 'devices.flagHeader.matReplacementRequiredFlag' },
  needAttentionFlag: { ...shown(z.boolean()), title: 'devices.flagHeader.needAttentionFlag' },
  managedFlag: shown(z.boolean()),
  statusCode: hidden(z.string()),
  refreshedAt: hidden(timestamp()),
  createdAt: hidden(timestamp()),
  macAddress: hidden(nstr),
  firmware: { ...hidden(nstr), reading: 'firmware' },
  a3Count: hidden(pageCounters.a3Count),
  a3BwCount: hidden(pageCounters.a3BwCount),
  a3ColorCount: hidden(pageCounters.a3ColorCount),
  a4Count: hidden(pageCounters.a4Count),
  a4BwCount: hidden(pageCounters.a4BwCount),
  a4ColorCount: hidden(pageCounters.a4ColorCount),
  /** A4-equivalent pages: A3 pages count twice (total + A3), where the device reports A3. */
  equivalentCount: derived(nnum),
  /** The counters the agent derived rather than read, as "color,a4" (reading.ts DERIVED_COUNTERS). */
  derivedCounters: { ...hidden(z.string()), sortable: false as const, filterable: false as const },
  copyCount: hidden(pageCounters.copyCount),
  scanCount: hidden(pageCounters.scanCount),
  modelVendorCode: { ...hidden(nstr), reading: 'vendor' },
  /** A walk of the device is stored (walk_refreshed_at is set). */
  hasWalk: derived(z.boolean(), { sortable: false }),
  id: hidden(z.number().int()),
  /** Needs a person now: status ERROR or a printer error of ATTENTION_ERRORS (home links here). */
  attention: derived(z.boolean()),
  /** A page counter went backwards (counterBackwardsAt is set). */
  counterBackwards: derived(z.boolean()),
  /** No profile of the models pack matched the device: its walk helps write one. */
  unknownModel: derived(z.boolean()),
  /** The name of the device's location (its header filter is the location id's lookup). */
  locationName: { schema: z.string(), source: 'joined' as const },
} satisfies Record<string, DeviceFieldDef>;
export type DeviceField = keyof typeof DEVICE_FIELDS;

type RowShape<D extends Record<string, DeviceFieldDef>> = { [K in keyof D]: D[K]['schema'] };

/**
 * The row schema and the list of a set of device fields: DEVICE_FIELDS for the product, a
 * longer set in the test that adds a column. Every field is listed; those the grid does not
 * show by default are in its column chooser.
 */
export function deviceRowDefinition<D extends Record<string, DeviceFieldDef>>(fields: D) {
  const names = Object.keys(fields) as (keyof D & string)[];
  const shape = Object.fromEntries(names.map((n) => [n, fields[n].schema])) as RowShape<D>;
  const row = z.object(shape);
  const named = (pick: (f: DeviceFieldDef) => boolean) => names.filter((n) => pick(fields[n]));
  // The compiler cannot follow a generic set of fields into the row's keys: the names are the row's.
  const list = defineList<z.ZodObject, string>(row, {
    endpoint: '/devices/page',
    defaultSort: [{ field: 'modelCode', dir: 'ASC' }],
    columns: named((f) => f.shown === true),
    hidden: named((f) => !f.shown && f.source !== 'joined'),
    unsortable: named((f) => f.sortable === false),
    unfilterable: named((f) => f.filterable === false),
    titles: Object.fromEntries(names.map((n) => [n, fields[n].title ?? `devices.${n}`])),
  }) as List<keyof D & string, z.output<typeof row>>;
  return { row, list };
}

const deviceRow = deviceRowDefinition(DEVICE_FIELDS);
export const deviceListRowSchema = deviceRow.row;
export type DeviceListRow = z.infer<typeof deviceListRowSchema>;
export const devicesList = deviceRow.list;

/** The schemas of some device fields, for rows of other lists that show a device (supplies, reports, home). */
export function deviceFieldSchemas<const K extends DeviceField>(names: readonly K[]): { [N in K]: (typeof DEVICE_FIELDS)[N]['schema'] } {
  return Object.fromEntries(names.map((n) => [n, DEVICE_FIELDS[n].schema])) as { [N in K]: (typeof DEVICE_FIELDS)[N]['schema'] };
}

/** A device as its consumables' rows name and classify it: these fields of its row. */
export const deviceFields = deviceFieldSchemas(['modelCode', 'serialNumber', 'inventoryNumber', 'hostName', 'ip', 'locationId', 'locationName', 'deviceType', 'colorType', 'paperFormat']);

/** One supply of a device as the card shows it. */
export const deviceSupplySchema = z.object({
  ...supplyFields,
  partName: z.string(),
  partSerialNumber: nstr,
  /** Where the level came from, as the agent read it: "<OID> (Printer-MIB: prtMarkerSuppliesLevel)" or a vendor's record (issue 57). */
  levelSource: nstr,
  installedAt: z.string().nullable(),
  refreshedAt: timestamp(),
  ...forecastFields,
});
export type DeviceSupply = z.infer<typeof deviceSupplySchema>;

/** A device as home and the identity notes name it: enough to recognise it and open its card. */
export const homeDeviceSchema = z.object(deviceFieldSchemas(['id', 'modelCode', 'serialNumber', 'ip', 'locationName']));
export type HomeDevice = z.infer<typeof homeDeviceSchema>;

/** Why two devices may be one (identity reconciliation). */
export const IDENTITY_KINDS = ['SAME_SERIAL', 'SAME_MAC', 'BOARD_SWAP'] as const;
export type IdentityKind = (typeof IDENTITY_KINDS)[number];

/** Two devices that may be one: `older` stopped being seen, or was seen first; `newer` is the one to keep. */
export const identityPairSchema = z.object({
  kind: z.enum(IDENTITY_KINDS),
  older: homeDeviceSchema,
  newer: homeDeviceSchema,
});
export type IdentityPair = z.infer<typeof identityPairSchema>;

/** Every field of a device (spec section 3, Device) for the card. */
export const deviceSchema = deviceListRowSchema.extend({
  port: z.number().int(),
  sysObjectId: nstr,
  sysDescr: nstr,
  printerStatus: nstr,
  scannerStatus: nstr,
  snmpStatusCode: nstr,
  errorBits: z.array(z.string()),
  /** Devices that may be this one (identity reconciliation), among the caller's. */
  identity: z.array(identityPairSchema),
  /** The addresses this device's serial answers at in turn, when it flaps between them (two printers, one serial); else empty. */
  sharedSerialAddresses: z.array(z.string()),
  walkRefreshedAt: z.string().nullable(),
  walkRequestedAt: z.string().nullable(),
  comment: nstr,
  faxCount: nnum,
  duplexCount: nnum,
  powerOnCount: nnum,
  /** How each counter was read ("how this was read" on the card): counter name (reading.ts SOURCED_COUNTERS) → source. */
  counterSources: z.record(z.string(), z.string()),
  /** The Printer-MIB's marker count and the vendor's own total, where the device gives them; the total is the vendor's. */
  markerTotalCount: nnum,
  vendorTotalCount: nnum,
  /** Black-and-white plus colour that do not add up to the billing total (a data-quality flag), or null. */
  splitMismatch: z.object({ total: z.number(), monoPlusColor: z.number() }).nullable(),
  /** Implausible reads of the device's meters (issue 41), the newest DEVICE_METER_FLAGS. */
  meterFlags: z.array(meterFlagSchema),
  totalUnit: nstr,
  agentId: z.number().int().nullable(),
  agentName: nstr,
  /** Pages of the last day with a reading (day counters). */
  dayCounters: z
    .object({ factDate: z.string(), total: nnum, mono: nnum, color: nnum, copies: nnum, scans: nnum })
    .nullable(),
  supplies: z.array(deviceSupplySchema),
});
export type Device = z.infer<typeof deviceSchema>;

/** What the card may change (spec: inventory number, location, comment, managed). */
export const deviceUpdateSchema = z.object({
  inventoryNumber: text(100).trim().max(100, 'devices.inventoryTooLong').nullable().optional(),
  location: idRef.optional(),
  comment: text(4000).max(4000, 'devices.commentTooLong').nullable().optional(),
  managedFlag: z.boolean().optional(),
});
export type DeviceUpdate = z.infer<typeof deviceUpdateSchema>;

export const MAX_ACTIVITY_IDS = 1000;
/** Enable or disable maintenance (the managed flag) for one device or many. */
export const changeActivitySchema = z.object({
  ids: z.array(id).min(1, 'devices.noneChosen').max(MAX_ACTIVITY_IDS),
  managedFlag: z.boolean(),
});
/** POST /api/devices/{id}/merge: the device whose history moves into {id}; it is then deleted. */
export const deviceMergeSchema = z.object({ fromId: id });
export type DeviceMerge = z.infer<typeof deviceMergeSchema>;
/** POST /api/devices/{id}/not-same: {id} and `otherId` are two devices; their identity pair is not offered again. */
export const deviceNotSameSchema = z.object({ otherId: id });

export const messageResponseSchema = z.object({ message: z.string(), changed: z.number().int().optional() });
export type MessageResponse = z.infer<typeof messageResponseSchema>;

// ------------------------------------------------------------------ statistics

/** Devices per location of the caller (statistics-v). */
export const statisticsRowSchema = z.object({
  locationId: z.number().int(),
  locationCode: z.string(),
  locationName: z.string(),
  allDeviceCount: z.number().int(),
  activeDeviceCount: z.number().int(),
  notAvailableCount: z.number().int(),
  attentionCount: z.number().int(),
  replacementCount: z.number().int(),
  newDeviceCount: z.number().int(),
  lowSupplyCount: z.number().int(),
  /** Pages printed over the last 30 days (from the daily history). */
  pages30: z.number(),
});
export type StatisticsRow = z.infer<typeof statisticsRowSchema>;

/** A location with everything below it (statistics/locations/{id}/devices). */
export const locationDeviceStatisticsSchema = statisticsRowSchema.extend({
  byStatus: z.record(z.string(), z.number().int()),
  byType: z.record(z.string(), z.number().int()),
});

// ------------------------------------------------------------------ service uploads

/** The serial numbers file of the service uploads: UTF-8 text, one serial a line. */
export const SERVICE_FILE_MAX_BYTES = 1024 * 1024;
export const SERVICE_FILE_EXTENSION = '.txt';
/** Serial numbers one service file may name (a statement binds each one). */
export const SERVICE_FILE_MAX_SERIALS = 10_000;
/** A line that is a serial number: printable, no spaces inside, at most 100 characters. */
export const SERIAL_LINE = /^[\p{L}\p{N}._\-/#]{1,100}$/u;

/** How many of the listed serials the upload changed, which it did not find, which lines it could not read. */
export const serviceResultSchema = z.object({
  message: z.string(),
  changed: z.number().int(),
  notFound: z.array(z.string()),
  invalidLines: z.array(z.number().int()),
});
export type ServiceResult = z.infer<typeof serviceResultSchema>;

export const updateWalkResponseSchema = z.object({ message: z.string(), requestedAt: z.string() });
