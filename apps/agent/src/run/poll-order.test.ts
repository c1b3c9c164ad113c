import { describe, expect, it } from 'vitest';
import { RttTable } from '../snmp/rtt-estimator.ts';
import { pollInTurn, slowestFirst } from './poll-device.ts';

describe('poll order', () => {
  it('puts the slowest devices first and keeps the rest in their order', () => {
    const table = new RttTable();
    table.get('10.0.0.2', 161).sample(1200);
    table.get('10.0.0.3', 161).sample(40);
    const devices = ['10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.4'].map((ip) => ({ ip, port: 161 }));
    expect(slowestFirst(devices, table).map((d) => d.ip)).toEqual(['10.0.0.2', '10.0.0.3', '10.0.0.1', '10.0.0.4']);
    expect(slowestFirst(devices, undefined)).toBe(devices);
  });
});

describe('polling in turn', () => {
  it('asks a device that gave nothing once more, after the rest', async () => {
    const calls: string[] = [];
    const devices = ['10.0.0.1', '10.0.0.2', '10.0.0.3'].map((ip) => ({ ip, port: 161 }));
    await pollInTurn(devices, 1, undefined, async (d, lastTry) => {
      calls.push(`${d.ip}${lastTry ? ' again' : ''}`);
      return d.ip !== '10.0.0.1';
    });
    expect(calls).toEqual(['10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.1 again']);
  });
});
