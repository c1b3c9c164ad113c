import { describe, expect, it } from 'vitest';
import type { Setting } from '@pagewatch/contracts/settings';
import { validateSettings, valuesOf } from './settings-form-values.ts';

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
    const kept = valuesOf(stored);
    expect(validateSettings({ ...kept, from: 'pagewatch@example.com' }, stored)).toEqual({});
    for (const move of [{ host: 'collector.example.net' }, { port: 25 }]) {
      expect(validateSettings({ ...kept, ...move }, stored), JSON.stringify(move)).toEqual({ password: 'settings.passwordAgain' });
      expect(validateSettings({ ...kept, ...move, password: 'typed-again' }, stored)).toEqual({});
    }
    const unset = stored.map((s) => (s.code === 'SMTP_PASSWORD' ? { ...s, isSet: false } : s));
    expect(validateSettings({ ...kept, host: 'collector.example.net' }, unset)).toEqual({});
  });
});
