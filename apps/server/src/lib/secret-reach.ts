import type { Caller } from './caller.ts';

/**
 * Who set a row's stored secrets (issue 52): the own locations of their setters. An agent's token
 * reads its ranges' and queues' secrets in clear, so whoever mints one must reach them all (hold
 * each of these locations in its scope): a location admin does not get the default admin's.
 *
 * After a write: no secret stored, none; every stored one given now, the caller's; some kept,
 * the caller's beside the kept ones' (the narrowest who may renew is who reaches both).
 */
export function secretReachAfter(caller: Caller, before: number[] | null, secrets: { stored: boolean; given: boolean }[]): number[] | null {
  const stored = secrets.filter((s) => s.stored);
  if (!stored.length) return null;
  if (stored.every((s) => s.given)) return [...caller.locationIds].sort((a, b) => a - b);
  if (!stored.some((s) => s.given)) return before;
  return [...new Set([...(before ?? []), ...caller.locationIds])].sort((a, b) => a - b);
}

/** The setters' locations the caller does not reach. */
export const unreached = (caller: Caller, reach: (number[] | null)[]) =>
  [...new Set(reach.flatMap((r) => r ?? []))].filter((id) => !caller.scope.has(id));
