import { randomUUID } from 'node:crypto';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { locationIn, type Scoped } from '../../db/scope.ts';
import { locations } from '../../db/schema/locations.ts';
import { instanceLicense, licenses } from '../../db/schema/licenses.ts';

export type InstanceRow = typeof instanceLicense.$inferSelect;
export type LicenseRow = typeof licenses.$inferSelect;
export type LicenseValues = Pick<LicenseRow, 'locationId' | 'dateFrom' | 'dateTo' | 'deviceCount'>;
export type DeviceCounts = { activeDeviceCount: number; allDeviceCount: number };

/** The instance row, made with a fresh instance id on first start (concurrent starts agree). */
export async function ensureInstance(db: Db): Promise<InstanceRow> {
  await db.insert(instanceLicense).values({ id: 1, instanceId: randomUUID() }).onConflictDoNothing();
  return (await instanceRow(db))!;
}

export async function instanceRow(db: Db): Promise<InstanceRow | null> {
  const [row] = await db.select().from(instanceLicense).where(eq(instanceLicense.id, 1));
  return row ?? null;
}

export async function saveInstanceLicense(db: Db, values: Pick<InstanceRow, 'document' | 'companyName' | 'dateFrom' | 'dateTo' | 'deviceCount' | 'uploadedAt' | 'uploadedBy'>) {
  await db.update(instanceLicense).set(values).where(eq(instanceLicense.id, 1));
}

/** The location and every location below it. */
const subtree = (locationId: number) => sql`
  WITH RECURSIVE sub AS (SELECT id FROM locations WHERE id = ${locationId} UNION ALL SELECT l.id FROM locations l JOIN sub ON l.parent_id = sub.id)
  SELECT id FROM sub`;

/** Devices of a location's tree (null: of the whole instance): serviced ones and all. */
export async function deviceCounts(db: Db, locationId: number | null): Promise<DeviceCounts> {
  const where = locationId === null ? sql`` : sql`WHERE location_id IN (${subtree(locationId)})`;
  const res = await db.execute<{ active: number; all: number }>(sql`
    SELECT count(*) FILTER (WHERE managed_flag)::int AS active, count(*)::int AS "all" FROM devices ${where}`);
  const row = res.rows[0]!;
  return { activeDeviceCount: Number(row.active), allDeviceCount: Number(row.all) };
}

export type LicenseWithLocation = LicenseRow & { location: { id: number; code: string; name: string; parentId: number | null } };

const withLocation = { license: licenses, location: { id: locations.id, code: locations.code, name: locations.name, parentId: locations.parentId } };

export async function licenseById(db: Db, id: number): Promise<LicenseWithLocation | null> {
  const [r] = await db.select(withLocation).from(licenses).innerJoin(locations, eq(locations.id, licenses.locationId)).where(eq(licenses.id, id));
  return r ? { ...r.license, location: r.location } : null;
}

export async function licenseOfLocation(db: Db, locationId: number): Promise<LicenseRow | null> {
  const [r] = await db.select().from(licenses).where(eq(licenses.locationId, locationId));
  return r ?? null;
}

/** The licenses in force on `today` at the caller's locations. */
export async function licensesInForce(db: Db, caller: Scoped, today: string): Promise<LicenseWithLocation[]> {
  const conditions: SQL[] = [sql`${licenses.dateFrom} <= ${today}`, sql`${licenses.dateTo} >= ${today}`];
  if (!caller.allLocations) conditions.push(locationIn(caller.scope, licenses.locationId));
  const rows = await db.select(withLocation).from(licenses).innerJoin(locations, eq(locations.id, licenses.locationId))
    .where(and(...conditions)).orderBy(locations.name, licenses.id).limit(10_000);
  return rows.map((r) => ({ ...r.license, location: r.location }));
}

/** Locations of the caller's scope that may hold a license (all but DEFAULT), with the one they hold. */
export async function licensableLocations(db: Db, caller: Scoped) {
  const rows = await db
    .select({ id: locations.id, code: locations.code, name: locations.name, parentId: locations.parentId, licenseId: licenses.id })
    .from(locations)
    .leftJoin(licenses, eq(licenses.locationId, locations.id))
    .where(and(sql`${locations.code} <> 'DEFAULT'`, caller.allLocations ? undefined : locationIn(caller.scope, locations.id)))
    .orderBy(locations.name, locations.id)
    .limit(10_000);
  return rows;
}

const uniqueViolation = (err: unknown) => {
  const e = err as { code?: string; cause?: { code?: string } };
  return (e.code ?? e.cause?.code) === '23505';
};

/** Null when the location got a license meanwhile (one license a location). */
export async function insertLicense(db: Db, values: LicenseValues): Promise<LicenseRow | null> {
  const [row] = await db.insert(licenses).values(values).onConflictDoNothing({ target: licenses.locationId }).returning();
  return row ?? null;
}

/** Null when the new location got a license meanwhile. */
export async function updateLicense(db: Db, id: number, values: LicenseValues): Promise<LicenseRow | null> {
  try {
    const [row] = await db.update(licenses).set({ ...values, updatedAt: new Date() }).where(eq(licenses.id, id)).returning();
    return row ?? null;
  } catch (err) {
    if (uniqueViolation(err)) return null;
    throw err;
  }
}

export async function deleteLicense(db: Db, id: number) {
  await db.delete(licenses).where(eq(licenses.id, id));
}
