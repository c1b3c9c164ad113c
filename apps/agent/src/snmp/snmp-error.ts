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
