import { readingSchema } from '@pagewatch/contracts/reading';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createDefaultRegistry } from '../profiles/models-pack.loader.ts';
import { fitAgentReading } from '../run/fit-reading.ts';
import { buildReading } from './build-reading.ts';
import { decodeDescription, decodeText } from './text-decode.ts';

const registry = createDefaultRegistry();

/** OIDs biased towards the ones the decoder reads, so the fuzz reaches the interesting code. */
const HOT_PREFIXES = [
  '1.3.6.1.2.1.1', '1.3.6.1.2.1.43.11.1.1', '1.3.6.1.2.1.43.8.2.1', '1.3.6.1.2.1.43.10.2.1',
  '1.3.6.1.2.1.43.12.1.1.4', '1.3.6.1.2.1.25.3.2.1', '1.3.6.1.2.1.25.3.5.1', '1.3.6.1.2.1.2.2.1.6',
  '1.3.6.1.4.1.367.3.2.1.2.19.5.1', '1.3.6.1.4.1.2385.1.1.19.2.1', '1.3.6.1.4.1.11.2.3.9.1.1.7',
];
const arc = fc.integer({ min: 0, max: 40 });
const oid = fc.oneof(
  fc.tuple(fc.constantFrom(...HOT_PREFIXES), fc.array(arc, { minLength: 1, maxLength: 4 })).map(([p, a]) => `${p}.${a.join('.')}`),
  fc.array(fc.integer({ min: 0, max: 2 ** 32 }), { minLength: 1, maxLength: 30 }).map((a) => a.join('.')),
  fc.string({ maxLength: 20 }), // not an OID at all
);
const bytes = fc.oneof(
  fc.uint8Array({ maxLength: 64 }),
  fc.uint8Array({ minLength: 5000, maxLength: 20000 }), // huge strings
  fc.constantFrom(Uint8Array.of(0xc3, 0x28), Uint8Array.of(0xff, 0xfe, 0x00), Uint8Array.of(0xed, 0xa0, 0x80)), // invalid UTF-8
  fc.string({ maxLength: 80 }).map((s) => new TextEncoder().encode(s)),
);
const value = fc.oneof(
  fc.integer({ min: -(2 ** 31), max: 2 ** 32 }),
  fc.double(),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }),
  fc.string({ maxLength: 50 }),
  bytes,
  fc.constant(null),
);
const type = fc.constantFrom(
  'integer', 'octets', 'oid', 'ip', 'counter32', 'gauge32', 'timeticks', 'counter64', 'opaque',
  'null', 'noSuchObject', 'noSuchInstance', 'endOfMibView', 'unknown', 'bogus',
);
/** Any type with any value: the wrong type where a number is expected included. */
const varbind = fc.record({ oid, type, value });
const junk = fc.oneof(fc.constant(null), fc.constant(undefined), fc.integer(), fc.string(), fc.object());

describe('decoding never throws (property)', () => {
  it('turns any varbinds into a reading with problems that, fitted to the limits as the agent sends it, is valid', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof({ weight: 10, arbitrary: varbind }, { weight: 1, arbitrary: junk }), { maxLength: 80 }), (vbs) => {
        const reading = buildReading(vbs, registry, { readAt: '2026-01-01T00:00:00.000Z' });
        const sent = fitAgentReading({ id: '00000000-0000-4000-8000-000000000001', runId: null, rangeId: 1, ip: '127.0.0.1', port: 161, reading }).reading;
        const parsed = readingSchema.safeParse(sent);
        if (!parsed.success) throw new Error(JSON.stringify(parsed.error.issues.slice(0, 3)));
        expect(reading.problems.every((p) => !p.startsWith('internal error'))).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it('keeps what it can read next to garbage', () => {
    fc.assert(
      fc.property(fc.array(varbind, { maxLength: 30 }), (noise) => {
        const good = [
          { oid: '1.3.6.1.2.1.1.1.0', type: 'octets', value: new TextEncoder().encode('RICOH MP C3004 1.0 / RICOH Network Printer') },
          { oid: '1.3.6.1.2.1.43.11.1.1.6.1.1', type: 'octets', value: new TextEncoder().encode('Black Toner') },
          { oid: '1.3.6.1.2.1.43.11.1.1.8.1.1', type: 'integer', value: 200 },
          { oid: '1.3.6.1.2.1.43.11.1.1.9.1.1', type: 'integer', value: 50 },
        ];
        const hot = new Set(good.map((g) => g.oid));
        const reading = buildReading([...noise.filter((n) => !hot.has(n.oid.replace(/^\./, ''))), ...good], registry);
        expect(reading.vendor).toBe('Ricoh');
        expect(reading.supplies.find((s) => s.index === 1)).toMatchObject({ description: 'Black Toner', percent: 25 });
      }),
      { numRuns: 200 },
    );
  });

  it('decodes any bytes to bounded, printable text', () => {
    fc.assert(
      fc.property(bytes, (b) => {
        for (const text of [decodeText(b), decodeDescription(b)]) {
          expect(text.length).toBeLessThanOrEqual(1024);
          expect(text).not.toMatch(/[\u0000-\u001f\u007f]/);
        }
      }),
      { numRuns: 300 },
    );
  });
});
