import { z } from 'zod';
import { id } from './fields.ts';
import { columnTypeOf, day, isDayField, timestamp, type ColumnType } from './list.ts';
import { COLOR_TYPES, DEVICE_TYPES, PAPER_FORMATS } from './reading.ts';

/** The report types (spec section 2); ids are fixed: `/report/{id}` and the download path use them. */
export const REPORT_CODES = ['DEVICE_AVAILABILITY', 'DEVICE_COUNTERS', 'PART_REPLACEMENTS', 'INSTALLED_CONSUMABLES'] as const;
export type ReportCode = (typeof REPORT_CODES)[number];

export const REPORT_FORMATS = ['CSV', 'XLSX'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** Installed consumables: no data before this day (spec section 9). */
export const INSTALLED_SINCE = '2022-01-01';

const deviceColumns = {
  serialNumber: z.string().nullable(),
  inventoryNumber: z.string().nullable(),
  ip: z.string(),
  modelCode: z.string().nullable(),
  hostname: z.string().nullable(),
  location: z.string(),
  locationId: z.number().int(),
  deviceType: z.string().nullable(),
  colorType: z.string().nullable(),
  paperFormat: z.string().nullable(),
};
const partColumns = { partType: z.string().nullable(), partModelCode: z.string().nullable(), partSerialNumber: z.string().nullable() };

export const partReplacementRowSchema = z.object({ ...deviceColumns, ...partColumns, replacementDate: timestamp() });
export type PartReplacementRow = z.infer<typeof partReplacementRowSchema>;

/** Per device: days of the period (up to today), days it was read, days it worked (read, status OK or WARNING). */
export const deviceAvailabilityRowSchema = z.object({
  ...deviceColumns,
  daysCount: z.number().int(),
  daysSeen: z.number().int(),
  daysAvailable: z.number().int(),
  availability: z.number(),
  lastSeen: timestamp(),
  status: z.string(),
});
export type DeviceAvailabilityRow = z.infer<typeof deviceAvailabilityRowSchema>;

const n = z.number().int().nullable();
/**
 * Per device: black-and-white, colour and total counters at the start and end of the period and
 * the pages between (the sum of the forward steps: a counter that went backwards, say after a
 * board swap, adds nothing for that step and the row says so), and the A3, A4, copy and scan
 * pages where the device reports them.
 */
export const deviceCountersRowSchema = z.object({
  ...deviceColumns,
  bwStart: n, bwEnd: n, bwDiff: n,
  colorStart: n, colorEnd: n, colorDiff: n,
  totalStart: n, totalEnd: n, totalDiff: n,
  a3Diff: n, a4Diff: n, copyDiff: n, scanDiff: n,
  /** Why a difference is less than end minus start: the counters that went backwards. */
  reason: z.string().nullable(),
});
export type DeviceCountersRow = z.infer<typeof deviceCountersRowSchema>;

export const installedConsumableRowSchema = z.object({ ...deviceColumns, ...partColumns, level: z.number().int().nullable(), installDate: day().nullable(), refreshDate: timestamp() });
export type InstalledConsumableRow = z.infer<typeof installedConsumableRowSchema>;

type ReportDef = {
  id: number;
  /** The grid's stored state (spec section 2). */
  gridKey: string;
  /** Whether the report has a period (installed consumables: what is installed now). */
  period: boolean;
  formats: readonly ReportFormat[];
  /** The report's columns in their default order (the attachment names of spec section 3); null until the report is built. */
  row: z.ZodObject | null;
};

/** The registry: one entry per report type. */
export const REPORTS: Record<ReportCode, ReportDef> = {
  DEVICE_AVAILABILITY: { id: 1, gridKey: 'gridReportDeviceAvailability', period: true, formats: REPORT_FORMATS, row: deviceAvailabilityRowSchema },
  DEVICE_COUNTERS: { id: 2, gridKey: 'gridReportDeviceCounters', period: true, formats: REPORT_FORMATS, row: deviceCountersRowSchema },
  PART_REPLACEMENTS: { id: 3, gridKey: 'gridReportPartReplacements', period: true, formats: REPORT_FORMATS, row: partReplacementRowSchema },
  INSTALLED_CONSUMABLES: { id: 4, gridKey: 'gridReportInstalledConsumables', period: false, formats: REPORT_FORMATS, row: installedConsumableRowSchema },
};

/** The columns a report's file may hold, in their default order (the server's own `locationId` is not one). */
export const reportColumns = (code: ReportCode): string[] => Object.keys(REPORTS[code].row?.shape ?? {}).filter((c) => c !== 'locationId');

/** Each column's type, for typed cells in a spreadsheet. */
export const reportColumnTypes = (code: ReportCode): { key: string; type: ColumnType; day: boolean }[] => {
  const shape = (REPORTS[code].row?.shape ?? {}) as Record<string, z.ZodType>;
  return reportColumns(code).map((key) => ({ key, type: columnTypeOf(shape[key]), day: isDayField(shape[key]) }));
};

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const list = <T extends readonly [string, ...string[]]>(values: T) => z.array(z.enum(values, 'general.badValue')).max(values.length).default([]);

/**
 * A report's filter (spec section 3, without title and period type): the period as days
 * (from and to included, UTC), locations (with those below them), printer, colour and paper
 * types. Installed consumables take no period.
 */
export const reportFilterSchema = z
  .object({
    from: z.string().regex(DATE, 'reports.badDate').optional(),
    to: z.string().regex(DATE, 'reports.badDate').optional(),
    location: z.array(id).max(500).default([]),
    printerType: list(DEVICE_TYPES),
    colorType: list(COLOR_TYPES),
    paperFormat: list(PAPER_FORMATS),
    /** The file's columns, in order (downloads and notifications). */
    columns: z.array(z.string().max(50)).max(50).optional(),
  })
  .superRefine((f, ctx) => {
    if (f.from && f.to && f.from > f.to) ctx.addIssue({ code: 'custom', path: ['to'], message: 'reports.fromAfterTo' });
  });
export type ReportFilter = z.output<typeof reportFilterSchema>;

export const reportTypeSchema = z.object({ id: z.number().int(), code: z.enum(REPORT_CODES), name: z.string(), period: z.boolean(), formats: z.array(z.enum(REPORT_FORMATS)), columns: z.array(z.string()) });
export type ReportType = z.infer<typeof reportTypeSchema>;

const many = <T extends z.ZodType>(item: T) => z.preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), z.array(item));

/** The data calls' query string (spec section 7: arrays repeated): the filter's fields. */
export const reportQuerySchema = z.object({
  from: z.string().optional(),
  to: z.string().optional(),
  location: many(z.coerce.number('general.badValue')).optional(),
  printerType: many(z.string().max(20)).optional(),
  colorType: many(z.string().max(20)).optional(),
  paperFormat: many(z.string().max(20)).optional(),
});
