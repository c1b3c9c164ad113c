import { HISTORY_RETENTION_DEFAULTS, OFFLINE_MISSED_POLLS_DEFAULT, SETTING_RULES, SMTP_DESTINATION, SMTP_REAUTH, type Setting, type SettingCode, type SettingsSave, type SettingsUpdate, type StartTlsMode } from '@pagewatch/contracts/settings';

/** The settings screen's form: one field per setting the screen shows (spec section 2). */
export type SettingsFormValues = {
  host: string;
  port: number | '';
  username: string;
  /** Write-only: empty keeps the stored password. */
  password: string;
  ssl: boolean;
  trustAll: boolean;
  startTls: StartTlsMode;
  from: string;
  periodicity: string;
  /** No agent is offered an update (issue 44). */
  updatesPaused: boolean;
  storageDays: number | '';
  clearing: boolean;
  /** History kept, in whole months (0: all): days, device events and IP changes, agent runs and print jobs. */
  daysMonths: number | '';
  eventsMonths: number | '';
  runsMonths: number | '';
  /** Hours after which an open alert nobody acknowledged is mailed again (0: never). */
  alertRepeatHours: number | '';
  /** Missed polls after which a device is not available, an alert (issue 54). */
  offlineMissedPolls: number | '';
  /** The user's own password, asked again when where or how mail leaves changes (SMTP_REAUTH); never stored. */
  currentPassword: string;
};

/** Which setting each form field edits. */
export const FIELD_CODES = {
  host: 'SMTP_HOST',
  port: 'SMTP_PORT',
  username: 'SMTP_USERNAME',
  password: 'SMTP_PASSWORD',
  ssl: 'SMTP_SSL',
  trustAll: 'SMTP_TRUST-ALL',
  startTls: 'SMTP_START-TLS',
  from: 'SMTP_FROM',
  periodicity: 'PROCESSES_PERIODICITY',
  updatesPaused: 'AGENT_UPDATES_PAUSED',
  storageDays: 'LOG_STORAGE_DAYS',
  clearing: 'CLEARING_ENABLED',
  daysMonths: 'HISTORY_DAYS_MONTHS',
  eventsMonths: 'HISTORY_EVENTS_MONTHS',
  runsMonths: 'HISTORY_RUNS_MONTHS',
  alertRepeatHours: 'ALERT_REPEAT_HOURS',
  offlineMissedPolls: 'OFFLINE_MISSED_POLLS',
} as const satisfies Record<Exclude<keyof SettingsFormValues, 'currentPassword'>, SettingCode>;
type Field = keyof SettingsFormValues;
type SettingField = keyof typeof FIELD_CODES;

const CODE_FIELDS = Object.fromEntries(Object.entries(FIELD_CODES).map(([f, c]) => [c, f])) as Record<SettingCode, SettingField>;
/** The form field of a setting code the server names in an error. */
export const fieldOfCode = (code: string): string => CODE_FIELDS[code as SettingCode] ?? code;

export function valuesOf(settings: Setting[]): SettingsFormValues {
  const by = new Map(settings.map((s) => [s.code, s]));
  const str = (code: SettingCode) => by.get(code)?.stringValue ?? '';
  const num = (code: SettingCode) => by.get(code)?.numericValue ?? '';
  const flag = (code: SettingCode) => by.get(code)?.flagValue ?? false;
  const ssl = flag('SMTP_SSL');
  return {
    host: str('SMTP_HOST'),
    port: num('SMTP_PORT'),
    username: str('SMTP_USERNAME'),
    password: '',
    ssl,
    trustAll: ssl && flag('SMTP_TRUST-ALL'),
    startTls: (str('SMTP_START-TLS') || 'OPTIONAL') as StartTlsMode,
    from: str('SMTP_FROM'),
    periodicity: String(num('PROCESSES_PERIODICITY') || ''),
    updatesPaused: flag('AGENT_UPDATES_PAUSED'),
    storageDays: num('LOG_STORAGE_DAYS'),
    clearing: flag('CLEARING_ENABLED'),
    // A server that lists no retention yet keeps the defaults.
    daysMonths: by.get('HISTORY_DAYS_MONTHS')?.numericValue ?? HISTORY_RETENTION_DEFAULTS.HISTORY_DAYS_MONTHS,
    eventsMonths: by.get('HISTORY_EVENTS_MONTHS')?.numericValue ?? HISTORY_RETENTION_DEFAULTS.HISTORY_EVENTS_MONTHS,
    runsMonths: by.get('HISTORY_RUNS_MONTHS')?.numericValue ?? HISTORY_RETENTION_DEFAULTS.HISTORY_RUNS_MONTHS,
    alertRepeatHours: by.get('ALERT_REPEAT_HOURS')?.numericValue ?? 0,
    offlineMissedPolls: by.get('OFFLINE_MISSED_POLLS')?.numericValue ?? OFFLINE_MISSED_POLLS_DEFAULT,
    currentPassword: '',
  };
}

/** Whether the form changes any of `codes` from the stored settings. */
function changes(v: SettingsFormValues, stored: Setting[], codes: readonly SettingCode[]): boolean {
  const before = valuesOf(stored);
  return codes.some((code) => {
    const f = CODE_FIELDS[code];
    return typeof v[f] === 'string' ? (v[f] as string).trim() !== before[f] : v[f] !== before[f];
  });
}

/** Whether saving the form needs the user's own password again (contracts SMTP_REAUTH). */
export const needsCurrentPassword = (v: SettingsFormValues, stored: Setting[]) => changes(v, stored, SMTP_REAUTH);

/**
 * Field errors as i18n keys, by the rules the server applies too (contracts SETTING_RULES); with
 * the stored settings, a new SMTP host or port without the stored password typed again.
 */
export function validateSettings(v: SettingsFormValues, stored: Setting[] | null = null): Partial<Record<Field, string>> {
  const value = (f: Field): string | number | boolean | null => {
    const x = v[f];
    if (f === 'periodicity') return x === '' ? null : Number(x);
    return x === '' ? null : x;
  };
  const errors: Partial<Record<Field, string>> = {};
  for (const [f, code] of Object.entries(FIELD_CODES) as [SettingField, SettingCode][]) {
    const key = SETTING_RULES[code]?.(value(f));
    if (key) errors[f] = key;
  }
  const passwordSet = stored?.find((s) => s.code === 'SMTP_PASSWORD')?.isSet ?? false;
  if (stored && passwordSet && !v.password && !errors.password && changes(v, stored, SMTP_DESTINATION)) errors.password = 'settings.passwordAgain';
  if (stored && !v.currentPassword && needsCurrentPassword(v, stored)) errors.currentPassword = 'settings.currentPasswordRequired';
  return errors;
}

/** Every shown setting; the password only when a new one was typed. */
export function changesOf(v: SettingsFormValues): SettingsUpdate {
  return [
    { code: 'SMTP_HOST', stringValue: v.host.trim() },
    { code: 'SMTP_PORT', numericValue: v.port === '' ? null : v.port },
    { code: 'SMTP_USERNAME', stringValue: v.username.trim() },
    ...(v.password ? [{ code: 'SMTP_PASSWORD', stringValue: v.password }] : []),
    { code: 'SMTP_SSL', flagValue: v.ssl },
    { code: 'SMTP_TRUST-ALL', flagValue: v.ssl && v.trustAll },
    { code: 'SMTP_START-TLS', stringValue: v.startTls },
    { code: 'SMTP_FROM', stringValue: v.from.trim() },
    { code: 'PROCESSES_PERIODICITY', numericValue: v.periodicity === '' ? null : Number(v.periodicity) },
    { code: 'AGENT_UPDATES_PAUSED', flagValue: v.updatesPaused },
    { code: 'LOG_STORAGE_DAYS', numericValue: v.storageDays === '' ? null : v.storageDays },
    { code: 'CLEARING_ENABLED', flagValue: v.clearing },
    { code: 'HISTORY_DAYS_MONTHS', numericValue: v.daysMonths === '' ? null : v.daysMonths },
    { code: 'HISTORY_EVENTS_MONTHS', numericValue: v.eventsMonths === '' ? null : v.eventsMonths },
    { code: 'HISTORY_RUNS_MONTHS', numericValue: v.runsMonths === '' ? null : v.runsMonths },
    { code: 'ALERT_REPEAT_HOURS', numericValue: v.alertRepeatHours === '' ? null : v.alertRepeatHours },
    { code: 'OFFLINE_MISSED_POLLS', numericValue: v.offlineMissedPolls === '' ? null : v.offlineMissedPolls },
  ];
}

/** The PUT body: the changes, with the user's own password when it was asked for. */
export const saveBodyOf = (v: SettingsFormValues): SettingsSave => (v.currentPassword ? { changes: changesOf(v), currentPassword: v.currentPassword } : changesOf(v));
