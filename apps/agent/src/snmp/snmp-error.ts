/** Why a request failed; the CLI turns these into one-line messages and exit code 2. */
export type SnmpErrorKind = 'timeout' | 'auth' | 'invalid-response' | 'request-failed' | 'socket' | 'options';

export class SnmpError extends Error {
  readonly kind: SnmpErrorKind;

  constructor(kind: SnmpErrorKind, message: string) {
    super(message);
    this.name = 'SnmpError';
    this.kind = kind;
  }
}

/**
 * A failure that came from the device itself, as the run's summary counts it apart from silence:
 * a v3 user or key it does not accept, an answer that is not SNMP, an SNMP error status.
 */
export function refusalOf(error: unknown): 'auth' | 'malformed' | 'error-status' | null {
  if (!(error instanceof SnmpError)) return null;
  if (error.kind === 'auth') return 'auth';
  if (error.kind === 'invalid-response') return 'malformed';
  if (error.kind === 'request-failed') return 'error-status';
  return null;
}
