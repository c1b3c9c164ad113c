import { z } from 'zod';
import { codedRefSchema, idRef, text } from './fields.ts';
import { day, defineList } from './list.ts';
import { LICENSE_STATUSES } from './license-status.ts';

/**
 * Licenses (spec sections 2, 3, 5, 7): the instance license (location DEFAULT), a document
 * signed by the issuer, and per-location licenses the default administrator grants to the
 * locations below it. A license states what is paid for; it never stops collection.
 */

export { LICENSE_STATUSES, LICENSE_STATUS_DEFS, type LicenseStatus } from './license-status.ts';

/** WARNING when the license ends within this many days… */
export const LICENSE_WARNING_DAYS = 14;
/** …or when the serviced devices reach this percentage of the licensed count. */
export const LICENSE_WARNING_PERCENT = 90;
/** A new per-location license runs from today to this many days later (spec section 9). */
export const NEW_LICENSE_DAYS = 14;
/** Most devices one license may name: a limit in the contract (security.md, invariant 8). */
export const LICENSE_MAX_DEVICES = 1_000_000;
export const LICENSE_FILE_EXTENSION = '.lic';
/** A .lic is a few hundred bytes; anything far larger is not one. */
export const LICENSE_FILE_MAX_BYTES = 64 * 1024;
export const LICENSE_FORMAT = 'pagewatch-license/1';
export const LICENSE_REQUEST_FORMAT = 'pagewatch-license-request/1';

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const RU_DAY = /^(\d{2})\.(\d{2})\.(\d{4})$/;

/** A real calendar day as YYYY-MM-DD, or null. */
export function isoDay(s: string): string | null {
  const m = ISO_DAY.exec(s) ?? RU_DAY.exec(s);
  if (!m) return null;
  const [y, mo, d] = ISO_DAY.test(s) ? [m[1], m[2], m[3]] : [m[3], m[2], m[1]];
  const date = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  if (date.getUTCFullYear() !== Number(y) || date.getUTCMonth() !== Number(mo) - 1 || date.getUTCDate() !== Number(d)) return null;
  if (Number(y) < 2000 || Number(y) > 2999) return null;
  return `${y}-${mo}-${d}`;
}

/** A license day: YYYY-MM-DD (the API's form) or dd.MM.yyyy (the console's display), answered as YYYY-MM-DD. */
export const licenseDay = text(10)
  .refine((s) => isoDay(s) !== null, 'licenses.badDate')
  .transform((s) => isoDay(s)!);

/** Whole days from `from` to `to` (YYYY-MM-DD), negative when `to` is earlier. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** `day` plus `n` days, YYYY-MM-DD. */
export function addDays(dayIso: string, n: number): string {
  return new Date(Date.parse(`${dayIso}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

export const deviceCountSchema = z
  .number('general.mandatory')
  .int('licenses.badCount')
  .min(1, 'licenses.badCount')
  .max(LICENSE_MAX_DEVICES, 'licenses.badCount');

const dateOrder = <T extends { dateFrom: string; dateTo: string }>(v: T, ctx: z.RefinementCtx) => {
  if (v.dateFrom > v.dateTo) ctx.addIssue({ code: 'custom', path: ['dateTo'], message: 'licenses.datesReversed' });
};

/** POST /licenses and PUT /licenses/{id} (spec section 7: dateFrom, dateTo, deviceCount, location). */
export const licenseInputSchema = z
  .object({ location: idRef, dateFrom: licenseDay, dateTo: licenseDay, deviceCount: deviceCountSchema })
  .superRefine(dateOrder);
export type LicenseInput = z.input<typeof licenseInputSchema>;

/** Devices of a location and those below it: serviced (maintenance on) and all (detected). */
export const locationDeviceCountsSchema = z.object({ activeDeviceCount: z.number().int(), allDeviceCount: z.number().int() });
export type LocationDeviceCounts = z.infer<typeof locationDeviceCountsSchema>;

/** The devices a license counts: those it is for, those serviced now (maintenance on), and all detected. */
const licenseCounts = { deviceCount: z.number().int(), activeDeviceCount: z.number().int(), dbDeviceCount: z.number().int() };
/** The same where there may be no license: then it is for no number of devices. */
const maybeLicenseCounts = { ...licenseCounts, deviceCount: z.number().int().nullable() };

export const licenseLocationSchema = codedRefSchema.extend({ parentId: z.number().int().nullable() });

/** A location the license form may pick, with the license it already has (null: none). */
export const licensableLocationSchema = licenseLocationSchema.extend({ licenseId: z.number().int().nullable() });
export type LicensableLocation = z.infer<typeof licensableLocationSchema>;

/** A per-location license (spec section 3): its counts are the location's tree's devices now. */
export const licenseSchema = z.object({
  id: z.number().int(),
  location: licenseLocationSchema,
  dateFrom: z.string(),
  dateTo: z.string(),
  ...licenseCounts,
  status: z.enum(LICENSE_STATUSES),
});
export type License = z.infer<typeof licenseSchema>;

/**
 * A row of the licenses tree grid: a location in the caller's scope with its license, if any
 * (DEFAULT shows the instance license). Its id is the location's.
 */
export const licenseListRowSchema = licensableLocationSchema.extend({
  dateFrom: day().nullable(),
  dateTo: day().nullable(),
  ...maybeLicenseCounts,
});
export type LicenseListRow = z.infer<typeof licenseListRowSchema>;

export const licensesList = defineList(licenseListRowSchema, {
  endpoint: '/user-licenses/page',
  defaultSort: [{ field: 'name', dir: 'ASC' }],
  columns: ['code', 'name', 'dateFrom', 'dateTo', 'deviceCount', 'activeDeviceCount', 'dbDeviceCount'],
  hidden: ['id', 'licenseId', 'parentId'],
});

/** GET /instance-license/ (spec section 3: status, statusDescription, from, to, counts). */
export const instanceLicenseSchema = z.object({
  instanceId: z.string(),
  status: z.enum(LICENSE_STATUSES),
  /** In the caller's language. */
  statusDescription: z.string(),
  companyName: z.string().nullable(),
  from: z.string().nullable(),
  to: z.string().nullable(),
  counts: z.object(maybeLicenseCounts),
  uploadedAt: z.string().nullable(),
});
export type InstanceLicense = z.infer<typeof instanceLicenseSchema>;

export const licenseRequestQuerySchema = z.object({ companyName: text(250, { line: true }).trim().min(1, 'general.mandatory') });

/** lic-request.json: what the issuer needs to sign a license for this instance. */
export const licenseRequestSchema = z.object({
  format: z.literal(LICENSE_REQUEST_FORMAT),
  instanceId: z.uuid(),
  companyName: text(250, { line: true }).min(1),
  version: text(50, { line: true }),
  requestedAt: z.string(),
  counts: z.object({ activeDeviceCount: z.number().int().min(0), dbDeviceCount: z.number().int().min(0) }),
});
export type LicenseRequest = z.infer<typeof licenseRequestSchema>;

/** The terms an issuer signs: the inner document of a .lic. */
export const licenseTermsSchema = z
  .object({
    instanceId: z.uuid(),
    companyName: text(250, { line: true }).min(1),
    dateFrom: z.string().regex(ISO_DAY).refine((s) => isoDay(s) !== null),
    dateTo: z.string().regex(ISO_DAY).refine((s) => isoDay(s) !== null),
    deviceCount: deviceCountSchema,
    issuedAt: z.string().max(40),
  })
  .superRefine(dateOrder);
export type LicenseTerms = z.infer<typeof licenseTermsSchema>;

/**
 * A .lic file: the terms as the exact JSON text that was signed (so no re-serialisation can
 * change a byte) and the issuer's Ed25519 signature of that text, base64.
 */
export const signedLicenseSchema = z.object({
  format: z.literal(LICENSE_FORMAT),
  license: z.string().max(8192),
  signature: z.string().max(200).regex(/^[A-Za-z0-9+/]+={0,2}$/),
});
export type SignedLicense = z.infer<typeof signedLicenseSchema>;
