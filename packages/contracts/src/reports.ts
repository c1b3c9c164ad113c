import { z } from 'zod';
import { id, idParam, keptDay } from './fields.ts';
import { day, defineList, timestamp, type ColumnType, type List } from './list.ts';
import { COLOR_TYPES, DEVICE_TYPES, PAPER_FORMATS } from './reading.ts';
import { DEVICE_FIELDS, deviceFieldSchemas } from './devices.ts';
import { BILLED_TOTALS, METER_NAMES, METER_PARTS, meterColumns, meterField } from './meter-reads.ts';

/** The report types (spec section 2); ids are fixed: `/report/{id}` and the download path use them. */
export const REPORT_CODES = ['DEVICE_AVAILABILITY', 'DEVICE_COUNTERS', 'PART_REPLACEMENTS', 'INSTALLED_CONSUMABLES', 'METER_READS'] as const;
export type ReportCode = (typeof REPORT_CODES)[number];

export const REPORT_FORMATS = ['CSV', 'XLSX'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** Installed consumables: no data before this day (spec section 9). */
export const INSTALLED_SINCE = '2022-01-01';

/** A report row's device: fields of its definition (DEVICE_FIELDS), and its host and location names as the reports' files have always named them. */
const deviceColumns = {
  ...deviceFieldSchemas(['serialNumber', 'inventoryNumber', 'ip', 'modelCode']),
  hostname: DEVICE_FIELDS.hostName.schema,
  location: DEVICE_FIELDS.locationName.schema,
  ...deviceFieldSchemas(['locationId', 'deviceType', 'colorType', 'paperFormat']),
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

/**
 * Meter reads (issue 41, beyond the spec's four): per device and billing period, each meter's
 * first read (the last one before the period, as the counters report starts from it; without
 * one the first in it) and last read with their days, and the pages between as the sum of the
 * forward steps; meter corrections applied. `dataQuality` lists the period's flags
 * (METER_QUALITY_FLAGS codes, comma-separated). `billedTotal` says which total the device is
 * billed on (issue 57: the maker's own, or prtMarkerLifeCount), `otherTotal` the Printer-MIB's
 * beside the maker's, both as the device reads now.
 */
export const meterReadRowSchema = z.object({
  ...deviceColumns,
  periodFrom: day(),
  periodTo: day(),
  ...meterColumns,
  billedTotal: z.enum(BILLED_TOTALS).nullable(),
  otherTotal: n,
  dataQuality: z.string().nullable(),
});
export type MeterReadRow = z.infer<typeof meterReadRowSchema>;

export const installedConsumableRowSchema = z.object({ ...deviceColumns, ...partColumns, level: z.number().int().nullable(), installDate: day().nullable(), refreshDate: timestamp() });
export type InstalledConsumableRow = z.infer<typeof installedConsumableRowSchema>;

/** The availability chart: per day of the period (up to today), the devices of the area, those read and those working. */
export const availabilityDaySchema = z.object({ day: day(), devices: z.number().int(), seen: z.number().int(), available: z.number().int() });
export type AvailabilityDay = z.infer<typeof availabilityDaySchema>;

/** The counters chart: black-and-white and colour pages per location and month (YYYY-MM) of the period. */
export const pagesByMonthSchema = z.object({ location: z.string(), month: z.string(), bw: z.number().int(), color: z.number().int() });
export type PagesByMonth = z.infer<typeof pagesByMonthSchema>;

type ReportDef = {
  id: number;
  /** The grid's stored state (spec section 2). */
  gridKey: string;
  /** Whether the report has a period (installed consumables: what is installed now). */
  period: boolean;
  formats: readonly ReportFormat[];
  /**
   * The report's columns (the attachment names of spec section 3): the row schema gives their
   * types, the list which show by default and in what order; `endpoint` is the data call.
   */
  list: List;
  /**
   * The grid's page call, where the report is read a page at a time (the list protocol plus the
   * report's filter): a fleet's installed supplies are too many rows for one answer.
   */
  pageEndpoint?: string;
  /** A file's columns in their default order, where it differs from the grid's (shown, then hidden). */
  fileColumns?: readonly string[];
  /**
   * The columns the console's file holds whether the grid shows them or not, after the grid's
   * own (issue 54): a meter read's every meter with its read days, what a dealer bills from.
   */
  fileAlwaysColumns?: readonly string[];
};

const DEVICE_SHOWN = ['location', 'modelCode', 'serialNumber', 'ip'] as const;
const METER_FIELDS = METER_NAMES.flatMap((m) => METER_PARTS.map((p) => meterField(m, p)));
/** The meter-read grid shows the three meters billed most; the others are in the column chooser. */
const METER_SHOWN = (['total', 'mono', 'color'] as const).flatMap((m) => [meterField(m, 'First'), meterField(m, 'Last'), meterField(m, 'Pages')]);
const DEVICE_HIDDEN = ['inventoryNumber', 'hostname', 'deviceType', 'colorType', 'paperFormat'] as const;

/** The registry: one entry per report type. */
export const REPORTS: Record<ReportCode, ReportDef> = {
  DEVICE_AVAILABILITY: {
    id: 1,
    gridKey: 'gridReportDeviceAvailability',
    period: true,
    formats: REPORT_FORMATS,
    list: defineList(deviceAvailabilityRowSchema, {
      endpoint: '/reports/device-availability',
      defaultSort: [{ field: 'availability', dir: 'ASC' }],
      columns: [...DEVICE_SHOWN, 'daysCount', 'daysSeen', 'daysAvailable', 'availability', 'lastSeen', 'status'],
      hidden: DEVICE_HIDDEN,
    }),
  },
  DEVICE_COUNTERS: {
    id: 2,
    gridKey: 'gridReportDeviceCounters',
    period: true,
    formats: REPORT_FORMATS,
    list: defineList(deviceCountersRowSchema, {
      endpoint: '/reports/device-counters',
      defaultSort: [{ field: 'location', dir: 'ASC' }, { field: 'modelCode', dir: 'ASC' }],
      columns: [...DEVICE_SHOWN, 'bwStart', 'bwEnd', 'bwDiff', 'colorStart', 'colorEnd', 'colorDiff', 'totalDiff', 'reason'],
      hidden: [...DEVICE_HIDDEN, 'totalStart', 'totalEnd', 'a3Diff', 'a4Diff', 'copyDiff', 'scanDiff'],
    }),
  },
  PART_REPLACEMENTS: {
    id: 3,
    gridKey: 'gridReportPartReplacements',
    period: true,
    formats: REPORT_FORMATS,
    list: defineList(partReplacementRowSchema, {
      endpoint: '/reports/part-replacements',
      defaultSort: [{ field: 'replacementDate', dir: 'DESC' }],
      columns: [...DEVICE_SHOWN, 'partType', 'partModelCode', 'partSerialNumber', 'replacementDate'],
      hidden: DEVICE_HIDDEN,
    }),
  },
  INSTALLED_CONSUMABLES: {
    id: 4,
    gridKey: 'gridReportInstalledConsumables',
    period: false,
    formats: REPORT_FORMATS,
    pageEndpoint: '/reports/installed-consumables/page',
    list: defineList(installedConsumableRowSchema, {
      endpoint: '/reports/installed-consumables',
      defaultSort: [{ field: 'location', dir: 'ASC' }, { field: 'modelCode', dir: 'ASC' }],
      columns: [...DEVICE_SHOWN, 'partType', 'partModelCode', 'partSerialNumber', 'level', 'installDate', 'refreshDate'],
      hidden: DEVICE_HIDDEN,
    }),
  },
  METER_READS: {
    id: 5,
    gridKey: 'gridReportMeterReads',
    period: true,
    formats: REPORT_FORMATS,
    list: defineList(meterReadRowSchema, {
      endpoint: '/reports/meter-reads',
      defaultSort: [{ field: 'location', dir: 'ASC' }, { field: 'modelCode', dir: 'ASC' }],
      columns: [...DEVICE_SHOWN, ...METER_SHOWN, 'billedTotal', 'otherTotal', 'dataQuality'],
      hidden: [...DEVICE_HIDDEN, 'periodFrom', 'periodTo', ...METER_FIELDS.filter((f) => !METER_SHOWN.includes(f))],
    }),
    fileColumns: [...DEVICE_SHOWN, ...DEVICE_HIDDEN, 'periodFrom', 'periodTo', ...METER_FIELDS, 'billedTotal', 'otherTotal', 'dataQuality'],
    fileAlwaysColumns: ['periodFrom', 'periodTo', ...METER_FIELDS, 'billedTotal', 'otherTotal', 'dataQuality'],
  },
};

/** The report of an id (`/report/{id}`, the download path). */
export const reportById = (id: number): ReportCode | undefined => REPORT_CODES.find((c) => REPORTS[c].id === id);

/** The columns a report's file may hold, in their default order: those shown by default, then the others. */
export const reportColumns = (code: ReportCode): string[] => [...(REPORTS[code].fileColumns ?? REPORTS[code].list.columns.map((c) => c.field))];

/** Each column's type, for typed cells in a spreadsheet. */
export const reportColumnTypes = (code: ReportCode): { key: string; type: ColumnType; day: boolean }[] =>
  REPORTS[code].list.columns.map((c) => ({ key: c.field, type: c.type, day: c.day }));

/** The period types of a report's filter (spec section 4); LAST_MONTH is the default. */
export const PERIOD_TYPES = ['CURRENT_WEEK', 'CURRENT_MONTH', 'CURRENT_QUARTER', 'CURRENT_YEAR', 'LAST_WEEK', 'LAST_MONTH', 'LAST_QUARTER', 'LAST_YEAR', 'FREE_CHOICE'] as const;
export type PeriodType = (typeof PERIOD_TYPES)[number];
export const DEFAULT_PERIOD = 'LAST_MONTH' satisfies PeriodType;

const ymd = (y: number, m: number, d: number) => new Date(Date.UTC(y, m, d)).toISOString().slice(0, 10);

/**
 * The days a period type stands for on `today` (YYYY-MM-DD, UTC), both included: a current
 * period runs from its first day to today, a last one is the whole previous week (Monday to
 * Sunday), month, quarter or year. FREE_CHOICE has no days of its own.
 */
export function periodDays(type: Exclude<PeriodType, 'FREE_CHOICE'>, today: string): { from: string; to: string } {
  const [y, m, d] = today.split('-').map(Number);
  const m0 = m - 1;
  const weekday = (new Date(Date.UTC(y, m0, d)).getUTCDay() + 6) % 7; // Monday 0
  const q0 = m0 - (m0 % 3);
  switch (type) {
    case 'CURRENT_WEEK': return { from: ymd(y, m0, d - weekday), to: today };
    case 'CURRENT_MONTH': return { from: ymd(y, m0, 1), to: today };
    case 'CURRENT_QUARTER': return { from: ymd(y, q0, 1), to: today };
    case 'CURRENT_YEAR': return { from: ymd(y, 0, 1), to: today };
    case 'LAST_WEEK': return { from: ymd(y, m0, d - weekday - 7), to: ymd(y, m0, d - weekday - 1) };
    case 'LAST_MONTH': return { from: ymd(y, m0 - 1, 1), to: ymd(y, m0, 0) };
    case 'LAST_QUARTER': return { from: ymd(y, q0 - 3, 1), to: ymd(y, q0, 0) };
    case 'LAST_YEAR': return { from: ymd(y - 1, 0, 1), to: ymd(y - 1, 11, 31) };
  }
}

/** The product keeps no data before 2022 (spec section 9, INSTALLED_SINCE): a report's days are from then on. */
const date = keptDay('reports.badDate', 'reports.dateRange');
const list = <T extends readonly [string, ...string[]]>(values: T) => z.array(z.enum(values, 'general.badValue')).max(values.length).default([]);

/**
 * A report's filter (spec section 3, without title and period type): the period as days
 * (from and to included, UTC), locations (with those below them), printer, colour and paper
 * types. Installed consumables take no period.
 */
export const reportFilterSchema = z
  .object({
    from: date.optional(),
    to: date.optional(),
    location: z.array(id).max(500).default([]),
    printerType: list(DEVICE_TYPES),
    colorType: list(COLOR_TYPES),
    paperFormat: list(PAPER_FORMATS),
    /** The file's columns, in order (downloads and notifications); the meter reads have 88. */
    columns: z.array(z.string().max(50)).max(100).optional(),
  })
  .superRefine((f, ctx) => {
    if (f.from && f.to && f.from > f.to) ctx.addIssue({ code: 'custom', path: ['to'], message: 'reports.fromAfterTo' });
  });
export type ReportFilter = z.output<typeof reportFilterSchema>;

export const reportTypeSchema = z.object({ id: z.number().int(), code: z.enum(REPORT_CODES), name: z.string(), period: z.boolean(), formats: z.array(z.enum(REPORT_FORMATS)), columns: z.array(z.string()) });
export type ReportType = z.infer<typeof reportTypeSchema>;

const many = <T extends z.ZodType>(item: T) => z.preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), z.array(item).max(500, 'general.badValue'));

/** The data calls' query string (spec section 7: arrays repeated): the filter's fields, bounded as the filter is (reportFilterSchema checks them fully). */
export const reportQuerySchema = z.object({
  from: z.string().max(10, 'general.badValue').optional(),
  to: z.string().max(10, 'general.badValue').optional(),
  location: many(idParam).optional(),
  printerType: many(z.string().max(20)).optional(),
  colorType: many(z.string().max(20)).optional(),
  paperFormat: many(z.string().max(20)).optional(),
});

/** What a report file's header row says: the column titles in the caller's language, or the attachment names (for programs). */
export const FILE_HEADERS = ['titles', 'codes'] as const;
export type FileHeaders = (typeof FILE_HEADERS)[number];

/** The download's query string: the filter as JSON (with `columns` in their order) and the header row's kind. */
export const reportDownloadQuerySchema = z.object({
  filter: z.string().max(20_000).optional(),
  headers: z
    .enum(FILE_HEADERS, 'general.badValue')
    .default('titles')
    .describe('The header row: `titles`, the column names the caller sees in their language (Accept-Language), or `codes`, the attachment names (serialNumber, ip…) for programs that read the file'),
});
