import { z } from 'zod';
import { text } from './fields.ts';

/** Setting value types: S string, N numeric, D date, F flag (spec section 3, Setting). */
export const SETTING_VALUE_TYPES = ['S', 'N', 'D', 'F'] as const;

/** A setting as the API returns it. A write-only one (the SMTP password) says only whether it is set. */
export const settingSchema = z.object({
  code: z.string(),
  name: z.string(),
  valueType: z.enum(SETTING_VALUE_TYPES),
  stringValue: z.string().nullable(),
  numericValue: z.number().nullable(),
  dateValue: z.string().nullable(),
  flagValue: z.boolean().nullable(),
  systemComponent: z.string(),
  isWriteOnly: z.boolean(),
  isSet: z.boolean(),
});
export type Setting = z.infer<typeof settingSchema>;

/**
 * `PUT /api/settings`: the settings to change. For a write-only setting, a missing or null value
 * keeps the stored one and an empty string clears it.
 */
export const settingsUpdateSchema = z
  .array(
    z.object({
      code: text(64),
      stringValue: text(1000).nullish(),
      numericValue: z.number().min(-1e15).max(1e15).nullish(),
      dateValue: z.iso.datetime().nullish(),
      flagValue: z.boolean().nullish(),
    }),
  )
  .max(100);
export type SettingsUpdate = z.infer<typeof settingsUpdateSchema>;

/** Spec sections 5 and 9: the choices and ranges the settings form offers. */
export const PROCESS_PERIODICITIES = [5, 10, 15, 20, 30, 60] as const;
export const START_TLS_MODES = ['OPTIONAL', 'DISABLED', 'REQUIRED'] as const;
export const LOG_STORAGE_DAYS_MAX = 3650;
