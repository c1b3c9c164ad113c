import fc from 'fast-check';

/** Values an attacker sends first: NUL and control characters, id edges, huge and odd numbers. */
export const EDGE_VALUES: unknown[] = [
  '\u0000',
  'a\u0000b',
  '\u0001\u0008\u001b\u007f',
  '%00',
  2147483648,
  -2147483649,
  2147483647,
  -1,
  0,
  1e308,
  -1e308,
  9007199254740993,
  '2147483648',
  '-2147483649',
  '99999999999999999999',
  'NaN',
  'Infinity',
  '-0',
  '1e309',
  '',
  ' ',
  null,
  true,
  [],
  {},
  'x'.repeat(100_000),
  [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]],
  JSON.parse(`${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}`),
  '../../../../etc/passwd',
  "'; DROP TABLE users; --",
];

/** Edge values, and generated ones of every JSON type (strings with any code unit). */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...EDGE_VALUES) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.integer({ min: -(2 ** 53), max: 2 ** 53 }).filter((n) => n < 1 || n > 10_000) },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.json({ maxDepth: 3 }).map((s) => JSON.parse(s) as unknown) },
);

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minItems?: number;
};

/**
 * A plausible value for a JSON schema (every property present), so that a hostile value put in
 * one field is what the server has to cope with, not a missing neighbour.
 */
export function sampleOf(schema: JsonSchema | undefined, depth = 0): unknown {
  if (!schema || depth > 6) return null;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const alt = schema.anyOf ?? schema.oneOf;
  if (alt) return sampleOf(alt.find((s) => s.type !== 'null') ?? alt[0], depth + 1);
  if (schema.allOf) return sampleOf(schema.allOf[0], depth + 1);
  const type = [schema.type ?? 'object'].flat().find((t) => t !== 'null');
  switch (type) {
    case 'object':
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, s]) => [k, sampleOf(s, depth + 1)]));
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => sampleOf(schema.items, depth + 1));
    case 'string':
      if (schema.format === 'email') return 'fuzz@example.com';
      if (schema.format === 'uuid') return '3f1b8a52-2c4e-4a55-9a1d-0c8f3e6b7d21';
      if (schema.format === 'date-time') return '2026-01-02T03:04:05.000Z';
      return 'fuzz';
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    default:
      return null;
  }
}

/** Paths to every value inside a sample (the root included, as []), up to a depth. */
export function pathsOf(value: unknown, depth = 4, prefix: (string | number)[] = []): (string | number)[][] {
  const out = [prefix];
  if (depth === 0 || value === null || typeof value !== 'object') return out;
  for (const [k, v] of Object.entries(value)) out.push(...pathsOf(v, depth - 1, [...prefix, Array.isArray(value) ? Number(k) : k]));
  return out;
}

/** A copy of `value` with `replacement` at `path`. */
export function replaceAt(value: unknown, path: (string | number)[], replacement: unknown): unknown {
  if (!path.length) return replacement;
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string | number, unknown>;
  copy[path[0]!] = replaceAt(copy[path[0]!], path.slice(1), replacement);
  return copy;
}
