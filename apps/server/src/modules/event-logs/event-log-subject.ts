/**
 * The device, serial and address a record is about, read from its message params when it is
 * written (issue 40): the logs grid filters on them as columns instead of searching the
 * message text. A string `model`, `sn` or `serial`, `ip` or `address`, at the top of the params
 * first, then in their translatable parts (`{ key, params }`, e.g. `log.part.deviceSn`).
 * Migration 0050 filled the records written before in the same way.
 */
export type LogSubject = { device: string | null; serial: string | null; address: string | null };

/** Column widths (db/schema/event-logs.ts). */
const LIMITS = { device: 250, serial: 100, address: 100 } as const;
const KEYS: Record<keyof LogSubject, readonly string[]> = { device: ['model'], serial: ['sn', 'serial'], address: ['ip', 'address'] };

/** The first string under one of `keys`: the params' own first, then their parts', depth first. */
function find(params: Record<string, unknown>, keys: readonly string[], depth = 0): string | null {
  for (const k of keys) if (typeof params[k] === 'string' && params[k]) return params[k];
  if (depth > 4) return null;
  for (const v of Object.values(params)) {
    const nested = v && typeof v === 'object' ? (v as { params?: unknown }).params : undefined;
    if (nested && typeof nested === 'object') {
      const found = find(nested as Record<string, unknown>, keys, depth + 1);
      if (found) return found;
    }
  }
  return null;
}

export function logSubject(params: Record<string, unknown> | null | undefined): LogSubject {
  const pick = (f: keyof LogSubject) => (params ? find(params, KEYS[f])?.slice(0, LIMITS[f]) ?? null : null);
  return { device: pick('device'), serial: pick('serial'), address: pick('address') };
}
