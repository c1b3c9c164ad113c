import { z } from 'zod';

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

const count = z.number().int().nonnegative().nullable();
const percent = z.number().int().min(0).max(100).nullable();

export const readingSupplySchema = z.object({
  /** prtMarkerSuppliesIndex (or the vendor table's index). */
  index: z.number().int(),
  /** IANA-PRINTER-MIB PrtMarkerSuppliesTypeTC name, e.g. toner, opc, wasteToner. */
  type: z.string(),
  /** True when the device gave no type and it was guessed from the description. */
  typeInferred: z.boolean(),
  /** 'consumed' (toner) or 'filled' (waste container), from prtMarkerSuppliesClass. */
  supplyClass: z.enum(['consumed', 'filled']).nullable(),
  description: z.string(),
  /** Colorant of the supply (prtMarkerColorantValue), e.g. black, cyan. */
  colorant: z.string().nullable(),
  /** Part number found in the description (e.g. Xerox "PN 006R01509", HP "HP CF410A"). */
  partNumber: z.string().nullable(),
  /** Serial of the supply found in the description (Xerox "SN…"). */
  partSerialNumber: z.string().nullable(),
  /** prtMarkerSuppliesSupplyUnit name, e.g. percent, impressions, tenthsOfGrams. */
  unit: z.string().nullable(),
  /** Raw level and max capacity as the device gave them (may be -1, -2, -3). */
  level: z.number().int().nullable(),
  maxCapacity: z.number().int().nullable(),
  levelState: levelStateSchema.nullable(),
  percent,
});
export type ReadingSupply = z.infer<typeof readingSupplySchema>;

export const readingTraySchema = z.object({
  index: z.number().int(),
  name: z.string(),
  mediaName: z.string().nullable(),
  level: z.number().int().nullable(),
  maxCapacity: z.number().int().nullable(),
  levelState: levelStateSchema.nullable(),
  percent,
});
export type ReadingTray = z.infer<typeof readingTraySchema>;

export const readingCounterSchema = z.object({
  /** Stable key: a normalised field name (mono, copies…) or a slug of the vendor's name. */
  key: z.string(),
  name: z.string(),
  oid: z.string(),
  value: z.number().nonnegative(),
});
export type ReadingCounter = z.infer<typeof readingCounterSchema>;

export const readingCountersSchema = z.object({
  /** prtMarkerLifeCount of the first marker, or the vendor's total. */
  total: count,
  totalUnit: z.string().nullable(),
  powerOn: count,
  mono: count,
  color: count,
  a3: count,
  a4: count,
  copies: count,
  scans: count,
  fax: count,
  duplex: count,
  /** Every vendor counter read, named as the device or the profile names it. */
  vendor: z.array(readingCounterSchema),
});
export type ReadingCounters = z.infer<typeof readingCountersSchema>;

export const readingStatusSchema = z.object({
  deviceStatus: z.enum(HR_DEVICE_STATUSES).nullable(),
  printerStatus: z.enum(HR_PRINTER_STATUSES).nullable(),
  /** Names of the hrPrinterDetectedErrorState bits that are set. */
  errors: z.array(z.string()),
  /** The raw error state as hex, e.g. "2000". */
  errorStateHex: z.string().nullable(),
});
export type ReadingStatus = z.infer<typeof readingStatusSchema>;

export const readingSchema = z.object({
  schema: z.literal('pagewatch/reading@1'),
  readAt: z.string(),
  /** Vendor profile of the models pack that matched, and the pack's version. */
  profileId: z.string().nullable(),
  modelsVersion: z.number().int().nullable(),
  sysObjectID: z.string().nullable(),
  sysDescr: z.string().nullable(),
  vendor: z.string().nullable(),
  model: z.string().nullable(),
  serialNumber: z.string().nullable(),
  macAddress: z.string().nullable(),
  firmware: z.string().nullable(),
  hostName: z.string().nullable(),
  location: z.string().nullable(),
  isPrinter: z.boolean(),
  deviceType: z.enum(DEVICE_TYPES).nullable(),
  colorType: z.enum(COLOR_TYPES).nullable(),
  paperFormat: z.enum(PAPER_FORMATS).nullable(),
  status: readingStatusSchema,
  counters: readingCountersSchema,
  supplies: z.array(readingSupplySchema),
  trays: z.array(readingTraySchema),
  problems: z.array(z.string()),
});
export type Reading = z.infer<typeof readingSchema>;
