import { and, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { Me, User } from '@pagewatch/contracts/users';
import type { Grant } from '@pagewatch/contracts/grants';
import type { Db } from '../../db/client.ts';
import { takenIgnoringCase } from '../../db/taken.ts';
import { rowsById } from '../../db/rows-by-id.ts';
import { locations } from '../../db/schema/locations.ts';
import { userLocations, userRoles, users } from '../../db/schema/users.ts';
import { sessions } from '../../db/schema/auth.ts';
import { rolesOfUsers } from '../roles/index.ts';

type UserRow = typeof users.$inferSelect;

export function loginTaken(db: Db, login: string, exceptId: number | null): Promise<boolean> {
  return takenIgnoringCase(db, users.login, users.id, login, exceptId);
}

export async function activeAdminCount(db: Db): Promise<number> {
  const res = await db.execute<{ n: number }>(sql`
    SELECT count(*)::int AS n FROM users u JOIN user_roles ur ON ur.user_id = u.id JOIN roles r ON r.id = ur.role_id
    WHERE r.code = 'ADMIN' AND u.active_flag`);
  return Number(res.rows[0]!.n);
}

export const { insert: insertUser, update: updateUser, remove: deleteUser } = rowsById(users);

/** Replaces the user's roles. */
export async function setRoles(db: Db, userId: number, roleIds: number[]) {
  await db.delete(userRoles).where(eq(userRoles.userId, userId));
  if (roleIds.length) await db.insert(userRoles).values(roleIds.map((roleId) => ({ userId, roleId })));
}

/** Replaces the user's locations. */
export async function setLocations(db: Db, userId: number, locationIds: number[]) {
  await db.delete(userLocations).where(eq(userLocations.userId, userId));
  if (locationIds.length) await db.insert(userLocations).values(locationIds.map((locationId) => ({ userId, locationId })));
}

export async function userById(db: Db, id: number): Promise<UserRow | null> {
  const [u] = await db.select().from(users).where(eq(users.id, id));
  return u ?? null;
}

async function locationsOfUsers(db: Db, ids: number[]) {
  const out = new Map<number, { id: number; code: string; name: string }[]>();
  if (!ids.length) return out;
  const rows = await db
    .select({ userId: userLocations.userId, id: locations.id, code: locations.code, name: locations.name })
    .from(userLocations)
    .innerJoin(locations, eq(locations.id, userLocations.locationId))
    .where(inArray(userLocations.userId, ids))
    .orderBy(locations.name);
  for (const { userId, ...loc } of rows) out.set(userId, [...(out.get(userId) ?? []), loc]);
  return out;
}

export async function locationIdsOf(db: Db, userId: number): Promise<number[]> {
  const rows = await db.select({ id: userLocations.locationId }).from(userLocations).where(eq(userLocations.userId, userId));
  return rows.map((r) => r.id);
}

/**
 * The key locations of a set: those with no ancestor in the set. A child of a listed location
 * adds no access (the parent's scope covers it), so only key locations are stored.
 */
export async function keyLocations(db: Db, ids: number[]): Promise<number[]> {
  const unique = [...new Set(ids)];
  if (unique.length < 2) return unique;
  const list = sql.join(unique.map((id) => sql`${id}`), sql`, `);
  const res = await db.execute<{ start: number }>(sql`
    WITH RECURSIVE up AS (
      SELECT l.id AS start, l.parent_id AS ancestor FROM locations l WHERE l.id IN (${list})
      UNION
      SELECT up.start, l.parent_id FROM up JOIN locations l ON l.id = up.ancestor WHERE l.parent_id IS NOT NULL
    )
    SELECT DISTINCT start FROM up WHERE ancestor IN (${list})`);
  const covered = new Set(res.rows.map((r) => Number(r.start)));
  return unique.filter((id) => !covered.has(id));
}

/**
 * A user as the API returns it: locations and roles, never the password hash. With `scope`,
 * only the locations inside it are listed: a caller does not learn of locations they cannot see
 * (the user keeps them all the same).
 */
export async function userView(db: Db, u: UserRow, scope?: ReadonlySet<number>): Promise<User> {
  const [locs, roles] = await Promise.all([locationsOfUsers(db, [u.id]), rolesOfUsers(db, [u.id])]);
  return {
    id: u.id,
    login: u.login,
    email: u.email,
    activeFlag: u.activeFlag,
    isSystem: u.isSystem,
    systemNotificationRecipient: u.systemNotificationRecipient,
    lastName: u.lastName,
    firstName: u.firstName,
    middleName: u.middleName,
    locations: (locs.get(u.id) ?? []).filter((l) => !scope || scope.has(l.id)),
    grants: (roles.get(u.id) ?? []).map((r) => ({
      id: r.id,
      code: r.code,
      name: r.name,
      acls: r.grants.map((g) => {
        const [component, operation] = g.split('.');
        return { component, operation } as { component: never; operation: never };
      }),
    })),
  };
}

export async function meView(db: Db, u: UserRow): Promise<Me> {
  const view = await userView(db, u);
  const seen = new Set<Grant>();
  const resolvedGrants = view.grants.flatMap((r) =>
    (r.acls ?? []).filter((a) => {
      const k = `${a.component}.${a.operation}` as Grant;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    }),
  );
  return { ...view, resolvedGrants };
}

/**
 * Ends the user's sessions (a new password, a deactivation), one of them kept: part of the change's
 * transaction, so users does it itself; auth, above users, uses it for a restored password too.
 */
export async function revokeUserSessions(db: Db, userId: number, keepId: number | null = null) {
  await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), keepId === null ? undefined : ne(sessions.id, keepId)));
}
