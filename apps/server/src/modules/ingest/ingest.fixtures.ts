import { randomUUID } from 'node:crypto';
import type { AgentReading } from '@pagewatch/contracts/agent-api';
import { emptyCounters, type Reading, type ReadingSupply } from '@pagewatch/contracts/reading';
import type { BuiltApp } from '../../app.ts';
import { bearer } from '../../test/test-app.ts';

/** Test and benchmark helpers: readings as an agent would send them, and an agent with ranges. */
export type Printer = {
  serial: string | null;
  vendor?: string;
  model?: string;
  mac?: string | null;
  total: number;
  black?: number | null;
  blackState?: ReadingSupply['levelState'];
  blackSerial?: string | null;
  cyan?: number | null;
  errors?: string[];
  deviceStatus?: Reading['status']['deviceStatus'];
};

export function supply(index: number, colorant: string, percent: number | null, extra: Partial<ReadingSupply> = {}): ReadingSupply {
  return {
    index, type: 'toner', typeInferred: false, supplyClass: 'consumed', description: `${colorant} toner`, colorant,
    partNumber: `CF-${colorant}`, partSerialNumber: null, unit: 'percent', level: percent ?? -3, maxCapacity: 100,
    levelState: percent === null ? 'SOME_REMAINING' : null, percent, ...extra,
  };
}

export function reading(p: Printer, readAt = new Date()): Reading {
  const supplies: ReadingSupply[] = [];
  if (p.black !== undefined) supplies.push(supply(1, 'black', p.black, { partSerialNumber: p.blackSerial ?? null, ...(p.blackState ? { levelState: p.blackState } : {}) }));
  if (p.cyan !== undefined) supplies.push(supply(2, 'cyan', p.cyan));
  return {
    schema: 'pagewatch/reading@1', readAt: readAt.toISOString(), profileId: 'generic', modelsVersion: 1,
    sysObjectID: '1.3.6.1.4.1.11.2.3.9.1', sysDescr: `${p.vendor ?? 'HP'} ${p.model ?? 'LaserJet M404'}`,
    vendor: p.vendor ?? 'HP', model: p.model ?? 'LaserJet M404', serialNumber: p.serial, macAddress: p.mac ?? null,
    firmware: '1.0', hostName: 'printer', location: 'Floor 1', isPrinter: true, deviceType: 'PRINTER',
    colorType: p.cyan !== undefined ? 'COLOR' : 'MONO', paperFormat: 'A4',
    status: { deviceStatus: p.deviceStatus ?? 'running', printerStatus: 'idle', errors: p.errors ?? [], errorStateHex: '00' },
    counters: { ...emptyCounters(), total: p.total, totalUnit: 'impressions', mono: p.total, a4: p.total, vendor: [{ key: 'total', name: 'Total', oid: '1.3.6.1.2.1.43.10.2.1.4.1.1', value: p.total }] },
    supplies, trays: [], problems: [],
  };
}

export function agentReading(ip: string, p: Printer, opts: { runId?: string | null; rangeId?: number | null; readAt?: Date } = {}): AgentReading {
  return { id: randomUUID(), runId: opts.runId ?? null, rangeId: opts.rangeId ?? null, ip, port: 161, reading: reading(p, opts.readAt) };
}

export const batch = (readings: AgentReading[]) => ({ batchId: randomUUID(), readings });

/** Creates an agent (and optionally a range for it) through the console API; returns its token. */
export async function createAgent(app: BuiltApp['app'], userToken: string, opts: { name?: string; locationId?: number; range?: { from: string; to: string } } = {}) {
  const locations = (await app.inject({ url: '/api/user-locations/', headers: bearer(userToken) })).json().pageRows as { id: number; code: string }[];
  const locationId = opts.locationId ?? locations.find((l) => l.code === 'DEFAULT')!.id;
  const res = await app.inject({ method: 'POST', url: '/api/agents', headers: bearer(userToken), payload: { name: opts.name ?? 'Agent', location: { id: locationId } } });
  if (res.statusCode !== 200) throw new Error(`create agent: ${res.statusCode} ${res.body}`);
  const agent = res.json() as { id: number; token: string };
  let rangeId: number | null = null;
  if (opts.range) {
    const r = await app.inject({
      method: 'POST', url: '/api/network-ranges', headers: bearer(userToken),
      payload: { type: 'RANGE', from: opts.range.from, to: opts.range.to, port: 161, snmpVersion: '2c', community: 'public', agent: { id: agent.id } },
    });
    if (r.statusCode !== 200) throw new Error(`create range: ${r.statusCode} ${r.body}`);
    rangeId = r.json().id;
  }
  return { agentId: agent.id, token: agent.token, rangeId, locationId };
}

export async function post(app: BuiltApp['app'], token: string, body: unknown) {
  return app.inject({ method: 'POST', url: '/api/agent/readings', headers: bearer(token), payload: body as object });
}
