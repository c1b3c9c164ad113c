import { addDays, isoDay, LICENSE_MAX_DEVICES, NEW_LICENSE_DAYS, type License, type LicenseInput } from '@pagewatch/contracts/licenses';

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

/** Spec section 5: location, dates and count required, count at least 1, from not after to. Keys, not texts. */
export function validateLicense(v: LicenseFormValues): Partial<Record<keyof LicenseFormValues, string>> {
  const errors: Partial<Record<keyof LicenseFormValues, string>> = {};
  if (!v.locationId) errors.locationId = 'general.mandatory';
  if (!v.dateFrom) errors.dateFrom = 'general.mandatory';
  if (!v.dateTo) errors.dateTo = 'general.mandatory';
  const count = Number(v.deviceCount);
  if (v.deviceCount === '' || v.deviceCount === null) errors.deviceCount = 'general.mandatory';
  else if (!Number.isInteger(count) || count < 1 || count > LICENSE_MAX_DEVICES) errors.deviceCount = 'licenses.badCount';
  if (v.dateFrom && v.dateTo && v.dateFrom > v.dateTo) errors.dateTo = 'licenses.datesReversed';
  return errors;
}

/** What the date inputs accept typed: dd.MM.yyyy (or YYYY-MM-DD). */
export const parseDay = (input: string) => isoDay(input.trim());

/** A server field (`location`, `dateTo`) as the form's. */
export const formFieldOf = (field: string) => (field === 'location' || field.startsWith('location.') ? 'locationId' : field);
