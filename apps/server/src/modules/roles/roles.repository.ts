import { eq, inArray } from 'drizzle-orm';
import type { Grant } from '@pagewatch/contracts/grants';
import type { Db } from '../../db/client.ts';
import { roleGrants, roles } from '../../db/schema/roles.ts';
import { userRoles } from '../../db/schema/users.ts';

export type RoleWithGrants = { id: number; code: string; name: string; grants: Grant[] };

/** Which of the ids name a role. */
export async function existingRoleIds(db: Db, ids: number[]): Promise<number[]> {
  if (!ids.length) return [];
  return (await db.select({ id: roles.id }).from(roles).where(inArray(roles.id, ids))).map((r) => r.id);
}

export async function allRoles(db: Db): Promise<RoleWithGrants[]> {
  const [rs, gs] = await Promise.all([db.select().from(roles).orderBy(roles.id), db.select().from(roleGrants)]);
  return rs.map((r) => ({
    ...r,
    grants: gs.filter((g) => g.roleId === r.id).map((g) => `${g.component}.${g.operation}` as Grant),
  }));
}

export async function rolesOfUsers(db: Db, userIds: number[]): Promise<Map<number, RoleWithGrants[]>> {
  const out = new Map<number, RoleWithGrants[]>();
  if (!userIds.length) return out;
  const all = await allRoles(db);
  const links = await db.select().from(userRoles).where(inArray(userRoles.userId, userIds));
  for (const l of links) {
    const role = all.find((r) => r.id === l.roleId);
    if (!role) continue;
    out.set(l.userId, [...(out.get(l.userId) ?? []), role]);
  }
  return out;
}

export async function roleIdsOf(db: Db, userId: number): Promise<number[]> {
  const rows = await db.select({ id: userRoles.roleId }).from(userRoles).where(eq(userRoles.userId, userId));
  return rows.map((r) => r.id);
}
