import type { Grant } from '@pagewatch/contracts/grants';
import { DEFAULT_ADMIN_ROLES } from '@pagewatch/contracts/users';
import type { Db } from '../../db/client.ts';
import type { Caller } from '../../lib/caller.ts';
import { rolesOfUsers } from '../roles/index.ts';
import { allLocationIds, defaultLocationId, descendantIds, locationCount } from '../locations/index.ts';
import * as repo from './auth.repository.ts';

/**
 * The caller a user is now: their roles' grants and their locations' scope, read afresh. Sessions
 * and API tokens both come here, so a token never holds more than its user does at that moment.
 * `session`: what the caller came with (a session's id, or 0 for an API token) and when it ends.
 */
export async function loadCaller(db: Db, user: { id: number; login: string }, session: { id: number; expiresAt: Date }): Promise<Caller> {
  const [roles, locationIds, locationTotal, defaultId] = await Promise.all([
    rolesOfUsers(db, [user.id]),
    repo.userLocationIds(db, user.id),
    locationCount(db),
    defaultLocationId(db),
  ]);
  const userRoles = roles.get(user.id) ?? [];
  const defaultAdmin = defaultId !== null && locationIds.includes(defaultId) && userRoles.some((r) => DEFAULT_ADMIN_ROLES.includes(r.code));
  // The default administrator sees every location, also a root that is not below DEFAULT, so
  // that no location can be hidden from them (and re-attached by them).
  const scope = defaultAdmin ? await allLocationIds(db) : await descendantIds(db, locationIds);
  return {
    userId: user.id,
    login: user.login,
    roleCodes: userRoles.map((r) => r.code),
    grants: new Set<Grant>(userRoles.flatMap((r) => r.grants)),
    locationIds,
    scope: new Set(scope),
    allLocations: defaultAdmin || scope.length >= locationTotal,
    defaultAdmin,
    seesUnlocated: defaultId !== null && locationIds.includes(defaultId),
    sessionId: session.id,
    sessionExpiresAt: session.expiresAt,
  };
}
