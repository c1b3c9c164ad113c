import { describe, expect, it } from 'vitest';
import { reportColumns } from '@pagewatch/contracts/reports';
import { defaultFilter, exportColumns, requestOf, requestQuery, restoreFilter, withDate, withPeriodType } from './report-filter.ts';

const today = '2026-11-25';

describe('report filter', () => {
  it('starts on the last month; installed consumables on today, without a period in the request', () => {
    const f = defaultFilter('DEVICE_COUNTERS', 'Counters', today);
    expect(f).toMatchObject({ title: 'Counters', periodType: 'LAST_MONTH', from: '2026-10-01', to: '2026-10-31' });
    const i = defaultFilter('INSTALLED_CONSUMABLES', 'Installed', today);
    expect(i).toMatchObject({ periodType: 'FREE_CHOICE', from: today, to: today });
    expect(requestOf(i, 'INSTALLED_CONSUMABLES')).toEqual({ location: [], printerType: [], colorType: [], paperFormat: [] });
  });

  it('sets the dates from a period type, and turns to a free choice when a date is edited', () => {
    const f = withPeriodType(defaultFilter('DEVICE_COUNTERS', 'C', today), 'CURRENT_QUARTER', today);
    expect(f).toMatchObject({ periodType: 'CURRENT_QUARTER', from: '2026-10-01', to: today });
    const edited = withDate(f, 'to', '2026-11-10');
    expect(edited).toMatchObject({ periodType: 'FREE_CHOICE', from: '2026-10-01', to: '2026-11-10' });
    expect(withPeriodType(edited, 'FREE_CHOICE', today)).toMatchObject({ from: '2026-10-01', to: '2026-11-10' });
  });

  it('swaps from and to when from comes later', () => {
    const f = withDate(defaultFilter('PART_REPLACEMENTS', 'P', today), 'from', '2026-11-20');
    expect(f).toMatchObject({ periodType: 'FREE_CHOICE', from: '2026-10-31', to: '2026-11-20' });
  });

  it('restores a named period for today, a free choice as it was, and drops what does not fit', () => {
    const saved = { title: 'Mine', periodType: 'LAST_WEEK', from: '2025-01-01', to: '2025-01-07', location: [3, 'x', -1], colorType: ['COLOR', 5] };
    expect(restoreFilter(saved, 'DEVICE_AVAILABILITY', 'A', today)).toMatchObject({ title: 'Mine', periodType: 'LAST_WEEK', from: '2026-11-16', to: '2026-11-22', location: [3], colorType: ['COLOR'] });
    expect(restoreFilter({ ...saved, periodType: 'FREE_CHOICE' }, 'DEVICE_AVAILABILITY', 'A', today)).toMatchObject({ from: '2025-01-01', to: '2025-01-07' });
    expect(restoreFilter({ periodType: 'FREE_CHOICE', from: '2020-01-01', to: 'soon' }, 'DEVICE_AVAILABILITY', 'A', today)).toMatchObject({ periodType: 'LAST_MONTH', from: '2026-10-01', to: '2026-10-31' });
    expect(restoreFilter({ periodType: 'LAST_YEAR' }, 'INSTALLED_CONSUMABLES', 'I', today)).toMatchObject({ periodType: 'FREE_CHOICE', from: today, to: today });
    expect(restoreFilter('junk', 'DEVICE_COUNTERS', 'C', today).periodType).toBe('LAST_MONTH');
  });

  it('writes arrays as repeated parameters', () => {
    const f = { ...defaultFilter('DEVICE_COUNTERS', 'C', today), location: [2, 5], colorType: ['COLOR'] };
    expect(requestQuery(requestOf(f, 'DEVICE_COUNTERS'))).toBe('from=2026-10-01&to=2026-10-31&location=2&location=5&colorType=COLOR');
  });

  it('gives a meter-read file every meter with its read days, shown in the grid or not, after the grid\'s columns in their order (issue 54)', () => {
    // The grid as a user left it: total's last read first, black hidden, nothing else ticked.
    const grid = { columnOrder: ['serialNumber', 'total101Last', 'location', 'monoPages', 'total101First'], hidden: ['monoPages'] };
    const file = exportColumns('METER_READS', grid);
    expect(file.slice(0, 4)).toEqual(['serialNumber', 'total101Last', 'location', 'total101First']);
    for (const f of ['total101FirstDate', 'total101LastDate', 'monoPages', 'copiesFirst', 'copiesLastDate', 'copiesPages', 'scansPages', 'a3Pages', 'a4Last', 'a3Bw112Pages', 'a4Color123FirstDate', 'periodFrom', 'periodTo', 'dataQuality']) {
      expect(file, f).toContain(f);
    }
    // Each once, and every one a column the report's file may hold.
    expect(new Set(file).size).toBe(file.length);
    expect(file.every((f) => reportColumns('METER_READS').includes(f))).toBe(true);
    // Every column ticked: still within the download's limit of 100 columns.
    expect(exportColumns('METER_READS', { columnOrder: reportColumns('METER_READS'), hidden: [] }).length).toBeLessThanOrEqual(100);
    // Other reports hold what the grid shows.
    expect(exportColumns('DEVICE_COUNTERS', { columnOrder: ['serialNumber', 'totalDiff', 'a3Diff'], hidden: ['a3Diff'] })).toEqual(['serialNumber', 'totalDiff']);
  });
});
