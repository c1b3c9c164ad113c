import { daysBetween, LICENSE_WARNING_DAYS, LICENSE_WARNING_PERCENT, type LicenseStatus } from '@pagewatch/contracts/licenses';

export type StatusInput = {
  /** The license's terms; null when there is none. */
  terms: { dateFrom: string; dateTo: string; deviceCount: number } | null;
  /** Serviced devices now. */
  activeDeviceCount: number;
  /** Today, YYYY-MM-DD (server time). */
  today: string;
  /** False when the stored document no longer verifies against the issuer's key. */
  signatureOk?: boolean;
};

export type StatusResult = { status: LicenseStatus; key: string; params: Record<string, unknown> };

/**
 * The status rules (issue 19): ERROR when the license has ended, its signature fails or the
 * serviced devices exceed its count; WARNING when it ends within 14 days, the devices reach 90%
 * of the count, it has not begun yet or there is none; OK otherwise. The first rule that holds
 * names the description. A status only informs: collection goes on whatever it is.
 */
export function licenseStatus(s: StatusInput): StatusResult {
  if (!s.terms) return { status: 'WARNING', key: 'licenses.describe.none', params: {} };
  const { dateFrom, dateTo, deviceCount } = s.terms;
  const active = s.activeDeviceCount;
  if (s.signatureOk === false) return { status: 'ERROR', key: 'licenses.describe.signature', params: {} };
  if (s.today > dateTo) return { status: 'ERROR', key: 'licenses.describe.expired', params: { date: dateTo } };
  if (active > deviceCount) return { status: 'ERROR', key: 'licenses.describe.exceeded', params: { active, count: deviceCount } };
  if (s.today < dateFrom) return { status: 'WARNING', key: 'licenses.describe.notYet', params: { date: dateFrom } };
  const daysLeft = daysBetween(s.today, dateTo);
  if (daysLeft <= LICENSE_WARNING_DAYS) return { status: 'WARNING', key: 'licenses.describe.endsSoon', params: { date: dateTo, days: daysLeft } };
  // In whole numbers: 0.9 × count in floating point is not always exact.
  if (active * 100 >= deviceCount * LICENSE_WARNING_PERCENT) return { status: 'WARNING', key: 'licenses.describe.nearlyFull', params: { active, count: deviceCount } };
  return { status: 'OK', key: 'licenses.describe.ok', params: { date: dateTo, active, count: deviceCount } };
}

/** Today as YYYY-MM-DD in the server's time zone (license days are calendar days, not instants). */
export function localToday(now = new Date()): string {
  const y = now.getFullYear();
  const m = String(now.getMonth() + 1).padStart(2, '0');
  const d = String(now.getDate()).padStart(2, '0');
  return `${y}-${m}-${d}`;
}
