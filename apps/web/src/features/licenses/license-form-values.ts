import { addDays, licenseInputSchema, NEW_LICENSE_DAYS, type License, type LicenseInput } from '@pagewatch/contracts/licenses';

/** The license form: days as YYYY-MM-DD (what DateInput holds), the location as a Select value. */
export type LicenseFormValues = { locationId: string | null; dateFrom: string | null; dateTo: string | null; deviceCount: number | string };

/** Today in the browser's calendar, YYYY-MM-DD. */
export function localToday(now = new Date()): string {
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
}

/** A new license runs from today for 14 days (spec sections 4 and 9). */
export function newLicense(locationId: number | null, today = localToday()): LicenseFormValues {
  return { locationId: locationId === null ? null : String(locationId), dateFrom: today, dateTo: addDays(today, NEW_LICENSE_DAYS), deviceCount: 1 };
}

export const valuesOf = (l: License): LicenseFormValues => ({ locationId: String(l.location.id), dateFrom: l.dateFrom, dateTo: l.dateTo, deviceCount: l.deviceCount });

export const inputOf = (v: LicenseFormValues): LicenseInput => ({
  location: { id: Number(v.locationId) },
  dateFrom: v.dateFrom!,
  dateTo: v.dateTo!,
  deviceCount: Number(v.deviceCount),
});

/**
 * Spec section 5 by the contract's own schema (the server applies it too): location, dates and
 * count required, the count within its limits, from not after to. Keys, not texts; a field left
 * empty is "mandatory" whatever the schema's type check says.
 */
export function validateLicense(v: LicenseFormValues): Partial<Record<keyof LicenseFormValues, string>> {
  const empty = (x: unknown) => x === null || x === undefined || x === '';
  const input = {
    location: empty(v.locationId) ? undefined : { id: Number(v.locationId) },
    dateFrom: v.dateFrom ?? undefined,
    dateTo: v.dateTo ?? undefined,
    deviceCount: empty(v.deviceCount) ? undefined : Number(v.deviceCount),
  };
  const errors: Partial<Record<keyof LicenseFormValues, string>> = {};
  for (const issue of licenseInputSchema.safeParse(input).error?.issues ?? []) {
    const field = formFieldOf(String(issue.path[0] ?? '')) as keyof LicenseFormValues;
    errors[field] ??= empty(v[field]) ? 'general.mandatory' : issue.message.includes('.') ? issue.message : 'general.badValue';
  }
  return errors;
}

/** A server field (`location`, `dateTo`) as the form's. */
export const formFieldOf = (field: string) => (field === 'location' || field.startsWith('location.') ? 'locationId' : field);
