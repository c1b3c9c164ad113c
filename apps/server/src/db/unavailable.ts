/**
 * SQLSTATEs that mean "the database went away", not "this statement is wrong": class 08
 * (connection exception), 57P01-57P03 (shutting down, crashed, not yet accepting connections),
 * 53300 (too many connections).
 */
const OUTAGE_STATES = /^(08...|57P0[1-3]|53300)$/;
/** Errors of the socket, and pg's own when its connection is gone. */
const OUTAGE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
const OUTAGE_MESSAGES = /Connection terminated|not queryable|timeout exceeded when trying to connect/i;

/**
 * True when an error (or one it wraps: Drizzle puts the driver's error in `cause`, a failed
 * connect to several addresses is an AggregateError) says the database cannot be reached: the
 * caller gets a 503 and may try again; nothing is broken.
 */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 5) return false;
  const { code, message, cause, errors } = err as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string' && (OUTAGE_STATES.test(code) || OUTAGE_CODES.has(code))) return true;
  if (typeof message === 'string' && OUTAGE_MESSAGES.test(message)) return true;
  if (Array.isArray(errors) && errors.some((e) => isDatabaseUnavailable(e, depth + 1))) return true;
  return isDatabaseUnavailable(cause, depth + 1);
}

/** Class 53 but 53300: the database is out of disk space (53100), memory (53200) or another resource. */
const SHORTAGE_STATES = /^53(?!300)...$/;
/** How long /api/ready says "not ready" after such an error: the next write would likely fail too. */
export const SHORTAGE_NOT_READY_MS = 30_000;
let lastShortageAt = -Infinity;

/** True when an error (or one it wraps) says the database ran out of disk space or memory; remembered for readiness. */
export function isDatabaseShortOfResources(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 5) return false;
  const { code, cause } = err as { code?: unknown; cause?: unknown };
  if (typeof code === 'string' && SHORTAGE_STATES.test(code)) {
    lastShortageAt = Date.now();
    return true;
  }
  return isDatabaseShortOfResources(cause, depth + 1);
}

/** True within SHORTAGE_NOT_READY_MS of the last such error. */
export const recentlyShortOfResources = (now = Date.now()): boolean => now - lastShortageAt < SHORTAGE_NOT_READY_MS;
