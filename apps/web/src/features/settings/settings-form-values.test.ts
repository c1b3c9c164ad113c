import { describe, expect, it } from 'vitest';
import type { Setting } from '@pagewatch/contracts/settings';
import { changesOf, needsCurrentPassword, saveBodyOf, validateSettings, valuesOf } from './settings-form-values.ts';

const setting = (code: string, values: Partial<Setting>): Setting => ({
  code, name: code, valueType: 'S', stringValue: null, numericValue: null, dateValue: null, flagValue: null, systemComponent: 'SMTP', isWriteOnly: false, isSet: true, ...values,
});

describe('settings form: the stored SMTP password and a new server', () => {
  const stored = [
    setting('SMTP_HOST', { stringValue: 'mail.example.com' }),
    setting('SMTP_PORT', { valueType: 'N', numericValue: 587 }),
    setting('SMTP_PASSWORD', { isWriteOnly: true }),
    setting('SMTP_START-TLS', { stringValue: 'REQUIRED' }),
    setting('PROCESSES_PERIODICITY', { valueType: 'N', numericValue: 15 }),
    setting('LOG_STORAGE_DAYS', { valueType: 'N', numericValue: 30 }),
  ];

  it('asks for the password again when the host or port change', () => {
    const kept = { ...valuesOf(stored), currentPassword: 'my-own' };
    expect(validateSettings({ ...kept, from: 'pagewatch@example.com' }, stored)).toEqual({});
    for (const move of [{ host: 'collector.example.net' }, { port: 25 }]) {
      expect(validateSettings({ ...kept, ...move }, stored), JSON.stringify(move)).toEqual({ password: 'settings.passwordAgain' });
      expect(validateSettings({ ...kept, ...move, password: 'typed-again' }, stored)).toEqual({});
    }
    const unset = stored.map((s) => (s.code === 'SMTP_PASSWORD' ? { ...s, isSet: false } : s));
    expect(validateSettings({ ...kept, host: 'collector.example.net' }, unset)).toEqual({});
  });

  it("asks for the user's own password when where or how mail leaves changes, and sends it with the changes (issue 52)", () => {
    const kept = valuesOf(stored);
    expect(needsCurrentPassword({ ...kept, periodicity: '30' }, stored)).toBe(false);
    expect(validateSettings({ ...kept, periodicity: '30' }, stored)).toEqual({});
    expect(saveBodyOf({ ...kept, periodicity: '30' })).toEqual(changesOf({ ...kept, periodicity: '30' }));
    for (const move of [{ from: 'other@example.net' }, { username: 'someone' }, { ssl: true }, { startTls: 'DISABLED' as const }]) {
      expect(needsCurrentPassword({ ...kept, ...move }, stored), JSON.stringify(move)).toBe(true);
      expect(validateSettings({ ...kept, ...move }, stored), JSON.stringify(move)).toMatchObject({ currentPassword: 'settings.currentPasswordRequired' });
    }
    const typed = { ...kept, from: 'other@example.net', currentPassword: 'my-own' };
    expect(validateSettings(typed, stored)).toEqual({});
    expect(saveBodyOf(typed)).toEqual({ changes: changesOf(typed), currentPassword: 'my-own' });
  });
});

describe('settings form: how long history is kept', () => {
  const stored: Setting[] = [
    { code: 'HISTORY_DAYS_MONTHS', numericValue: 24 },
    { code: 'HISTORY_RUNS_MONTHS', numericValue: 0 },
  ] as Setting[];

  it('shows the stored months, the defaults where the server lists none, and saves them', () => {
    const v = valuesOf(stored);
    expect([v.daysMonths, v.eventsMonths, v.runsMonths]).toEqual([24, 12, 0]);
    expect(changesOf({ ...v, eventsMonths: 6 }).filter((c) => c.code.startsWith('HISTORY_'))).toEqual([
      { code: 'HISTORY_DAYS_MONTHS', numericValue: 24 },
      { code: 'HISTORY_EVENTS_MONTHS', numericValue: 6 },
      { code: 'HISTORY_RUNS_MONTHS', numericValue: 0 },
    ]);
  });

  it('refuses what the server refuses: past 120 months, parts of a month, nothing', () => {
    const v = valuesOf(stored);
    expect(validateSettings({ ...v, daysMonths: 121, eventsMonths: 1.5, runsMonths: '' })).toMatchObject({
      daysMonths: 'settings.badHistoryMonths',
      eventsMonths: 'settings.badHistoryMonths',
      runsMonths: 'settings.badHistoryMonths',
    });
  });
});
