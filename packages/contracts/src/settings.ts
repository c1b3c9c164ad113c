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
 * The settings to change. For a write-only setting, a missing or null value keeps the stored one
 * and an empty string clears it.
 */
export const settingChangesSchema = z
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
export type SettingsUpdate = z.infer<typeof settingChangesSchema>;

/**
 * `PUT /api/settings`: the changes alone, or with the caller's own password, which a change of
 * where or how mail leaves (SMTP_REAUTH) needs (issue 52).
 */
export const settingsUpdateSchema = z.union([
  settingChangesSchema,
  z.object({ changes: settingChangesSchema, currentPassword: z.string().max(1000).optional() }),
]);
export type SettingsSave = z.infer<typeof settingsUpdateSchema>;

/** Spec sections 5 and 9: the choices and ranges the settings form offers. */
export const PROCESS_PERIODICITIES = [5, 10, 15, 20, 30, 60] as const;
export const START_TLS_MODES = ['OPTIONAL', 'DISABLED', 'REQUIRED'] as const;
export type StartTlsMode = (typeof START_TLS_MODES)[number];
export const LOG_STORAGE_DAYS_MAX = 3650;
/** The most hours ALERT_REPEAT_HOURS takes (a month); 0 is never. */
export const ALERT_REPEAT_HOURS_MAX = 720;
/** OFFLINE_MISSED_POLLS (issue 54): polls in a row a known device may miss before it is not available (an alert); 2 by default, at most 100. */
export const OFFLINE_MISSED_POLLS_DEFAULT = 2;
export const OFFLINE_MISSED_POLLS_MAX = 100;

/**
 * How many months each kind of history is kept (issue 40; 0 keeps everything): device, supply
 * and user days; device events and IP changes; agent runs and print queue jobs. The history
 * housekeeping job drops whole months older than that. The event log keeps LOG_STORAGE_DAYS.
 */
export const HISTORY_RETENTION_DEFAULTS = { HISTORY_DAYS_MONTHS: 36, HISTORY_EVENTS_MONTHS: 12, HISTORY_RUNS_MONTHS: 12 } as const;
export type HistoryRetentionCode = keyof typeof HISTORY_RETENTION_DEFAULTS;
export const HISTORY_MONTHS_MAX = 120;

/** The settings screen's groups (spec section 2, Settings), in the order shown. */
export const SETTING_GROUPS = {
  smtp: ['SMTP_HOST', 'SMTP_PORT', 'SMTP_USERNAME', 'SMTP_PASSWORD', 'SMTP_SSL', 'SMTP_TRUST-ALL', 'SMTP_START-TLS', 'SMTP_FROM'],
  agent: ['PROCESSES_PERIODICITY', 'AGENT_UPDATES_PAUSED'],
  logs: ['LOG_STORAGE_DAYS', 'CLEARING_ENABLED'],
  history: ['HISTORY_DAYS_MONTHS', 'HISTORY_EVENTS_MONTHS', 'HISTORY_RUNS_MONTHS'],
  alerts: ['ALERT_REPEAT_HOURS', 'OFFLINE_MISSED_POLLS'],
} as const;
export type SettingCode = (typeof SETTING_GROUPS)[keyof typeof SETTING_GROUPS][number];

/**
 * Where the SMTP password is sent. A change of either needs the password given again or cleared
 * (security.md, write-only secrets): the server refuses it, and the form asks for it.
 */
export const SMTP_DESTINATION: readonly SettingCode[] = ['SMTP_HOST', 'SMTP_PORT'];

/**
 * Where and how the instance's mail leaves, password resets included: a change of any needs the
 * caller's own password again (`currentPassword`, issue 52), so a stolen session alone cannot
 * read the mail meant for others.
 */
export const SMTP_REAUTH: readonly SettingCode[] = ['SMTP_HOST', 'SMTP_PORT', 'SMTP_USERNAME', 'SMTP_SSL', 'SMTP_TRUST-ALL', 'SMTP_START-TLS', 'SMTP_FROM'];

/**
 * Spec section 4: SSL on takes port 465, or 587 when start-TLS is REQUIRED; SSL off takes 25
 * (and clears trust-all, which only SSL offers).
 */
export const SMTP_PORTS = { plain: 25, ssl: 465, submission: 587 } as const;
export function smtpPortFor(ssl: boolean, startTls: StartTlsMode): number {
  if (!ssl) return SMTP_PORTS.plain;
  return startTls === 'REQUIRED' ? SMTP_PORTS.submission : SMTP_PORTS.ssl;
}

const IPV4 = z.ipv4();
const IPV6 = z.ipv6();
const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
/** An IP address, or a host name that is not a malformed address (`1.2.3`). */
export const isHostOrIp = (s: string) =>
  IPV4.safeParse(s).success || IPV6.safeParse(s).success || (HOST_NAME.test(s) && !/^[\d.]+$/.test(s));

const optionalEmail = z.union([z.literal(''), z.email('general.badEmail')]);

const historyMonths = (v: string | number | boolean | null) =>
  Number.isInteger(v) && (v as number) >= 0 && (v as number) <= HISTORY_MONTHS_MAX ? null : 'settings.badHistoryMonths';

/**
 * Spec section 5: the rule of each setting that has one, as a message key for a value that
 * breaks it. The server checks every change with it and the settings screen checks its form
 * with it, so both say the same.
 */
export const SETTING_RULES: Partial<Record<SettingCode, (v: string | number | boolean | null) => string | null>> = {
  SMTP_HOST: (v) => {
    const s = typeof v === 'string' ? v.trim() : '';
    if (!s) return 'general.mandatory';
    return isHostOrIp(s) ? null : 'settings.badHost';
  },
  SMTP_PORT: (v) => (v === null || v === '' ? 'general.mandatory' : Number.isInteger(v) && (v as number) >= 1 && (v as number) <= 65535 ? null : 'settings.badPort'),
  SMTP_FROM: (v) => (optionalEmail.safeParse(typeof v === 'string' ? v.trim() : v ?? '').success ? null : 'general.badEmail'),
  'SMTP_START-TLS': (v) => ((START_TLS_MODES as readonly unknown[]).includes(v) ? null : 'settings.badStartTls'),
  PROCESSES_PERIODICITY: (v) => (v === null ? 'general.mandatory' : (PROCESS_PERIODICITIES as readonly unknown[]).includes(v) ? null : 'settings.badPeriodicity'),
  LOG_STORAGE_DAYS: (v) => (Number.isInteger(v) && (v as number) >= 0 && (v as number) <= LOG_STORAGE_DAYS_MAX ? null : 'settings.badStorageDays'),
  HISTORY_DAYS_MONTHS: (v) => historyMonths(v),
  HISTORY_EVENTS_MONTHS: (v) => historyMonths(v),
  HISTORY_RUNS_MONTHS: (v) => historyMonths(v),
  ALERT_REPEAT_HOURS: (v) => (Number.isInteger(v) && (v as number) >= 0 && (v as number) <= ALERT_REPEAT_HOURS_MAX ? null : 'settings.badRepeatHours'),
  OFFLINE_MISSED_POLLS: (v) => (Number.isInteger(v) && (v as number) >= 1 && (v as number) <= OFFLINE_MISSED_POLLS_MAX ? null : 'settings.badMissedPolls'),
};

/** `POST /api/settings/test-email`: sends a test message with the saved SMTP settings. */
export const testEmailSchema = z.object({ to: text(256).trim().min(1, 'general.mandatory').email('general.badEmail') });
export type TestEmail = z.infer<typeof testEmailSchema>;
