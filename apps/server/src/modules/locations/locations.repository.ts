import { setImmediate as nextTurn } from 'node:timers/promises';
import { and, eq, sql } from 'drizzle-orm';
import type { PlanPlacement } from '@pagewatch/contracts/dictionaries';
import { locationPlanParts, locationPlanPlacements, locationPlans } from '../../db/schema/locations.ts';
import { locations } from '../../db/schema/locations.ts';
import type { LocationDependent, PlanDevice } from '@pagewatch/contracts/dictionaries';
import type { Db } from '../../db/client.ts';
import { takenIgnoringCase } from '../../db/taken.ts';
import { rowsById } from '../../db/rows-by-id.ts';

export type LocationRow = typeof locations.$inferSelect;

export async function locationById(db: Db, id: number): Promise<LocationRow | null> {
  const [row] = await db.select().from(locations).where(eq(locations.id, id));
  return row ?? null;
}

/** A location as other objects name it: id, code and name; null when there is none. */
export async function locationRef(db: Db, id: number): Promise<{ id: number; code: string; name: string } | null> {
  const [row] = await db.select({ id: locations.id, code: locations.code, name: locations.name }).from(locations).where(eq(locations.id, id));
  return row ?? null;
}

/** Whether another location (not `exceptId`) has this code, in any letter case. */
export function locationCodeTaken(db: Db, code: string, exceptId: number | null): Promise<boolean> {
  return takenIgnoringCase(db, locations.code, locations.id, code, exceptId);
}


export const { insert: insertLocation, update: updateLocation, remove: deleteLocation } = rowsById(locations);

export async function planType(db: Db, locationId: number): Promise<string | null> {
  const [plan] = await db.select({ contentType: locationPlans.contentType }).from(locationPlans).where(eq(locationPlans.locationId, locationId));
  return plan?.contentType ?? null;
}

export async function planOf(db: Db, locationId: number) {
  const [plan] = await db.select({ contentType: locationPlans.contentType, upload: locationPlans.upload }).from(locationPlans).where(eq(locationPlans.locationId, locationId));
  return plan ?? null;
}

/**
 * The size of a part of a plan's bytes: one statement writes or reads each (see locationPlanParts),
 * and the event loop is given back between them (PGlite's statements end in microtasks, so
 * without that a run of them holds the loop as one long statement would).
 */
export const PLAN_PART_BYTES = 128 * 1024;

/** An upload's bytes, read a part at a time. */
export async function planBytes(db: Db, locationId: number, upload: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  for (let part = 0; ; part++) {
    const [row] = await db.select({ data: locationPlanParts.data }).from(locationPlanParts)
      .where(and(eq(locationPlanParts.locationId, locationId), eq(locationPlanParts.upload, upload), eq(locationPlanParts.part, part)));
    if (!row) return Buffer.concat(parts);
    parts.push(row.data);
    await nextTurn();
  }
}

/** Writes `data` as a new upload's parts, a statement each, outside any transaction; no plan names them yet. */
export async function writePlanParts(db: Db, locationId: number, data: Buffer): Promise<number> {
  const res = await db.execute<{ upload: string }>(sql`SELECT nextval('location_plan_uploads') AS upload`);
  const upload = Number(res.rows[0].upload);
  for (let part = 0; part * PLAN_PART_BYTES < data.length; part++) {
    await db.insert(locationPlanParts).values({ locationId, upload, part, data: data.subarray(part * PLAN_PART_BYTES, (part + 1) * PLAN_PART_BYTES) });
    await nextTurn();
  }
  return upload;
}

/**
 * Makes `upload` the location's plan unless a later upload already is, and drops the parts of
 * the uploads before it (the plan it replaces, uploads that stopped): false when a later upload
 * won, its own parts dropped. Uploads after it, still writing, keep theirs.
 */
export async function savePlan(db: Db, locationId: number, contentType: string, upload: number): Promise<boolean> {
  const saved = await db
    .insert(locationPlans)
    .values({ locationId, contentType, upload })
    .onConflictDoUpdate({ target: locationPlans.locationId, set: { contentType, upload, updatedAt: new Date() }, setWhere: sql`${locationPlans.upload} < ${upload}` })
    .returning({ upload: locationPlans.upload });
  const kept = saved.length > 0;
  await db.delete(locationPlanParts).where(and(eq(locationPlanParts.locationId, locationId), kept ? sql`${locationPlanParts.upload} < ${upload}` : eq(locationPlanParts.upload, upload)));
  return kept;
}

/** Removes the plan, its bytes and its placements (not the parts of uploads still writing after it). */
export async function deletePlan(db: Db, locationId: number) {
  await db.delete(locationPlanParts).where(and(
    eq(locationPlanParts.locationId, locationId),
    sql`${locationPlanParts.upload} <= (SELECT ${locationPlans.upload} FROM ${locationPlans} WHERE ${locationPlans.locationId} = ${locationId})`,
  ));
  await db.delete(locationPlans).where(eq(locationPlans.locationId, locationId));
  await db.delete(locationPlanPlacements).where(eq(locationPlanPlacements.locationId, locationId));
}

export function placementsOf(db: Db, locationId: number): Promise<PlanPlacement[]> {
  return db
    .select({ deviceId: locationPlanPlacements.deviceId, x: locationPlanPlacements.x, y: locationPlanPlacements.y })
    .from(locationPlanPlacements)
    .where(eq(locationPlanPlacements.locationId, locationId));
}

export async function replacePlacements(db: Db, locationId: number, placements: PlanPlacement[]) {
  await db.delete(locationPlanPlacements).where(eq(locationPlanPlacements.locationId, locationId));
  if (placements.length) await db.insert(locationPlanPlacements).values(placements.map((p) => ({ locationId, ...p })));
}

/** The given locations and every location below them. */
export async function descendantIds(db: Db, roots: number[]): Promise<number[]> {
  if (!roots.length) return [];
  const res = await db.execute<{ id: number }>(sql`
    WITH RECURSIVE tree AS (
      SELECT id FROM locations WHERE id IN (${sql.join(roots.map((r) => sql`${r}`), sql`, `)})
      UNION
      SELECT l.id FROM locations l JOIN tree t ON l.parent_id = t.id
    )
    SELECT id FROM tree`);
  return res.rows.map((r) => r.id);
}

export async function allLocationIds(db: Db): Promise<number[]> {
  const res = await db.execute<{ id: number }>(sql`SELECT id FROM locations`);
  return res.rows.map((r) => Number(r.id));
}

export async function locationCount(db: Db): Promise<number> {
  const res = await db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM locations`);
  return Number(res.rows[0]!.n);
}

export async function defaultLocationId(db: Db): Promise<number | null> {
  const res = await db.execute<{ id: number }>(sql`SELECT id FROM locations WHERE code = 'DEFAULT'`);
  return res.rows[0]?.id ?? null;
}

/**
 * What refers to a location and keeps it from being deleted. Tables of other modules are
 * counted when they exist (agents, networks and devices arrive with the collection work), so
 * this list can name them before their modules land.
 */
const DEPENDENTS: { dep: LocationDependent; table: string; column: string }[] = [
  { dep: 'children', table: 'locations', column: 'parent_id' },
  { dep: 'users', table: 'user_locations', column: 'location_id' },
  { dep: 'agents', table: 'agents', column: 'location_id' },
  { dep: 'networkRanges', table: 'network_ranges', column: 'location_id' },
  { dep: 'devices', table: 'devices', column: 'location_id' },
  { dep: 'dictionaries', table: 'dictionaries', column: 'location_id' },
  { dep: 'identityProviders', table: 'identity_providers', column: 'location_id' },
];

async function existingColumns(db: Db, pairs: { table: string; column: string }[]): Promise<Set<string>> {
  const res = await db.execute<{ k: string }>(sql`
    SELECT table_name || '.' || column_name AS k FROM information_schema.columns
    WHERE table_schema = current_schema()
      AND (table_name, column_name) IN (${sql.join(pairs.map((p) => sql`(${p.table}, ${p.column})`), sql`, `)})`);
  return new Set(res.rows.map((r) => r.k));
}

export async function tableExists(db: Db, table: string, column = 'id'): Promise<boolean> {
  return (await existingColumns(db, [{ table, column }])).size > 0;
}

/** Non-zero counts of what still refers to the location, in a fixed order. */
export async function dependentCounts(db: Db, locationId: number): Promise<{ dep: LocationDependent; count: number }[]> {
  const present = await existingColumns(db, DEPENDENTS);
  const out: { dep: LocationDependent; count: number }[] = [];
  for (const d of DEPENDENTS) {
    if (!present.has(`${d.table}.${d.column}`)) continue;
    const res = await db.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM ${sql.identifier(d.table)} WHERE ${sql.identifier(d.column)} = ${locationId}`);
    const count = Number(res.rows[0]!.n);
    if (count > 0) out.push({ dep: d.dep, count });
  }
  return out;
}

/** Devices of a location as the plan shows them (none until the devices table exists). */
export async function devicesOfLocation(db: Db, locationId: number): Promise<PlanDevice[]> {
  if (!(await tableExists(db, 'devices', 'location_id'))) return [];
  const res = await db.execute<PlanDevice>(sql`
    SELECT id, COALESCE(NULLIF(host_name, ''), NULLIF(model_code, ''), ip, '#' || id) AS name, ip, serial_number AS "serialNumber", status_code AS "statusCode"
    FROM devices WHERE location_id = ${locationId} ORDER BY 2, id LIMIT 5000`);
  return res.rows.map((r) => ({ ...r, id: Number(r.id) }));
}

export type LocationAgentRow = { id: number; name: string; status: string; lastContactAt: string | null; version: string | null };

export async function agentsOfLocation(db: Db, locationId: number): Promise<LocationAgentRow[]> {
  if (!(await tableExists(db, 'agents', 'location_id'))) return [];
  const res = await db.execute<LocationAgentRow>(sql`
    SELECT id, name, status, last_contact_at AS "lastContactAt", version FROM agents WHERE location_id = ${locationId} ORDER BY name, id LIMIT 5000`);
  return res.rows.map((r) => ({
    ...r,
    id: Number(r.id),
    lastContactAt: r.lastContactAt ? new Date(r.lastContactAt).toISOString() : null,
  }));
}
