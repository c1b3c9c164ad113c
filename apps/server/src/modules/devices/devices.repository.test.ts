import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { iso } from './devices.repository.ts';

describe('iso', () => {
  it('turns PostgreSQL timestamps, in UTC or not, into the same ISO text a Date gives', () => {
    fc.assert(
      fc.property(fc.date({ min: new Date('1970-01-01'), max: new Date('9999-12-31'), noInvalidDate: true }), fc.integer({ min: 0, max: 6 }), fc.constantFrom('+00', '+03', '-05:30'), (d, digits, zone) => {
        const offsetMin = zone === '+00' ? 0 : zone === '+03' ? 180 : -330;
        const local = new Date(d.getTime() + offsetMin * 60_000).toISOString();
        const micros = `${local.slice(20, 23)}123`.slice(0, digits);
        const text = `${local.slice(0, 10)} ${local.slice(11, 19)}${digits ? `.${micros}` : ''}${zone}`;
        const expected = new Date(`${local.slice(0, 19)}${digits ? `.${micros}` : ''}${zone.length === 3 ? `${zone}:00` : zone}`).toISOString();
        expect(iso(text)).toBe(expected);
      }),
      { numRuns: 500 },
    );
    expect(iso(null)).toBeNull();
    expect(iso(new Date(0))).toBe('1970-01-01T00:00:00.000Z');
  });
});
