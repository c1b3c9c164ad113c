import { inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { settings } from '../../db/tables.ts';

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
