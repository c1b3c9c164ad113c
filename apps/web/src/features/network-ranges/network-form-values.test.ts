import { describe, expect, it } from 'vitest';
import type { NetworkRange } from '@pagewatch/contracts/network-ranges';
import { emptyRange, inputOf, validateRange, valuesOf } from './network-form-values.ts';

describe('network range form: discovery packet cap', () => {
  const range = { ...emptyRange(null, '1'), type: 'RANGE' as const, from: '10.0.0.1', to: '10.0.255.254' };

  it('starts at the default of 5000 packets a second and sends it', () => {
    expect(range.packetsPerSecond).toBe(5000);
    expect(validateRange(range)).toEqual({});
    expect(inputOf({ ...range, packetsPerSecond: '250' }).packetsPerSecond).toBe(250);
  });

  it('refuses an empty, fractional or out-of-bounds cap with its message key', () => {
    for (const packetsPerSecond of ['', 9, 100_001, 12.5]) {
      expect(validateRange({ ...range, packetsPerSecond })).toEqual({ packetsPerSecond: 'networks.badPacketRate' });
    }
  });
});

describe('network range form: stored secrets and a new destination', () => {
  const stored: NetworkRange = {
    id: 7, name: 'Floor', type: 'NETMASK', address: '10.1.0.0', mask: '255.255.255.0', from: null, to: null, port: 161, snmpVersion: '2c', communitySet: true,
    v3User: null, v3Level: null, v3AuthProtocol: null, authKeySet: false, v3PrivProtocol: null, privKeySet: false, agent: { id: 3, name: 'A' },
    location: { id: 1, code: 'DEFAULT', name: 'Default' }, comment: null, addressCount: 256, packetsPerSecond: 5000,
  };

  it('asks for the community again when the addresses, port or agent change, not for the same network written otherwise', () => {
    const kept = valuesOf(stored);
    expect(validateRange(kept, stored)).toEqual({});
    expect(validateRange({ ...kept, mask: '/24', name: 'Renamed' }, stored)).toEqual({});
    for (const move of [{ address: '10.2.0.0' }, { mask: '/16' }, { port: 1161 }, { agentId: '4' }, { type: 'BROADCAST' as const }]) {
      expect(validateRange({ ...kept, ...move }, stored), JSON.stringify(move)).toEqual({ community: 'networks.communityAgain' });
      expect(validateRange({ ...kept, ...move, community: 'typed-again' }, stored)).toEqual({});
    }
    // No agent scans it: the community goes nowhere.
    expect(validateRange({ ...kept, address: '10.2.0.0', agentId: null }, stored)).toEqual({});
  });

  it('asks for each stored v3 key the level still uses', () => {
    const v3: NetworkRange = { ...stored, snmpVersion: '3', communitySet: false, v3User: 'monitor', v3Level: 'authPriv', v3AuthProtocol: 'sha', authKeySet: true, v3PrivProtocol: 'aes', privKeySet: true };
    const moved = { ...valuesOf(v3), address: '10.2.0.0' };
    expect(validateRange(moved, v3)).toEqual({ authKey: 'networks.authKeyAgain', privKey: 'networks.privKeyAgain' });
    expect(validateRange({ ...moved, v3Level: 'authNoPriv', v3PrivProtocol: null }, v3)).toEqual({ authKey: 'networks.authKeyAgain' });
  });
});
