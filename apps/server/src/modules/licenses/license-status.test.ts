import { describe, expect, it } from 'vitest';
import { addDays } from '@pagewatch/contracts/licenses';
import { licenseStatus } from './license-status.ts';

const today = '2026-11-25';
const terms = (dateTo: string, deviceCount = 100, dateFrom = '2026-01-01') => ({ dateFrom, dateTo, deviceCount });
const status = (t: ReturnType<typeof terms> | null, active = 0, signatureOk?: boolean) => licenseStatus({ terms: t, activeDeviceCount: active, today, signatureOk });

describe('license status at its boundaries', () => {
  it('ends within 14 days: WARNING from 14 days left, OK at 15', () => {
    expect(status(terms(addDays(today, 15)))).toMatchObject({ status: 'OK' });
    expect(status(terms(addDays(today, 14)))).toMatchObject({ status: 'WARNING', key: 'licenses.describe.endsSoon', params: { days: 14 } });
    expect(status(terms(today))).toMatchObject({ status: 'WARNING', params: { days: 0 } });
  });

  it('ended: ERROR the day after its last day', () => {
    expect(status(terms(addDays(today, -1)))).toMatchObject({ status: 'ERROR', key: 'licenses.describe.expired' });
  });

  it('90% of the count: WARNING from 90 of 100, OK at 89', () => {
    const later = addDays(today, 100);
    expect(status(terms(later), 89)).toMatchObject({ status: 'OK' });
    expect(status(terms(later), 90)).toMatchObject({ status: 'WARNING', key: 'licenses.describe.nearlyFull' });
    expect(status(terms(later), 100)).toMatchObject({ status: 'WARNING' });
    // 90% of 7 is 6.3: 6 devices are below it, 7 reach it (no floating-point rounding).
    expect(status(terms(later, 7), 6)).toMatchObject({ status: 'OK' });
    expect(status(terms(later, 7), 7)).toMatchObject({ status: 'WARNING' });
  });

  it('count exceeded: ERROR at one device more', () => {
    expect(status(terms(addDays(today, 100)), 101)).toMatchObject({ status: 'ERROR', key: 'licenses.describe.exceeded', params: { active: 101, count: 100 } });
  });

  it('a signature that fails is ERROR whatever the dates; none and not yet begun are WARNING', () => {
    expect(status(terms(addDays(today, 100)), 0, false)).toMatchObject({ status: 'ERROR', key: 'licenses.describe.signature' });
    expect(status(null)).toMatchObject({ status: 'WARNING', key: 'licenses.describe.none' });
    expect(status(terms(addDays(today, 100), 100, addDays(today, 1)))).toMatchObject({ status: 'WARNING', key: 'licenses.describe.notYet' });
  });
});
