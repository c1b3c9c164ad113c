import { describe, expect, it } from 'vitest';
import { agentReadingSchema } from '@pagewatch/contracts/agent-api';
import type { AgentReading } from '@pagewatch/contracts/agent-api';
import { emptyCounters, READING_TEXT_MAX } from '@pagewatch/contracts/reading';
import { fitAgentReading } from './fit-reading.ts';

const base = (): AgentReading => ({
  id: '7d0c3f7e-4a43-4b4c-9a0e-0e7f1f0b6c11', runId: null, rangeId: 1, ip: '127.0.0.1', port: 161,
  reading: {
    schema: 'pagewatch/reading@1', readAt: new Date().toISOString(), profileId: 'generic', modelsVersion: 1,
    sysObjectID: '1.3.6.1.4.1.1', sysDescr: 'Printer', vendor: 'HP', model: 'M404', serialNumber: 'SN1', macAddress: null,
    firmware: '1', hostName: 'p', location: 'here', isPrinter: true, deviceType: 'PRINTER', colorType: 'MONO', paperFormat: 'A4',
    status: { deviceStatus: 'running', printerStatus: 'idle', errors: [], errorStateHex: '00' },
    counters: { ...emptyCounters(), total: 1, mono: 1 },
    supplies: [{ index: 1, type: 'toner', typeInferred: false, supplyClass: 'consumed', description: 'Black', colorant: 'black', partNumber: null, partSerialNumber: null, unit: 'percent', level: 50, maxCapacity: 100, levelState: null, percent: 50, source: '1.3.6.1.2.1.43.11.1.1.9.1.1 (Printer-MIB: prtMarkerSuppliesLevel)' }],
    trays: [], problems: [],
  },
});

describe('fitting a reading to the contract', () => {
  it('leaves a reading within the limits as it is', () => {
    const r = base();
    expect(fitAgentReading(r)).toEqual(r);
  });

  it('cuts, cleans and drops what is past a limit, says so, and the result passes the contract', () => {
    const r = base();
    r.reading.serialNumber = 'S'.repeat(2000);
    r.reading.hostName = `a\u0000b${'h'.repeat(300)}`;
    r.reading.model = `${'m'.repeat(249)}\u{1F5A8}`;
    r.reading.counters.total = 1e15;
    r.reading.supplies[0]!.maxCapacity = 2 ** 31;
    r.reading.supplies.push({ ...r.reading.supplies[0]!, index: 2 ** 31, maxCapacity: 10 });
    expect(agentReadingSchema.safeParse(r).success).toBe(false);
    const fitted = fitAgentReading(r);
    expect(agentReadingSchema.safeParse(fitted).success).toBe(true);
    expect(fitted.reading.serialNumber).toHaveLength(READING_TEXT_MAX.serialNumber);
    expect(fitted.reading.hostName).toMatch(/^a bh+$/);
    expect(fitted.reading.model).toBe('m'.repeat(249));
    expect(fitted.reading.counters.total).toBeNull();
    expect(fitted.reading.supplies).toEqual([expect.objectContaining({ index: 1, maxCapacity: null })]);
    expect(fitted.reading.trimmed).toHaveLength(7);
    expect(fitted.reading.trimmed).toEqual(expect.arrayContaining([
      { field: 'serialNumber', action: 'cut' },
      { field: 'model', action: 'cut' },
      { field: 'hostName', action: 'cleaned' },
      { field: 'hostName', action: 'cut' },
      { field: 'counters.total', action: 'dropped' },
      { field: 'supplies.1.index', action: 'dropped' },
      { field: 'supplies.0.maxCapacity', action: 'dropped' },
    ]));
  });
});
