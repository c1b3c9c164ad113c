import type { DeviceFailureReason, RefusalReason } from '@pagewatch/contracts/agent-api';

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

/**
 * Why a poll failed, as the run reports the device (issue 44): silence is a timeout (a wrong
 * v1/v2c community is silence too), an SNMPv3 user or key refused is AUTH, an answer that is not
 * SNMP, an error status or a socket refused is REFUSED; anything else went wrong in reading it.
 */
export function failureOf(error: unknown): DeviceFailureReason {
  if (!(error instanceof SnmpError)) return 'PROFILE_ERROR';
  if (error.kind === 'timeout') return 'TIMEOUT';
  if (error.kind === 'auth') return 'AUTH';
  if (error.kind === 'options') return 'PROFILE_ERROR';
  return 'REFUSED';
}

/** A refusal of the run's summary as the device's failure: user, key, report or community are AUTH. */
export const refusalFailure = (r: RefusalReason): DeviceFailureReason => (r === 'malformed' || r === 'error-status' ? 'REFUSED' : 'AUTH');

