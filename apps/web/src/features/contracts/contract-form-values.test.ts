import { describe, expect, it } from 'vitest';
import { daysText, emptyContract, inputOf, metersFree, validateContract, validateDevice, validateDeviceChange } from './contract-form-values.ts';

/** The contract screen's checks (issue 54): each field refused names its own message, as the server would. */
describe('the contract form', () => {
  const good = { ...emptyContract(), name: 'Front office', locationId: '3', startsOn: '2026-10-01' };

  it('accepts a whole contract and sends it as the API takes it, every meter priced', () => {
    expect(validateContract(good)).toEqual({});
    const input = inputOf({ ...good, includedPages: 'POOLED', endsOn: '2027-09-30', prices: [{ meter: 'a3', price: '0,02', includedPages: '500' }, { meter: 'total', price: '0.0085', includedPages: 0 }] });
    expect(input).toMatchObject({ locationId: 3, includedPages: 'POOLED', endsOn: '2027-09-30', prices: [{ meter: 'a3', price: '0,02', includedPages: 500 }, { meter: 'total', includedPages: 0 }] });
    expect(inputOf(good).endsOn).toBeNull();
  });

  it('names each bad field with its message key', () => {
    const errors = validateContract({
      ...good, name: ' ', locationId: null, billingDay: 31, currency: 'euro', baseFee: '1.2.3', startsOn: '01.10.2026', endsOn: '2026-09-01',
      prices: [{ meter: null, price: 'x', includedPages: -1 }, { meter: 'a4', price: '0.01', includedPages: '' }],
    });
    expect(errors).toMatchObject({
      name: 'general.mandatory', locationId: 'general.mandatory', billingDay: 'billing.badBillingDay', currency: 'billing.badCurrency', baseFee: 'billing.badAmount',
      startsOn: 'billing.badDate', 'prices.0.meter': 'general.mandatory', 'prices.0.price': 'billing.badPrice', 'prices.0.includedPages': 'billing.badPages', 'prices.1.includedPages': 'general.badValue',
    });
    expect(validateContract({ ...good, endsOn: '2026-09-01' })).toEqual({ endsOn: 'billing.endBeforeStart' });
    expect(validateContract({ ...good, startsOn: '2100-01-01' })).toEqual({ startsOn: 'billing.dateRange' });
    expect(validateContract({ ...good, prices: [{ meter: 'mono', price: '0.01', includedPages: 0 }, { meter: 'mono', price: '0.02', includedPages: 0 }] })).toEqual({ prices: 'billing.meterTwice' });
  });

  it('offers each price row the meters no other row has', () => {
    const free = metersFree([{ meter: 'mono', price: '', includedPages: 0 }, { meter: 'color', price: '', includedPages: 0 }], 1);
    expect(free).toContain('color');
    expect(free).not.toContain('mono');
    expect(free).toContain('totalLargeTwice');
  });

  it('checks a device added and a device leaving', () => {
    expect(validateDevice({ serialNumber: '', equipmentId: '', joinedOn: '2026-10-01', leftOn: '2026-09-01' })).toEqual({ serialNumber: 'general.mandatory', leftOn: 'billing.endBeforeStart' });
    expect(validateDeviceChange({ equipmentId: 'EQ-1', leftOn: '2026-10-15' }, '2026-10-01')).toEqual({});
    expect(validateDeviceChange({ equipmentId: '', leftOn: '2026-09-15' }, '2026-10-01')).toEqual({ leftOn: 'billing.endBeforeStart' });
    expect(validateDeviceChange({ equipmentId: '', leftOn: '15.10.2026' }, '2026-10-01')).toEqual({ leftOn: 'billing.badDate' });
  });
});

/** The days on the contracts screen are written as every other day of the console (issue 56: no ISO dates shown). */
describe('the days a contract runs', () => {
  const t = ((key: string, v: Record<string, string>) => (key === 'contracts.fromTo' ? `${v.from} to ${v.to}` : `from ${v.from}`)) as unknown as Parameters<typeof daysText>[0];
  it('writes both days as dd.MM.yyyy, or the first alone while it has no end', () => {
    expect(daysText(t, '2026-10-01', '2027-09-30')).toBe('01.10.2026 to 30.09.2027');
    expect(daysText(t, '2026-10-01', null)).toBe('from 01.10.2026');
  });
});
