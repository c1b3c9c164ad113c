import { describe, expect, it } from 'vitest';
import { periodDays, reportColumns, reportFilterSchema, REPORTS } from './reports.ts';

describe('report periods', () => {
  // Wednesday 25 November 2026.
  const today = '2026-11-25';
  it.each([
    ['CURRENT_WEEK', '2026-11-23', today],
    ['CURRENT_MONTH', '2026-11-01', today],
    ['CURRENT_QUARTER', '2026-10-01', today],
    ['CURRENT_YEAR', '2026-01-01', today],
    ['LAST_WEEK', '2026-11-16', '2026-11-22'],
    ['LAST_MONTH', '2026-10-01', '2026-10-31'],
    ['LAST_QUARTER', '2026-07-01', '2026-09-30'],
    ['LAST_YEAR', '2025-01-01', '2025-12-31'],
  ] as const)('%s runs from %s to %s', (type, from, to) => {
    expect(periodDays(type, today)).toEqual({ from, to });
  });

  it('crosses year ends and month lengths', () => {
    expect(periodDays('LAST_MONTH', '2026-01-15')).toEqual({ from: '2025-12-01', to: '2025-12-31' });
    expect(periodDays('LAST_MONTH', '2024-03-31')).toEqual({ from: '2024-02-01', to: '2024-02-29' });
    expect(periodDays('LAST_QUARTER', '2026-02-10')).toEqual({ from: '2025-10-01', to: '2025-12-31' });
    // A Monday is the first day of its own week; a Sunday the last.
    expect(periodDays('CURRENT_WEEK', '2026-11-23')).toEqual({ from: '2026-11-23', to: '2026-11-23' });
    expect(periodDays('LAST_WEEK', '2026-11-29')).toEqual({ from: '2026-11-16', to: '2026-11-22' });
  });
});

describe('report filter', () => {
  const fields = (input: unknown) => (reportFilterSchema.safeParse(input).error?.issues ?? []).map((i) => `${i.path.join('.')}:${i.message}`);
  it('takes days from 2022 on, with from not after to', () => {
    expect(fields({ from: '2026-10-01', to: '2026-10-31' })).toEqual([]);
    expect(fields({ from: '2021-12-31', to: '2022-01-05' })).toEqual(['from:reports.dateRange']);
    expect(fields({ from: '2026-02-30', to: '2026-03-01' })).toEqual(['from:reports.badDate']);
    expect(fields({ from: '2026-11-02', to: '2026-11-01' })).toEqual(['to:reports.fromAfterTo']);
  });
});

describe('report registry', () => {
  it('lists every column of the row but the server\'s own location id, the shown ones first', () => {
    for (const def of Object.values(REPORTS)) {
      const keys = Object.keys(def.list.row.shape).filter((k) => k !== 'locationId').sort();
      expect(def.list.columns.map((c) => c.field).sort()).toEqual(keys);
      const hidden = def.list.columns.map((c) => c.hidden);
      expect(hidden.indexOf(true)).toBe(hidden.lastIndexOf(false) + 1);
    }
    expect(reportColumns('DEVICE_COUNTERS').slice(0, 7)).toEqual(['location', 'modelCode', 'serialNumber', 'ip', 'bwStart', 'bwEnd', 'bwDiff']);
  });
});
