import { z } from 'zod';
import { text } from './fields.ts';

/**
 * One normalised reading of one device, as the agent reads it over SNMP and sends it to the
 * server. Every value the device did not give is null (never a made-up number); anything that
 * could not be read or decoded is a line in `problems`.
 */

/** RFC 3805 special levels (-1 unrestricted, -2 unknown, -3 some remaining) and vendor states. */
export const LEVEL_STATES = ['UNRESTRICTED', 'UNKNOWN', 'SOME_REMAINING', 'LOW', 'EMPTY'] as const;
export const levelStateSchema = z.enum(LEVEL_STATES);
export type LevelState = z.infer<typeof levelStateSchema>;

export const DEVICE_TYPES = ['PRINTER', 'MFP'] as const;
export const COLOR_TYPES = ['MONO', 'COLOR'] as const;
export const PAPER_FORMATS = ['A4', 'A3'] as const;

/** IANA-PRINTER-MIB PrtMarkerSuppliesTypeTC names, value 1 first: a supply's `type` is one of them (or what a vendor table says). */
export const SUPPLY_TYPES = [
  'other', 'unknown', 'toner', 'wasteToner', 'ink', 'inkCartridge', 'inkRibbon', 'wasteInk', 'opc', 'developer', 'fuserOil',
  'solidWax', 'ribbonWax', 'wasteWax', 'fuser', 'coronaWire', 'fuserOilWick', 'cleanerUnit', 'fuserCleaningPad',
  'transferUnit', 'tonerCartridge', 'fuserOiler', 'water', 'wasteWater', 'glueWaterAdditive', 'wastePaper',
  'bindingSupply', 'bandingSupply', 'stitchingWire', 'shrinkWrap', 'paperWrap', 'staples', 'inserts', 'covers',
  'matteToner', 'matteInk',
] as const;

/** hrDeviceStatus (RFC 2790). */
export const HR_DEVICE_STATUSES = ['unknown', 'running', 'warning', 'testing', 'down'] as const;
/** hrPrinterStatus (RFC 2790). */
export const HR_PRINTER_STATUSES = ['other', 'unknown', 'idle', 'printing', 'warmup'] as const;
/** hrPrinterDetectedErrorState bits, bit 0 first (RFC 2790 and RFC 3805). */
export const PRINTER_ERROR_BITS = [
  'lowPaper', 'noPaper', 'lowToner', 'noToner', 'doorOpen', 'jammed', 'offline',
  'serviceRequested', 'inputTrayMissing', 'outputTrayMissing', 'markerSupplyMissing',
  'outputNearFull', 'outputFull', 'inputTrayEmpty', 'overduePreventMaint',
] as const;

/**
 * Every value's limit (security.md, invariant 8). Text lengths are the server's columns
 * (apps/server/src/modules/devices/devices.schema.ts); numbers fit their columns (int4, bigint).
 * The agent cuts or drops what exceeds a limit with these same numbers (apps/agent/src/run/
 * fit-reading.ts) and says so in `trimmed`; the server refuses a reading past one (400).
 */
export const INT32_MIN = -(2 ** 31);
export const INT32_MAX = 2 ** 31 - 1;
/** Counters above this are not page counts (a corrupt value). */
export const MAX_COUNTER = 1e12;
/** Vendor counters may count other things (toner dots, seconds): a wider bound. */
export const MAX_VENDOR_COUNTER = 1e15;
/** A supply level below or above these is no level (RFC 3805 uses -1, -2 and -3). */
export const SUPPLY_LEVEL_MIN = -1000;
export const SUPPLY_LEVEL_MAX = 1e9;

/** Longest text per field; a field without a column of its own (jsonb, text) has a bound too. */
export const READING_TEXT_MAX = {
  readAt: 40,
  profileId: 100,
  sysObjectID: 256,
  /** A text column: bounded by the agent's own text limit with room to spare. */
  sysDescr: 2000,
  vendor: 100,
  model: 250,
  serialNumber: 100,
  macAddress: 17,
  firmware: 250,
  hostName: 255,
  location: 500,
} as const;
export const SUPPLY_TEXT_MAX = { type: 50, description: 500, colorant: 50, partNumber: 100, partSerialNumber: 100, unit: 30, source: 300 } as const;
export const TRAY_TEXT_MAX = { name: 250, mediaName: 250 } as const;
export const COUNTER_TEXT_MAX = { key: 100, name: 250, oid: 256, totalUnit: 30, source: 300 } as const;
export const STATUS_TEXT_MAX = { error: 50, errorStateHex: 16 } as const;
export const PROBLEM_TEXT_MAX = 500;
/** Most entries per list. */
export const READING_LIST_MAX = { supplies: 100, trays: 50, vendorCounters: 500, errors: 32, problems: 100, trimmed: 200 } as const;

/** Text read from a printer: one line of at most `max` characters. */
const boundedText = (max: number) => text(max, { line: true });
const int32 = () => z.int32();

const count = z.number().int().min(0).max(MAX_COUNTER).nullable();
const percent = z.number().int().min(0).max(100).nullable();

export const readingSupplySchema = z.object({
  /** prtMarkerSuppliesIndex (or the vendor table's index). */
  index: int32(),
  /** IANA-PRINTER-MIB PrtMarkerSuppliesTypeTC name, e.g. toner, opc, wasteToner. */
  type: boundedText(SUPPLY_TEXT_MAX.type),
  /** True when the device gave no type and it was guessed from the description. */
  typeInferred: z.boolean(),
  /** 'consumed' (toner) or 'filled' (waste container), from prtMarkerSuppliesClass. */
  supplyClass: z.enum(['consumed', 'filled']).nullable(),
  description: boundedText(SUPPLY_TEXT_MAX.description),
  /** Colorant of the supply (prtMarkerColorantValue), e.g. black, cyan. */
  colorant: boundedText(SUPPLY_TEXT_MAX.colorant).nullable(),
  /** Part number found in the description (e.g. Xerox "PN 006R01509", HP "HP CF410A"). */
  partNumber: boundedText(SUPPLY_TEXT_MAX.partNumber).nullable(),
  /** Serial of the supply found in the description (Xerox "SN…"). */
  partSerialNumber: boundedText(SUPPLY_TEXT_MAX.partSerialNumber).nullable(),
  /** prtMarkerSuppliesSupplyUnit name, e.g. percent, impressions, tenthsOfGrams. */
  unit: boundedText(SUPPLY_TEXT_MAX.unit).nullable(),
  /**
   * Raw level and max capacity as the device gave them (may be -1, -2, -3). The agent protocol's
   * names (v1) are kept on the wire; the server stores this as `raw_level`, and `percent` as the
   * supply's `level`, the one name it has from the database to the screen.
   */
  level: z.int().min(SUPPLY_LEVEL_MIN).max(SUPPLY_LEVEL_MAX).nullable(),
  maxCapacity: int32().nullable(),
  levelState: levelStateSchema.nullable(),
  /** How full the supply is (0..100), where the level says it. */
  percent,
  /**
   * Where the level came from: "<OID> (Printer-MIB: prtMarkerSuppliesLevel)", or a vendor
   * source such as "<OID> (brother: brInfoMaintenance, record 81 Black toner)" (issue 57; an
   * older agent sends none).
   */
  source: boundedText(SUPPLY_TEXT_MAX.source).nullable().optional(),
});
export type ReadingSupply = z.infer<typeof readingSupplySchema>;

export const readingTraySchema = z.object({
  index: int32(),
  name: boundedText(TRAY_TEXT_MAX.name),
  mediaName: boundedText(TRAY_TEXT_MAX.mediaName).nullable(),
  level: int32().nullable(),
  maxCapacity: int32().nullable(),
  levelState: levelStateSchema.nullable(),
  percent,
});
export type ReadingTray = z.infer<typeof readingTraySchema>;

export const readingCounterSchema = z.object({
  /** Stable key: a normalised field name (mono, copies…) or a slug of the vendor's name. */
  key: boundedText(COUNTER_TEXT_MAX.key),
  name: boundedText(COUNTER_TEXT_MAX.name),
  oid: boundedText(COUNTER_TEXT_MAX.oid),
  value: z.number().min(0).max(MAX_VENDOR_COUNTER),
});
export type ReadingCounter = z.infer<typeof readingCounterSchema>;

/** The counters an agent may derive from others where the device does not report them. */
export const DERIVED_COUNTERS = ['mono', 'color', 'a3Bw', 'a4', 'a4Bw', 'a4Color'] as const;
export type DerivedCounter = (typeof DERIVED_COUNTERS)[number];

/** The normalised counters, each of which says where its value came from (`sources`). */
export const SOURCED_COUNTERS = [
  'total', 'powerOn', 'mono', 'color', 'a3', 'a3Bw', 'a3Color', 'a4', 'a4Bw', 'a4Color', 'copies', 'scans', 'fax', 'duplex',
] as const;
export type SourcedCounter = (typeof SOURCED_COUNTERS)[number];

/**
 * How the agent works out a counter the device does not give, as written in `sources`: the
 * console shows these by their key, in the user's language (other sources are OIDs and rules).
 */
export const COUNTER_RULES = {
  monoDevice: 'derived: mono device (black-and-white = total)',
  monoDeviceA3: 'derived: mono device (A3 black-and-white = A3)',
  monoDeviceA4: 'derived: mono device (A4 black-and-white = A4)',
  totalLessMono: 'derived: total − black-and-white',
  totalLessColor: 'derived: total − colour',
  monoLessA3: 'derived: black-and-white − A3 black-and-white',
  colorLessA3: 'derived: colour − A3 colour',
  totalLessA3: 'derived: total − A3',
  a4FromDerivedParts: 'derived: A4 black-and-white + A4 colour',
  a4FromParts: 'sum: A4 black-and-white + A4 colour',
  a3FromParts: 'sum: A3 black-and-white + A3 colour',
} as const;
export type CounterRule = keyof typeof COUNTER_RULES;

/** Black-and-white plus colour that do not add up to the billing total: both figures, for a person to judge. */
export const splitMismatchSchema = z.object({
  total: z.number().int().min(0).max(MAX_COUNTER),
  monoPlusColor: z.number().int().min(0).max(2 * MAX_COUNTER),
});
export type SplitMismatch = z.infer<typeof splitMismatchSchema>;

export const readingCountersSchema = z.object({
  /** The billing total: the vendor's own total where the device has one, else prtMarkerLifeCount of the first marker. */
  total: count,
  /** Both totals a device may give: the Printer-MIB's marker life count and the vendor's own (an older agent sends neither). */
  markerTotal: count.default(null),
  vendorTotal: count.default(null),
  totalUnit: boundedText(COUNTER_TEXT_MAX.totalUnit).nullable(),
  powerOn: count,
  mono: count,
  color: count,
  a3: count,
  /** A3 pages in black-and-white and in colour (an agent before these sends none: unknown). */
  a3Bw: count.default(null),
  a3Color: count.default(null),
  a4: count,
  a4Bw: count.default(null),
  a4Color: count.default(null),
  copies: count,
  scans: count,
  fax: count,
  duplex: count,
  /** The counters the agent worked out rather than read: colour as total − black, A4 as total − A3. */
  derived: z.array(z.enum(DERIVED_COUNTERS)).max(DERIVED_COUNTERS.length).default([]),
  /** Every vendor counter read, named as the device or the profile names it. */
  vendor: z.array(readingCounterSchema).max(READING_LIST_MAX.vendorCounters),
  /**
   * How each known counter was read: "<OID> (<profile>: <rule>)", several joined by " + " where
   * rows are summed, or "derived: total − colour", "derived: mono device".
   */
  sources: z.partialRecord(z.enum(SOURCED_COUNTERS), boundedText(COUNTER_TEXT_MAX.source)).default({}),
  /** Set when black-and-white plus colour, both read, differ from the billing total. */
  splitMismatch: splitMismatchSchema.nullable().default(null),
});
export type ReadingCounters = z.infer<typeof readingCountersSchema>;

/** Counters of a device that reported none: every field unknown. */
export const emptyCounters = (): ReadingCounters => ({
  total: null, totalUnit: null, powerOn: null, mono: null, color: null, a3: null, a3Bw: null, a3Color: null,
  a4: null, a4Bw: null, a4Color: null, copies: null, scans: null, fax: null, duplex: null, derived: [], vendor: [],
  markerTotal: null, vendorTotal: null, sources: {}, splitMismatch: null,
});

export const readingStatusSchema = z.object({
  deviceStatus: z.enum(HR_DEVICE_STATUSES).nullable(),
  printerStatus: z.enum(HR_PRINTER_STATUSES).nullable(),
  /** Names of the hrPrinterDetectedErrorState bits that are set. */
  errors: z.array(boundedText(STATUS_TEXT_MAX.error)).max(READING_LIST_MAX.errors),
  /** The raw error state as hex, e.g. "2000". */
  errorStateHex: boundedText(STATUS_TEXT_MAX.errorStateHex).nullable(),
});
export type ReadingStatus = z.infer<typeof readingStatusSchema>;

/**
 * What the agent cut (too long), dropped (out of range: null, or the list entry left out) or
 * cleaned (control characters); `repaired` is the server's: broken characters (half a surrogate
 * pair, a NUL) it replaced with U+FFFD (issue 39).
 */
export const TRIM_ACTIONS = ['cut', 'dropped', 'cleaned', 'repaired'] as const;
export const readingTrimSchema = z.object({ field: boundedText(200), action: z.enum(TRIM_ACTIONS) });
export type ReadingTrim = z.infer<typeof readingTrimSchema>;

const readingText = (field: keyof typeof READING_TEXT_MAX) => boundedText(READING_TEXT_MAX[field]);

/** No printer prints faster than this; a model name that says more is not a speed. */
export const RATED_PPM_MAX = 400;

export const readingSchema = z.object({
  schema: z.literal('pagewatch/reading@1'),
  readAt: readingText('readAt'),
  /** Vendor profile of the models pack that matched, and the pack's version. */
  profileId: readingText('profileId').nullable(),
  modelsVersion: int32().nullable(),
  sysObjectID: readingText('sysObjectID').nullable(),
  sysDescr: readingText('sysDescr').nullable(),
  vendor: readingText('vendor').nullable(),
  model: readingText('model').nullable(),
  serialNumber: readingText('serialNumber').nullable(),
  macAddress: readingText('macAddress').nullable(),
  firmware: readingText('firmware').nullable(),
  hostName: readingText('hostName').nullable(),
  location: readingText('location').nullable(),
  isPrinter: z.boolean(),
  deviceType: z.enum(DEVICE_TYPES).nullable(),
  colorType: z.enum(COLOR_TYPES).nullable(),
  paperFormat: z.enum(PAPER_FORMATS).nullable(),
  status: readingStatusSchema,
  counters: readingCountersSchema,
  supplies: z.array(readingSupplySchema).max(READING_LIST_MAX.supplies),
  trays: z.array(readingTraySchema).max(READING_LIST_MAX.trays),
  problems: z.array(boundedText(PROBLEM_TEXT_MAX)).max(READING_LIST_MAX.problems),
  /** The rated speed in pages a minute, where the models pack knows it from the model's name (issue 41; optional for older agents). */
  ratedPpm: z.number().int().min(1).max(RATED_PPM_MAX).optional(),
  /** Added with issue 14, optional for older agents: values the agent fitted to these limits. */
  trimmed: z.array(readingTrimSchema).max(READING_LIST_MAX.trimmed).optional(),
});
export type Reading = z.infer<typeof readingSchema>;
