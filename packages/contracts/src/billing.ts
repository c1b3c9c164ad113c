import { z } from 'zod';
import { id, idParam, keptDay, text } from './fields.ts';
import { METER_NAMES, type Meter } from './meter-names.ts';
import { METER_QUALITY_FLAGS } from './meter-reads.ts';

/**
 * Contracts and billing runs (issue 54): what a dealer invoices from. A contract of a customer
 * location bills its devices (by serial) per period at per-meter click prices; a billing run
 * takes one read per device and meter at the period's two boundaries, is reviewed where a read
 * is flagged, and once closed never changes.
 */
export const BILLING_LIMITS = { name: 200, serial: 100, equipmentId: 100, note: 500, devices: 20_000, prices: METER_NAMES.length, pages: 1_000_000_000, billingDay: 28 } as const;

/** A contract's period: a month or a quarter from its billing day. */
export const BILLING_PERIODS = ['MONTHLY', 'QUARTERLY'] as const;
export type BillingPeriod = (typeof BILLING_PERIODS)[number];
export const PERIOD_MONTHS: Record<BillingPeriod, number> = { MONTHLY: 1, QUARTERLY: 3 };

/**
 * Whose a contract's included pages are: PER_DEVICE, each device's (every device may print that
 * many of a meter's pages before they are billed); POOLED, the contract's, for all its devices
 * together (a run gives them out to its devices in their order, by serial, until spent).
 */
export const INCLUDED_PAGES_MODES = ['PER_DEVICE', 'POOLED'] as const;
export type IncludedPagesMode = (typeof INCLUDED_PAGES_MODES)[number];

/** A run's life: OPEN (re-run and reviewed at will), CLOSED (immutable). */
export const BILLING_RUN_STATES = ['OPEN', 'CLOSED'] as const;
export type BillingRunState = (typeof BILLING_RUN_STATES)[number];

/**
 * Where a boundary read comes from: READ, the device's last day read on or before the boundary
 * (within BILLING_NEAR_DAYS of it); PREVIOUS_RUN, the closing read of the contract's closed run of
 * the period before; ESTIMATED, worked out from the device's daily rate (no read near enough).
 */
export const READ_SOURCES = ['READ', 'PREVIOUS_RUN', 'ESTIMATED'] as const;
export type ReadSource = (typeof READ_SOURCES)[number];

/** How far from a boundary a read may be and still be taken as the boundary's read (days). */
export const BILLING_NEAR_DAYS = 3;
/** The days back from a read over which a device's daily rate is measured for an estimate. */
export const BILLING_RATE_DAYS = 60;

/** Currencies whose minor unit is not a hundredth (ISO 4217): amounts are kept in minor units. */
const MINOR_DIGITS: Record<string, number> = { JPY: 0, KRW: 0, VND: 0, CLP: 0, ISK: 0, BHD: 3, KWD: 3, OMR: 3, JOD: 3, TND: 3 };
export const minorDigits = (currency: string): number => MINOR_DIGITS[currency] ?? 2;
/** Click prices are kept in millionths of the currency's major unit (0.0085 EUR a page is 8500). */
export const PRICE_DIGITS = 6;

/** A decimal amount as text ("12.50", "0.0085"): never a float on its way to the database. */
const decimal = (digits: number, key: string) =>
  z.string('general.badValue').trim().regex(new RegExp(`^\\d{1,9}([.,]\\d{1,${digits}})?$`), key);
/** A decimal text in units of 10^-digits, as a whole number ("0.0085", 6 → 8500). */
export function decimalUnits(value: string, digits: number): number {
  const [whole, fraction = ''] = value.replace(',', '.').split('.');
  return Number(whole) * 10 ** digits + Number((fraction + '0'.repeat(digits)).slice(0, digits));
}
/** Whole units of 10^-digits as decimal text (8500, 6 → "0.0085"; 1250, 2 → "12.50"). */
export function unitsText(units: number, digits: number, minDigits = digits): string {
  const sign = units < 0 ? '-' : '';
  const abs = Math.abs(units);
  const whole = Math.floor(abs / 10 ** digits);
  let fraction = digits ? String(abs % 10 ** digits).padStart(digits, '0') : '';
  while (fraction.length > minDigits && fraction.endsWith('0')) fraction = fraction.slice(0, -1);
  return `${sign}${whole}${fraction ? `.${fraction}` : ''}`;
}

const meter = z.enum(METER_NAMES as [Meter, ...Meter[]], 'general.badValue');
const pages = z.number('general.badValue').int('general.badValue').min(0, 'billing.badPages').max(BILLING_LIMITS.pages, 'billing.badPages');
const day = keptDay('billing.badDate', 'billing.dateRange');

/** A meter's click price: per page past the included pages (a decimal of up to 6 places in the contract's currency). */
export const meterPriceInputSchema = z.object({ meter, price: decimal(PRICE_DIGITS, 'billing.badPrice'), includedPages: pages });
export const meterPriceSchema = z.object({ meter, price: z.string(), includedPages: z.number().int() });
export type MeterPrice = z.infer<typeof meterPriceSchema>;

/** `POST /api/contracts`, `PUT /api/contracts/:id`. */
export const contractInputSchema = z
  .object({
    locationId: id,
    name: text(BILLING_LIMITS.name, { line: true }).trim().min(1, 'general.mandatory'),
    billingDay: z.number('general.badValue').int('general.badValue').min(1, 'billing.badBillingDay').max(BILLING_LIMITS.billingDay, 'billing.badBillingDay'),
    period: z.enum(BILLING_PERIODS, 'general.badValue'),
    currency: z.string('general.badValue').trim().toUpperCase().regex(/^[A-Z]{3}$/, 'billing.badCurrency'),
    baseFee: decimal(3, 'billing.badAmount'),
    includedPages: z.enum(INCLUDED_PAGES_MODES, 'general.badValue').default('PER_DEVICE'),
    prices: z
      .array(meterPriceInputSchema, 'general.mandatory')
      .max(BILLING_LIMITS.prices, 'general.badValue')
      .refine((list) => new Set(list.map((p) => p.meter)).size === list.length, 'billing.meterTwice'),
    startsOn: day,
    endsOn: day.nullable().optional(),
  })
  .refine((c) => !c.endsOn || c.endsOn >= c.startsOn, { path: ['endsOn'], message: 'billing.endBeforeStart' });
/** The parsed input (a request without `includedPages` gets PER_DEVICE, as contracts had before). */
export type ContractInput = z.infer<typeof contractInputSchema>;

/** A device of a contract: its serial (the device keeps its contract across IP and agent changes) and the days it joined and left. */
export const contractDeviceInputSchema = z
  .object({
    serialNumber: text(BILLING_LIMITS.serial, { line: true }).trim().min(1, 'general.mandatory'),
    equipmentId: text(BILLING_LIMITS.equipmentId, { line: true }).trim().nullable().optional(),
    joinedOn: day,
    leftOn: day.nullable().optional(),
  })
  .refine((d) => !d.leftOn || d.leftOn >= d.joinedOn, { path: ['leftOn'], message: 'billing.endBeforeStart' });
export type ContractDeviceInput = z.infer<typeof contractDeviceInputSchema>;

/** `PUT /api/contracts/:id/devices/:deviceId`: when it left (or null: still on the contract), its ERP id. */
export const contractDeviceChangeSchema = z.object({
  equipmentId: contractDeviceInputSchema.shape.equipmentId,
  leftOn: day.nullable(),
});

export const contractDeviceSchema = z.object({
  id: z.number().int(),
  serialNumber: z.string(),
  equipmentId: z.string().nullable(),
  joinedOn: z.string(),
  leftOn: z.string().nullable(),
  /** The device the serial is now (in the contract's locations), for its model and IP. */
  deviceId: z.number().int().nullable(),
  modelCode: z.string().nullable(),
  ip: z.string().nullable(),
});
export type ContractDevice = z.infer<typeof contractDeviceSchema>;

export const contractSchema = z.object({
  id: z.number().int(),
  locationId: z.number().int(),
  locationName: z.string(),
  name: z.string(),
  billingDay: z.number().int(),
  period: z.enum(BILLING_PERIODS),
  currency: z.string(),
  baseFee: z.string(),
  includedPages: z.enum(INCLUDED_PAGES_MODES),
  prices: z.array(meterPriceSchema),
  startsOn: z.string(),
  endsOn: z.string().nullable(),
  deviceCount: z.number().int(),
  createdAt: z.string(),
});
export type Contract = z.infer<typeof contractSchema>;

/** `GET /api/contracts?location=`: one location (and those below it) of the caller's, or all of them. */
export const contractsQuerySchema = z.object({ location: idParam.optional() });

/** `POST /api/contracts/:id/runs`: the period starting on `periodFrom` (a billing day of the contract). */
export const billingRunInputSchema = z.object({ periodFrom: day });

/** One boundary read of a meter: the value, its day and where it comes from. */
const read = { value: z.number().int().nullable(), date: z.string().nullable(), source: z.enum(READ_SOURCES).nullable() };
export const runMeterSchema = z.object({
  meter,
  opening: z.object(read),
  closing: z.object(read),
  pages: z.number().int().nullable(),
  includedPages: z.number().int(),
  billablePages: z.number().int(),
  price: z.string(),
  /** In minor units of the run's currency. */
  amountMinor: z.number().int(),
});
export type RunMeter = z.infer<typeof runMeterSchema>;

export const runDeviceSchema = z.object({
  id: z.number().int(),
  serialNumber: z.string(),
  equipmentId: z.string().nullable(),
  deviceId: z.number().int().nullable(),
  modelCode: z.string().nullable(),
  /** The days of the period the device was on the contract. */
  from: z.string(),
  to: z.string(),
  flags: z.array(z.enum(METER_QUALITY_FLAGS)),
  estimated: z.boolean(),
  reviewedBy: z.string().nullable(),
  reviewedAt: z.string().nullable(),
  reviewNote: z.string().nullable(),
  amountMinor: z.number().int(),
  amount: z.string(),
  meters: z.array(runMeterSchema),
});
export type RunDevice = z.infer<typeof runDeviceSchema>;

export const billingRunSchema = z.object({
  id: z.number().int(),
  contractId: z.number().int(),
  contractName: z.string(),
  locationId: z.number().int(),
  periodFrom: z.string(),
  periodTo: z.string(),
  state: z.enum(BILLING_RUN_STATES),
  currency: z.string(),
  baseFeeMinor: z.number().int(),
  totalMinor: z.number().int(),
  total: z.string(),
  /** Devices whose flags are not reviewed yet: a run closes at 0. */
  toReview: z.number().int(),
  computedAt: z.string(),
  closedBy: z.string().nullable(),
  closedAt: z.string().nullable(),
});
export type BillingRun = z.infer<typeof billingRunSchema>;
export const billingRunDetailSchema = billingRunSchema.extend({ devices: z.array(runDeviceSchema) });
export type BillingRunDetail = z.infer<typeof billingRunDetailSchema>;

/** `POST /api/billing-runs/:id/devices/:deviceId/review`: the reviewer's note on a flagged device. */
export const runReviewInputSchema = z.object({ note: text(BILLING_LIMITS.note).trim().min(1, 'general.mandatory') });

/** `GET /api/contracts/reads?serial=&date=`: a device's read on or before a day (like an ERP's `mostRecentPriorTo`). */
export const readOnQuerySchema = z.object({
  serial: text(BILLING_LIMITS.serial, { line: true }).trim().min(1, 'general.mandatory'),
  date: day,
});
export const readOnSchema = z.object({
  serialNumber: z.string(),
  deviceId: z.number().int(),
  date: z.string(),
  meters: z.record(z.string(), z.number().int().nullable()),
});

/** A run's files: `csv`, `xlsx` (the user's language) and `erp` (the meter-import CSV, docs/billing.md). */
export const RUN_FILE_FORMATS = ['csv', 'xlsx', 'erp'] as const;
export const runFileParams = z.object({ id: idParam, format: z.enum(RUN_FILE_FORMATS, 'general.badValue') });

/** The run file's columns (csv, xlsx): one line per device and billed meter (titles: `columnTitleKey`, `billing.column.*`). */
const column = (key: string, type: 'string' | 'number' | 'date') => ({ key, type, ...(type === 'date' ? { day: true } : {}) });
const boundaryColumns = (side: 'Opening' | 'Closing') => [column(`billing${side}`, 'number'), column(`billing${side}Date`, 'date'), column(`billing${side}Source`, 'string')];
export const RUN_FILE_COLUMNS = [
  ...['billingEquipmentId', 'serialNumber', 'modelCode', 'billingMeter'].map((k) => column(k, 'string')),
  ...boundaryColumns('Opening'),
  ...boundaryColumns('Closing'),
  ...['billingPages', 'billingIncluded', 'billingBillable'].map((k) => column(k, 'number')),
  ...['billingPrice', 'billingAmount', 'billingFlags'].map((k) => column(k, 'string')),
];

/** The ERP meter-import file's header (docs/billing.md): fixed, in English, whatever the user's language. */
export const ERP_FILE_HEADER = ['equipment_id', 'serial_number', 'meter', 'meter_code', 'read', 'read_date', 'source'] as const;
