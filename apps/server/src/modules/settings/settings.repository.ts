import { asc, eq, inArray, ne } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/app-error.ts';
import type { SmtpSettings } from '../../lib/mailer.ts';
import { settings } from '../../db/schema/settings.ts';

export type SettingRow = typeof settings.$inferSelect;

/** The settings the console shows: all but the SYSTEM component's, by component and code. */
export function shownSettings(db: Db): Promise<SettingRow[]> {
  return db.select().from(settings).where(ne(settings.systemComponent, 'SYSTEM')).orderBy(asc(settings.systemComponent), asc(settings.code));
}

export async function updateSetting(db: Db, code: string, set: Partial<SettingRow>) {
  await db.update(settings).set(set).where(eq(settings.code, code));
}

export type SettingValue = string | number | boolean | Date | null;

/** The values of the given settings by code (a missing or empty one is null). */
export async function settingValues(db: Db, codes: string[]): Promise<Record<string, SettingValue>> {
  const rows = await db.select().from(settings).where(inArray(settings.code, codes));
  const out: Record<string, SettingValue> = Object.fromEntries(codes.map((c) => [c, null]));
  for (const r of rows) {
    out[r.code] =
      r.valueType === 'N' ? r.numericValue : r.valueType === 'F' ? r.flagValue : r.valueType === 'D' ? r.dateValue : r.stringValue || null;
  }
  return out;
}

const SMTP_CODES = ['SMTP_HOST', 'SMTP_PORT', 'SMTP_USERNAME', 'SMTP_PASSWORD', 'SMTP_SSL', 'SMTP_TRUST-ALL', 'SMTP_START-TLS', 'SMTP_FROM'];

/** The SMTP settings for the mailer; SMTP_NOT_CONFIGURED while host, port or sender is missing. */
export async function smtpSettings(db: Db): Promise<SmtpSettings> {
  const s = await settingValues(db, SMTP_CODES);
  if (!s.SMTP_HOST || !s.SMTP_PORT || !s.SMTP_FROM) throw new AppError('SMTP_NOT_CONFIGURED');
  const startTls = String(s['SMTP_START-TLS'] ?? 'OPTIONAL');
  return {
    host: String(s.SMTP_HOST),
    port: Number(s.SMTP_PORT),
    username: s.SMTP_USERNAME ? String(s.SMTP_USERNAME) : null,
    password: s.SMTP_PASSWORD ? String(s.SMTP_PASSWORD) : null,
    ssl: s.SMTP_SSL === true,
    trustAll: s['SMTP_TRUST-ALL'] === true,
    startTls: startTls === 'DISABLED' || startTls === 'REQUIRED' ? startTls : 'OPTIONAL',
    from: String(s.SMTP_FROM),
  };
}
