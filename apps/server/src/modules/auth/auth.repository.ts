import { and, desc, eq, gt, inArray, isNotNull, isNull, lt, notInArray, or, sql } from 'drizzle-orm';
import { deleteInBatches } from '../../db/batched-delete.ts';
import type { Db } from '../../db/client.ts';
import { demoRequests, passwordRestoreTokens, sessions } from '../../db/schema/auth.ts';
import { userLocations, users } from '../../db/schema/users.ts';
import { authThrottle, knownDevices } from '../../db/schema/auth.ts';
import { locations } from '../../db/schema/locations.ts';
import type { Lang } from '../../i18n/messages.ts';

export async function findUserByLogin(db: Db, login: string) {
  const [u] = await db.select().from(users).where(sql`lower(${users.login}) = lower(${login})`);
  return u ?? null;
}

export async function findUserByLoginOrEmail(db: Db, value: string) {
  const [u] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.login}) = lower(${value}) OR lower(${users.email}) = lower(${value})`)
    .limit(1);
  return u ?? null;
}

/** The one user with this e-mail (cloud sign-in); none when several share it. */
export async function findUserByUniqueEmail(db: Db, email: string) {
  const rows = await db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`).limit(2);
  return rows.length === 1 ? rows[0] : null;
}

/** The operators' addresses: active users of the DEFAULT location who receive system notifications. */
export async function operatorEmails(db: Db): Promise<string[]> {
  const rows = await db
    .selectDistinct({ email: users.email })
    .from(users)
    .innerJoin(userLocations, eq(userLocations.userId, users.id))
    .innerJoin(locations, eq(locations.id, userLocations.locationId))
    .where(and(eq(locations.code, 'DEFAULT'), eq(users.activeFlag, true), eq(users.systemNotificationRecipient, true)));
  return rows.map((r) => r.email);
}

/** The language of a user's e-mails (their browser's at sign-in). */
export async function setLanguage(db: Db, userId: number, language: Lang) {
  await db.update(users).set({ language }).where(eq(users.id, userId));
}

export async function createSession(db: Db, userId: number, tokenHash: string, expiresAt: Date) {
  const [s] = await db.insert(sessions).values({ userId, tokenHash, expiresAt }).returning();
  return s;
}

export async function sessionByHash(db: Db, tokenHash: string) {
  const [row] = await db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, tokenHash), isNull(sessions.revokedAt)));
  return row ?? null;
}

export async function revokeSession(db: Db, id: number) {
  await db.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.id, id));
}

/** Revokes every open session of the user, except `keepId` (the one making the change). */
export async function userLocationIds(db: Db, userId: number): Promise<number[]> {
  const rows = await db.select({ id: userLocations.locationId }).from(userLocations).where(eq(userLocations.userId, userId));
  return rows.map((r) => r.id);
}

export type Counter = { count: number; nextAt: Date; updatedAt: Date };

/**
 * The counter of `key`, made if missing, locked until the transaction ends: a concurrent
 * attempt on the same key waits here and then sees this one counted.
 */
export async function lockCounter(tx: Db, key: string): Promise<Counter> {
  const res = await tx.execute<{ count: number; nextAt: Date | string; updatedAt: Date | string }>(sql`
    INSERT INTO ${authThrottle} (key) VALUES (${key})
    ON CONFLICT (key) DO UPDATE SET key = EXCLUDED.key
    RETURNING count, next_at AS "nextAt", updated_at AS "updatedAt"`);
  const row = res.rows[0]!;
  return { count: Number(row.count), nextAt: new Date(row.nextAt), updatedAt: new Date(row.updatedAt) };
}

export async function saveCounter(tx: Db, key: string, c: Counter) {
  await tx.update(authThrottle).set(c).where(eq(authThrottle.key, key));
}

export async function deleteCounter(db: Db, key: string) {
  await db.delete(authThrottle).where(eq(authThrottle.key, key));
}

/** Gives back one counted attempt (it turned out to be a success). */
export async function refundCounter(db: Db, key: string) {
  await db.update(authThrottle).set({ count: sql`greatest(${authThrottle.count} - 1, 0)` }).where(eq(authThrottle.key, key));
}

/** Which of these device tokens (hashes) this user signed in with since `since`. */
export async function knownDevice(db: Db, tokenHashes: string[], userId: number, since: Date): Promise<string | null> {
  if (!tokenHashes.length) return null;
  const [row] = await db
    .select({ tokenHash: knownDevices.tokenHash })
    .from(knownDevices)
    .where(and(inArray(knownDevices.tokenHash, tokenHashes), eq(knownDevices.userId, userId), gt(knownDevices.lastUsedAt, since)))
    .limit(1);
  return row?.tokenHash ?? null;
}

export async function touchKnownDevice(db: Db, tokenHash: string) {
  await db.update(knownDevices).set({ lastUsedAt: new Date() }).where(eq(knownDevices.tokenHash, tokenHash));
}

/**
 * Records a browser the user signed in from, keeping the user's `keep` most recently used:
 * a script that signs in afresh each time must not grow the table without end.
 */
export async function addKnownDevice(db: Db, userId: number, tokenHash: string, keep: number) {
  await db.insert(knownDevices).values({ tokenHash, userId });
  const newest = db
    .select({ tokenHash: knownDevices.tokenHash })
    .from(knownDevices)
    .where(eq(knownDevices.userId, userId))
    .orderBy(desc(knownDevices.lastUsedAt))
    .limit(keep);
  await db.delete(knownDevices).where(and(eq(knownDevices.userId, userId), notInArray(knownDevices.tokenHash, newest)));
}

export function pruneCounters(db: Db, before: Date, batchSize: number): Promise<number> {
  return deleteInBatches(db, authThrottle, lt(authThrottle.updatedAt, before), batchSize);
}

/** Deletes sessions that expired, or were revoked, before `before`. */
export function pruneSessions(db: Db, before: Date, batchSize: number): Promise<number> {
  return deleteInBatches(db, sessions, or(lt(sessions.expiresAt, before), lt(sessions.revokedAt, before))!, batchSize);
}

/** Deletes restore tokens that were used or have expired: neither can restore a password any more. */
export function pruneRestoreTokens(db: Db, now: Date, batchSize: number): Promise<number> {
  return deleteInBatches(db, passwordRestoreTokens, or(isNotNull(passwordRestoreTokens.usedAt), lt(passwordRestoreTokens.expiresAt, now))!, batchSize);
}

export async function createRestoreToken(db: Db, userId: number, tokenHash: string, expiresAt: Date) {
  await db.insert(passwordRestoreTokens).values({ userId, tokenHash, expiresAt });
}

export async function validRestoreToken(db: Db, tokenHash: string) {
  const [t] = await db
    .select()
    .from(passwordRestoreTokens)
    .where(and(eq(passwordRestoreTokens.tokenHash, tokenHash), isNull(passwordRestoreTokens.usedAt), gt(passwordRestoreTokens.expiresAt, new Date())));
  return t ?? null;
}

/** Marks the token used; false when another request used it first. */
export async function useRestoreToken(db: Db, tokenHash: string): Promise<boolean> {
  const rows = await db
    .update(passwordRestoreTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(passwordRestoreTokens.tokenHash, tokenHash), isNull(passwordRestoreTokens.usedAt)))
    .returning();
  return rows.length === 1;
}

/** A user's stored password hash, or null (no such user, or no password). */
export async function passwordHashOf(db: Db, userId: number): Promise<string | null> {
  const [user] = await db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, userId));
  return user?.hash ?? null;
}

export async function setPassword(db: Db, userId: number, passwordHash: string) {
  await db.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, userId));
}

export async function insertDemoRequest(db: Db, req: typeof demoRequests.$inferInsert) {
  const [row] = await db.insert(demoRequests).values(req).returning({ id: demoRequests.id });
  return row;
}
