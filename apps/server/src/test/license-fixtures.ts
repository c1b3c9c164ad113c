import { sql } from 'drizzle-orm';
import { addDays, type LicenseTerms } from '@pagewatch/contracts/licenses';
import { bearer, type createTestApp } from './test-app.ts';
import { localToday } from '../modules/licenses/license-status.ts';

type App = Awaited<ReturnType<typeof createTestApp>>;

/** A multipart upload of `content` as the file `filename` in the field `field`. */
export function uploadLicense(t: App, token: string, filename: string, content: string | Buffer, field = 'licenseFile', lang = 'en') {
  const boundary = 'licenseboundary';
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    Buffer.isBuffer(content) ? content : Buffer.from(content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return t.app.inject({ method: 'POST', url: '/api/instance-license', payload, headers: { ...bearer(token), 'content-type': `multipart/form-data; boundary=${boundary}`, 'accept-language': lang } });
}

/** Terms for this instance: from today for `days` days, `deviceCount` devices. */
export const termsFor = (instanceId: string, over: Partial<LicenseTerms> = {}): LicenseTerms => ({
  instanceId,
  companyName: 'Acme Ltd',
  dateFrom: localToday(),
  dateTo: addDays(localToday(), 365),
  deviceCount: 100,
  issuedAt: new Date().toISOString(),
  ...over,
});

/** `n` devices at the location, straight to the database; `managed` false: detected, not serviced. */
export async function addDevices(t: App, locationId: number, n: number, managed = true) {
  for (let i = 0; i < n; i++) {
    const serial = `LIC${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
    await t.ctx.db.execute(sql`INSERT INTO devices (location_id, ip, serial_number, model_code, managed_flag) VALUES (${locationId}, '127.0.0.1', ${serial}, 'Lic 1', ${managed})`);
  }
}
