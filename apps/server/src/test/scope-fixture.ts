import { eq } from 'drizzle-orm';
import type { Grant } from '@pagewatch/contracts/grants';
import type { Db } from '../db/client.ts';
import { locations } from '../db/schema/locations.ts';
import { roleGrants, roles } from '../db/schema/roles.ts';

/**
 * Locations and roles written straight to the database, for tests that need a location tree
 * before the locations API exists (or without going through it).
 */
export async function addLocation(db: Db, code: string, parentCode: string | null = 'DEFAULT'): Promise<number> {
  let parentId: number | null = null;
  if (parentCode) {
    const [p] = await db.select({ id: locations.id }).from(locations).where(eq(locations.code, parentCode));
    if (!p) throw new Error(`no location ${parentCode}`);
    parentId = p.id;
  }
  const [row] = await db.insert(locations).values({ code, name: `Location ${code}`, parentId }).returning({ id: locations.id });
  return row.id;
}

export async function addRole(db: Db, code: string, grants: Grant[]): Promise<number> {
  const [r] = await db.insert(roles).values({ code, name: `Role ${code}` }).returning({ id: roles.id });
  if (grants.length) {
    await db.insert(roleGrants).values(grants.map((g) => {
      const [component, operation] = g.split('.');
      return { roleId: r.id, component, operation };
    }));
  }
  return r.id;
}
