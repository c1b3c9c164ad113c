import type { Grant } from '@pagewatch/contracts/grants';
import { AppError } from './app-error.ts';
import './caller.messages.ts';

/** Who is calling: the user, their grants, and the locations they may see. */
export type Caller = {
  userId: number;
  login: string;
  roleCodes: string[];
  grants: Set<Grant>;
  /** The user's own locations. */
  locationIds: number[];
  /** Their locations and every location below them. */
  scope: Set<number>;
  /** The scope holds every location there is: lists need no location condition. */
  allLocations: boolean;
  /**
   * ADMIN or DEVELOPER at the DEFAULT location: owns the instance (settings, licenses) and sees
   * every location, a stray root included.
   */
  defaultAdmin: boolean;
  /**
   * Holds the DEFAULT location itself: sees the records without a location (user
   * administration, server errors, jobs), which concern the whole installation.
   */
  seesUnlocated: boolean;
  sessionId: number;
  /** When the session ends by itself: a WebSocket of the session closes then. */
  sessionExpiresAt: Date;
  /** Set when the caller came with a personal API token (then sessionId is 0) rather than a session. */
  apiToken?: { id: number; readOnly: boolean };
};

/** Instance-wide things (settings, licenses, the models pack) are the default administrator's alone. */
export function assertDefaultAdmin(caller: Caller) {
  if (!caller.defaultAdmin) throw new AppError('FORBIDDEN', { key: 'auth.defaultAdminOnly' });
}

export function inScope(caller: Caller, locationId: number | null | undefined): boolean {
  return locationId != null && caller.scope.has(locationId);
}

export function assertInScope(caller: Caller, locationId: number | null | undefined) {
  if (!inScope(caller, locationId)) throw new AppError('OUT_OF_SCOPE');
}
