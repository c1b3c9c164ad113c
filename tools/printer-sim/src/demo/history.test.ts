import { describe, expect, it } from 'vitest';
import type { Reading } from '@pagewatch/contracts/reading';
import { emptyCounters, readingSchema } from '@pagewatch/contracts/reading';
import { backfillReadings, historyReadingId } from './history.ts';

const supply = (index: number, colorant: string, percent: number): Reading['supplies'][number] => ({
  index, type: 'toner', typeInferred: false, supplyClass: 'consumed', description: `${colorant} toner`, colorant, partNumber: null,
  partSerialNumber: null, unit: 'percent', level: percent, maxCapacity: 100, levelState: null, percent,
});

const current: Reading = {
  schema: 'pagewatch/reading@1', readAt: '2026-06-15T09:00:00.000Z', profileId: 'hp', modelsVersion: 1, sysObjectID: '1.3.6.1.4.1.11.2.3.9.1',
  sysDescr: 'HP', vendor: 'HP', model: 'Color LaserJet', serialNumber: 'CNB1234', macAddress: null, firmware: null, hostName: null, location: null,
  isPrinter: true, deviceType: 'PRINTER', colorType: 'COLOR', paperFormat: 'A4',
  status: { deviceStatus: 'running', printerStatus: 'idle', errors: [], errorStateHex: '0000' },
  counters: { ...emptyCounters(), total: 200_000, totalUnit: 'impressions', powerOn: 10, mono: 150_000, color: 50_000, duplex: 9000, vendor: [{ key: 'total', name: 'Total', oid: '1.3.6.1.4.1.11.1', value: 200_000 }] },
  supplies: [supply(1, 'black', 40), supply(2, 'cyan', 80)],
  trays: [], problems: [],
};

describe('demo history', () => {
  const options = { days: 365, today: new Date('2026-06-15T09:00:00Z'), seed: 1, pagesPerDay: 300, lifePages: new Map([[1, 3000], [2, 2400]]) };

  it('gives a valid reading a day, oldest first, ending before today with counters that only grow', () => {
    const history = backfillReadings(current, options);
    expect(history).toHaveLength(365);
    expect(history[0]!.readAt.slice(0, 10)).toBe('2025-06-15');
    expect(history[364]!.readAt.slice(0, 10)).toBe('2026-06-14');
    for (const r of history) expect(readingSchema.safeParse(r).success).toBe(true);
    const totals = history.map((r) => r.counters.total!);
    for (let i = 1; i < totals.length; i++) expect(totals[i]!).toBeGreaterThanOrEqual(totals[i - 1]!);
    expect(totals[364]!).toBeLessThan(200_000);
  });

  it('drains supplies with the pages and shows replacements', () => {
    const levels = backfillReadings(current, options).map((r) => r.supplies[0]!.percent!);
    expect(levels.every((p) => p >= 0 && p <= 100)).toBe(true);
    const jumps = levels.filter((p, i) => i > 0 && p > levels[i - 1]! + 30);
    expect(jumps.length).toBeGreaterThan(5);
  });

  it('starts when a young printer printed its first page, and is the same each time', () => {
    const young = { ...current, counters: { ...current.counters, total: 5000 } };
    const history = backfillReadings(young, options);
    expect(history.length).toBeLessThan(365);
    expect(history.every((r) => r.counters.total! > 0)).toBe(true);
    expect(backfillReadings(current, options)).toEqual(backfillReadings(current, options));
    expect(historyReadingId('CNB1234', '2026-01-01')).toBe(historyReadingId('CNB1234', '2026-01-01'));
    expect(historyReadingId('CNB1234', '2026-01-01')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
