import dgram from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFleet } from '@pagewatch/printer-sim/fleet';
import type { Fleet } from '@pagewatch/printer-sim/fleet';
import { createDefaultRegistry } from '../profiles/models-pack.loader.ts';
import { AddressRangeError, MAX_RANGE_ADDRESSES, parseMask, parseRangeText, planScan } from './address-range.ts';
import { discoverRange } from './discover.ts';

describe('address ranges', () => {
  it('reads masks as a prefix, dotted or /prefix', () => {
    expect(parseMask('/24')).toBe(24);
    expect(parseMask('255.255.254.0')).toBe(23);
    expect(parseMask('0.0.0.0')).toBe(0);
    expect(() => parseMask('255.0.255.0')).toThrow(AddressRangeError);
    expect(() => parseMask('/33')).toThrow(/longer than 32/);
  });

  it('plans netmask, range and broadcast scans, with loopback broadcasts swept', () => {
    expect(planScan({ type: 'NETMASK', address: '192.0.2.77', mask: '255.255.255.0', from: null, to: null })).toMatchObject({ kind: 'sweep', count: 254 });
    expect(planScan({ type: 'NETMASK', address: '192.0.2.1', mask: '32', from: null, to: null })).toMatchObject({ kind: 'sweep', count: 1 });
    expect(planScan({ type: 'RANGE', address: null, mask: null, from: '10.0.0.250', to: '10.0.1.5' })).toMatchObject({ kind: 'sweep', count: 12 });
    expect(planScan({ type: 'BROADCAST', address: '10.1.2.3', mask: '/24', from: null, to: null })).toMatchObject({ kind: 'broadcast' });
    expect(planScan({ type: 'BROADCAST', address: '127.0.5.1', mask: '/24', from: null, to: null })).toMatchObject({ kind: 'sweep', count: 254, note: expect.stringMatching(/loopback/) });
  });

  it('refuses bad and oversized ranges with a clear message', () => {
    expect(() => planScan({ type: 'RANGE', address: null, mask: null, from: '10.0.0.9', to: '10.0.0.1' })).toThrow(/comes before/);
    expect(() => planScan({ type: 'RANGE', address: null, mask: null, from: '10.0.0.300', to: '10.0.1.1' })).toThrow(/not an IPv4 address/);
    expect(() => planScan({ type: 'NETMASK', address: '10.0.0.0', mask: '/15', from: null, to: null })).toThrow(/at most 65536/);
    expect(planScan({ type: 'RANGE', address: null, mask: null, from: '10.0.0.0', to: '10.0.255.255' })).toMatchObject({ count: MAX_RANGE_ADDRESSES });
    expect(() => parseRangeText('10.0.0.1-10.0.0.2-10.0.0.3')).toThrow(AddressRangeError);
  });
});

describe('discovery over the simulated printers', () => {
  const port = 20_000 + Math.floor(Math.random() * 40_000);
  const registry = createDefaultRegistry();
  // Retried, so a busy test machine does not lose an answer; silent addresses are all in flight at once.
  const fast = { timeoutMs: 400, retries: 1, concurrency: 256 };
  let fleet: Fleet;
  const v2c = { version: '2c' as const, community: 'public' };

  beforeAll(async () => {
    fleet = await startFleet({ count: 12, port, base: '127.0.62.1', seed: 5, speed: 0, randomEvents: false });
  });
  afterAll(async () => {
    await fleet?.stop();
  });

  const simulated = (): string[] => fleet.list().map((p) => p.ip);

  it('netmask finds exactly the simulated printers', async () => {
    const result = await discoverRange({ id: 1, type: 'NETMASK', address: '127.0.62.0', mask: '255.255.255.0', from: null, to: null, port, snmp: v2c }, registry, fast);
    expect(result.error).toBeNull();
    expect(result.scanned).toBe(254);
    expect(result.devices.map((d) => d.ip)).toEqual(simulated());
    expect(result.devices.every((d) => d.isPrinter && d.matched)).toBe(true);
    expect(result.devices.map((d) => d.vendor)).toEqual(fleet.list().map((p) => p.vendor));
  });

  it('an IP range finds exactly the printers inside it (SNMPv1)', async () => {
    const result = await discoverRange({ id: 2, type: 'RANGE', address: null, mask: null, from: '127.0.62.3', to: '127.0.62.7', port, snmp: { version: '1', community: 'public' } }, registry, fast);
    expect(result.devices.map((d) => d.ip)).toEqual(simulated().slice(2, 7));
  });

  it('a broadcast range on loopback falls back to a sweep and finds them all', async () => {
    const result = await discoverRange({ id: 3, type: 'BROADCAST', address: '127.0.62.0', mask: '/24', from: null, to: null, port, snmp: v2c }, registry, fast);
    expect(result.note).toMatch(/loopback/);
    expect(result.devices.map((d) => d.ip)).toEqual(simulated());
  });

  it('discovers with SNMPv3 credentials too (a session per address)', async () => {
    const v3 = { version: '3' as const, user: 'simuser', level: 'noAuthNoPriv' as const, authProtocol: null, authKey: null, privProtocol: null, privKey: null };
    const result = await discoverRange({ id: 8, type: 'NETMASK', address: '127.0.62.0', mask: '/28', from: null, to: null, port, snmp: v3 }, registry, fast);
    expect(result.devices.map((d) => d.ip)).toEqual(simulated());
    expect(result.refused).toEqual([]);
  });

  it('tells an SNMPv3 user the printers refuse apart from silence, so the summary can say why they are missing', async () => {
    const v3 = { version: '3' as const, user: 'nobody', level: 'noAuthNoPriv' as const, authProtocol: null, authKey: null, privProtocol: null, privKey: null };
    const result = await discoverRange({ id: 9, type: 'NETMASK', address: '127.0.62.0', mask: '/28', from: null, to: null, port, snmp: v3 }, registry, fast);
    expect(result.devices).toEqual([]);
    expect(result.refused).toEqual(simulated().map((ip) => ({ ip, reason: 'auth' })));
  });

  it('counts an address that answers with something other than SNMP as refused, not as an empty address', async () => {
    // A service on the SNMP port that is not an SNMP agent: it answers every datagram with text.
    const other = dgram.createSocket('udp4');
    other.on('message', (_packet, from) => other.send('400 Bad Request\r\n', from.port, from.address));
    await new Promise<void>((resolve) => other.bind(port, '127.0.62.14', resolve));
    try {
      const result = await discoverRange({ id: 10, type: 'RANGE', address: null, mask: null, from: '127.0.62.13', to: '127.0.62.14', port, snmp: v2c }, registry, fast);
      expect(result.devices).toEqual([]);
      expect(result.refused).toEqual([{ ip: '127.0.62.14', reason: 'malformed' }]);
    } finally {
      other.close();
    }
  });

  it('finds nothing with the wrong community, and not a printer that is offline', async () => {
    const wrong = await discoverRange({ id: 4, type: 'NETMASK', address: '127.0.62.0', mask: '/28', from: null, to: null, port, snmp: { version: '2c', community: 'nope' } }, registry, fast);
    expect(wrong.devices).toEqual([]);
    fleet.setOffline(0, true);
    try {
      const result = await discoverRange({ id: 5, type: 'NETMASK', address: '127.0.62.0', mask: '/28', from: null, to: null, port, snmp: v2c }, registry, fast);
      expect(result.devices.map((d) => d.ip)).toEqual(simulated().slice(1));
    } finally {
      fleet.setOffline(0, false);
    }
  });

  it('keeps to the range\'s packet cap and still finds everyone', async () => {
    const started = performance.now();
    // 14 addresses, 2 of them silent and asked twice: 16 requests at 20 a second, one at a time.
    const result = await discoverRange({ id: 6, type: 'NETMASK', address: '127.0.62.0', mask: '/28', from: null, to: null, port, snmp: v2c, packetsPerSecond: 20 }, registry, fast);
    expect(result.devices.map((d) => d.ip)).toEqual(simulated());
    expect(performance.now() - started).toBeGreaterThan(650);
  });

  it('reports the addresses it could not probe in time apart, neither found nor empty (issue 53)', async () => {
    // 20 packets a second for a second: most of the /24 is never asked.
    const result = await discoverRange({ id: 11, type: 'NETMASK', address: '127.0.62.0', mask: '/24', from: null, to: null, port, snmp: v2c, packetsPerSecond: 20 }, registry, { ...fast, deadlineMs: 1000 });
    const found = new Set(result.devices.map((d) => d.ip));
    expect(simulated().filter((ip) => !found.has(ip) && !result.unprobed.includes(ip))).toEqual([]);
    expect(result.unprobed.length).toBeGreaterThan(200);
    expect(result.unprobed.at(-1)).toBe('127.0.62.254');
  });

  it('returns an error for a range it cannot scan instead of throwing', async () => {
    const result = await discoverRange({ id: 7, type: 'NETMASK', address: '127.0.62.0', mask: null, from: null, to: null, port, snmp: v2c }, registry, fast);
    expect(result.error).toMatch(/needs an address and a mask/);
  });
});
