import { describe, expect, it } from 'vitest';
import { emptyRange, inputOf, validateRange } from './network-form-values.ts';

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
