import { and, asc, eq, inArray, isNotNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { identityProviderMappings, identityProviders } from '../../db/schema/identity-providers.ts';
import { users } from '../../db/schema/users.ts';
import { locations } from '../../db/schema/locations.ts';
import { sessions, ssoTickets } from '../../db/schema/auth.ts';
import { takenIgnoringCase } from '../../db/taken.ts';

export type ProviderRow = typeof identityProviders.$inferSelect;
export type ProviderValues = Omit<typeof identityProviders.$inferInsert, 'id' | 'createdAt'>;
export type MappingRow = { group: string; roleId: number; locationId: number };
export type SsoUserRow = typeof users.$inferSelect;

/** The providers of the given locations (null: of every location), each with its mappings. */
export async function listProviders(db: Db, locationIds: number[] | null): Promise<(ProviderRow & { mappings: MappingRow[] })[]> {
  if (locationIds && !locationIds.length) return [];
  const rows = await db
    .select()
    .from(identityProviders)
    .where(locationIds ? inArray(identityProviders.locationId, locationIds) : undefined)
    .orderBy(asc(identityProviders.name), asc(identityProviders.id));
  const maps = await mappingsOf(db, rows.map((r) => r.id));
  return rows.map((r) => ({ ...r, mappings: maps.get(r.id) ?? [] }));
}

export async function providerById(db: Db, id: number): Promise<(ProviderRow & { mappings: MappingRow[] }) | null> {
  const [r] = await db.select().from(identityProviders).where(eq(identityProviders.id, id));
  if (!r) return null;
  return { ...r, mappings: (await mappingsOf(db, [id])).get(id) ?? [] };
}

async function mappingsOf(db: Db, ids: number[]): Promise<Map<number, MappingRow[]>> {
  const out = new Map<number, MappingRow[]>();
  if (!ids.length) return out;
  const rows = await db
    .select({ providerId: identityProviderMappings.providerId, group: identityProviderMappings.group, roleId: identityProviderMappings.roleId, locationId: identityProviderMappings.locationId })
    .from(identityProviderMappings)
    .where(inArray(identityProviderMappings.providerId, ids))
    .orderBy(asc(identityProviderMappings.id));
  for (const { providerId, ...m } of rows) out.set(providerId, [...(out.get(providerId) ?? []), m]);
  return out;
}

export async function insertProvider(db: Db, values: ProviderValues): Promise<number> {
  const [r] = await db.insert(identityProviders).values(values).returning({ id: identityProviders.id });
  return r!.id;
}

export async function updateProvider(db: Db, id: number, values: Partial<ProviderValues>): Promise<void> {
  await db.update(identityProviders).set(values).where(eq(identityProviders.id, id));
}

export async function deleteProvider(db: Db, id: number): Promise<void> {
  await db.delete(identityProviders).where(eq(identityProviders.id, id));
}

export async function setMappings(db: Db, providerId: number, mappings: MappingRow[]): Promise<void> {
  await db.delete(identityProviderMappings).where(eq(identityProviderMappings.providerId, providerId));
  if (mappings.length) await db.insert(identityProviderMappings).values(mappings.map((m) => ({ providerId, ...m })));
}

/** The enabled providers, for the login page: of every location, or of the one of that code only. */
export function enabledProviders(db: Db, locationCode: string | null): Promise<{ id: number; kind: string; name: string }[]> {
  return db
    .select({ id: identityProviders.id, kind: identityProviders.kind, name: identityProviders.name })
    .from(identityProviders)
    .innerJoin(locations, eq(locations.id, identityProviders.locationId))
    .where(and(eq(identityProviders.enabled, true), locationCode === null ? undefined : sql`lower(${locations.code}) = lower(${locationCode})`))
    .orderBy(asc(identityProviders.name), asc(identityProviders.id));
}

/** The code of a provider's location (the login page's `at`). */
export async function locationCodeOf(db: Db, locationId: number): Promise<string | null> {
  const [r] = await db.select({ code: locations.code }).from(locations).where(eq(locations.id, locationId));
  return r?.code ?? null;
}

/** The provider's user of that external id. */
export async function userByExternal(db: Db, providerId: number, externalId: string): Promise<SsoUserRow | null> {
  const [u] = await db.select().from(users).where(and(eq(users.identityProviderId, providerId), eq(users.externalId, externalId)));
  return u ?? null;
}

/** The provider's users (the sync job), the active ones first. */
export function usersOfProvider(db: Db, providerId: number): Promise<SsoUserRow[]> {
  return db.select().from(users).where(and(eq(users.identityProviderId, providerId), isNotNull(users.externalId))).orderBy(sql`${users.activeFlag} DESC`, asc(users.id));
}

/**
 * The provider's active users with no sign-in since `before` (sessions are kept: the newest is
 * the last sign-in) and no session open now; made, and last changed (an administrator enabling
 * them again), before `before` too.
 */
export function idleUsersOfProvider(db: Db, providerId: number, before: Date, now: Date): Promise<SsoUserRow[]> {
  return db.select().from(users).where(and(
    eq(users.identityProviderId, providerId), isNotNull(users.externalId), eq(users.activeFlag, true), eq(users.isSystem, false), lt(users.createdAt, before), lt(users.updatedAt, before),
    sql`NOT EXISTS (SELECT 1 FROM ${sessions} WHERE ${sessions.userId} = ${users.id} AND (${sessions.createdAt} >= ${before} OR (${sessions.revokedAt} IS NULL AND ${sessions.expiresAt} > ${now})))`,
  )).orderBy(asc(users.id));
}

export async function userById(db: Db, id: number): Promise<SsoUserRow | null> {
  const [u] = await db.select().from(users).where(eq(users.id, id));
  return u ?? null;
}

export const loginTaken = (db: Db, login: string, exceptId: number | null) => takenIgnoringCase(db, users.login, users.id, login, exceptId);

export async function insertUser(db: Db, values: Omit<typeof users.$inferInsert, 'id'>): Promise<SsoUserRow> {
  const [u] = await db.insert(users).values(values).returning();
  return u!;
}

export async function updateUser(db: Db, id: number, values: Partial<typeof users.$inferInsert>): Promise<SsoUserRow> {
  const [u] = await db.update(users).set({ ...values, updatedAt: new Date() }).where(eq(users.id, id)).returning();
  return u!;
}

export async function insertTicket(db: Db, ticketHash: string, userId: number, expiresAt: Date): Promise<void> {
  await db.insert(ssoTickets).values({ ticketHash, userId, expiresAt });
}

/** Uses a ticket up: its user, if it was there and had not expired (once only). */
export async function takeTicket(db: Db, ticketHash: string, now: Date): Promise<number | null> {
  const rows = await db.delete(ssoTickets).where(eq(ssoTickets.ticketHash, ticketHash)).returning({ userId: ssoTickets.userId, expiresAt: ssoTickets.expiresAt });
  const r = rows[0];
  return r && r.expiresAt > now ? r.userId : null;
}

export async function pruneTickets(db: Db, now: Date): Promise<void> {
  await db.delete(ssoTickets).where(lt(ssoTickets.expiresAt, now));
}
