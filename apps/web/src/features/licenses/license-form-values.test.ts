import { describe, expect, it } from 'vitest';
import { isoDay } from '@pagewatch/contracts/licenses';
import { inputOf, newLicense, validateLicense } from './license-form-values.ts';

describe('license form', () => {
  it('starts a new license today, for 14 days', () => {
    expect(newLicense(7, '2026-02-20')).toEqual({ locationId: '7', dateFrom: '2026-02-20', dateTo: '2026-03-06', deviceCount: 1 });
  });

  it('asks for every field, a count of at least 1 and dates in order', () => {
    expect(validateLicense({ locationId: null, dateFrom: null, dateTo: null, deviceCount: '' })).toEqual({
      locationId: 'general.mandatory', dateFrom: 'general.mandatory', dateTo: 'general.mandatory', deviceCount: 'general.mandatory',
    });
    expect(validateLicense({ locationId: '1', dateFrom: '2026-02-02', dateTo: '2026-02-01', deviceCount: 0 })).toEqual({ dateTo: 'licenses.datesReversed', deviceCount: 'licenses.badCount' });
    expect(validateLicense({ locationId: '1', dateFrom: '2026-02-01', dateTo: '2026-02-01', deviceCount: 1 })).toEqual({});
  });

  it('applies the contract’s rules, not a copy of them: a day the server refuses is refused here', () => {
    expect(validateLicense({ locationId: '1', dateFrom: '1999-12-31', dateTo: '2026-02-01', deviceCount: 1 })).toEqual({ dateFrom: 'licenses.badDate' });
    expect(validateLicense({ locationId: '1', dateFrom: '2026-02-01', dateTo: '2026-02-01', deviceCount: 2.5 })).toEqual({ deviceCount: 'licenses.badCount' });
  });

  it('a day of the API reads dd.MM.yyyy too, and the form sends YYYY-MM-DD', () => {
    expect(isoDay('01.03.2026')).toBe('2026-03-01');
    expect(isoDay('31.02.2026')).toBeNull();
    expect(inputOf({ locationId: '3', dateFrom: '2026-03-01', dateTo: '2026-03-15', deviceCount: '25' })).toEqual({ location: { id: 3 }, dateFrom: '2026-03-01', dateTo: '2026-03-15', deviceCount: 25 });
  });
});
