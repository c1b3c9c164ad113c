import { describe, expect, it } from 'vitest';
import { columnTitleKey, SHARED_MESSAGES } from './messages.ts';
import { METER_NAMES, METERS, meterCorrectionInputSchema, meterOfField, meterTitle, meterTitles } from './meter-reads.ts';
import { REPORTS, reportColumns } from './reports.ts';

describe('meter reads', () => {
  it('titles each meter column with its name, its code where it has one, and the figure, in both languages', () => {
    expect(meterTitle(SHARED_MESSAGES.en.meters, 'total101First')).toBe('Total (101): first read');
    expect(meterTitle(SHARED_MESSAGES.en.meters, 'totalLargeTwice102Pages')).toBe('Total, large as two (102): pages');
    expect(meterTitle(SHARED_MESSAGES.ru.meters, 'a4Color123LastDate')).toBe('Цвет малый формат (123): дата последнего показания');
    expect(meterTitle(SHARED_MESSAGES.en.meters, 'copiesPages')).toBe('Copies: pages');
    expect(meterTitle(SHARED_MESSAGES.en.meters, 'serialNumber')).toBeNull();
    expect(Object.values(METERS).map((m) => m.code).filter((c) => c !== null)).toEqual([101, 102, 112, 113, 122, 123]);
    // Every meter has a name in both languages, and every column a title.
    for (const lang of ['en', 'ru'] as const) expect(Object.values(meterTitles(SHARED_MESSAGES[lang].meters)).every((s) => !s.includes('undefined'))).toBe(true);
  });

  it('reads a field back into its meter and figure, and the file holds every meter\'s five figures', () => {
    expect(meterOfField('a3Bw112FirstDate')).toEqual({ meter: 'a3Bw', part: 'FirstDate' });
    expect(meterOfField('totalLargeTwice102Last')).toEqual({ meter: 'totalLargeTwice', part: 'Last' });
    expect(meterOfField('dataQuality')).toBeNull();
    // A billed meter's field carries its code (the attachment name a file's headers=codes gives); without it, it is no field.
    expect(meterOfField('totalFirst')).toBeNull();
    expect(meterOfField('mono113Pages')).toBeNull();
    expect(columnTitleKey('total101First')).toBe('meters.title.total101First');
    expect(SHARED_MESSAGES.ru.meters.title.total101First).toBe('Всего (101): первое показание');
    expect(columnTitleKey('dataQuality')).toBe('meters.column.dataQuality');
    const columns = reportColumns('METER_READS');
    expect(columns.filter((c) => meterOfField(c))).toHaveLength(METER_NAMES.length * 5);
    expect(columns.at(-1)).toBe('dataQuality');
    // The grid offers the same columns (the file's order differs: the grid shows the billed meters first).
    expect(new Set(REPORTS.METER_READS.list.columns.map((c) => c.field))).toEqual(new Set(columns));
  });

  it('takes a correction of a stored meter only, with an offset that is not 0 and a reason', () => {
    const ok = { meter: 'mono', fromDate: '2026-10-20', offset: -5, reason: ' swap ' };
    expect(meterCorrectionInputSchema.parse(ok)).toEqual({ ...ok, reason: 'swap' });
    const key = (v: Record<string, unknown>) => meterCorrectionInputSchema.safeParse({ ...ok, ...v }).error?.issues[0]?.message;
    expect(key({ meter: 'totalLargeTwice' })).toBe('general.badValue');
    expect(key({ offset: 0 })).toBe('meterCorrections.offsetZero');
    expect(key({ fromDate: '2026-13-01' })).toBe('meterCorrections.badDate');
    expect(key({ reason: '' })).toBe('general.mandatory');
  });
});
