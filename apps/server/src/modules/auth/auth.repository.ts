import { and, eq, gt, isNull, lt, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { loginFailures, passwordRestoreTokens, sessions, userLocations, users } from '../../db/schema.ts';

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
export async function revokeUserSessions(db: Db, userId: number, keepId: number | null = null) {
  await db
    .update(sessions)
    .set({ revokedAt: new Date() })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), keepId === null ? undefined : ne(sessions.id, keepId)));
}

export async function userLocationIds(db: Db, userId: number): Promise<number[]> {
  const rows = await db.select({ id: userLocations.locationId }).from(userLocations).where(eq(userLocations.userId, userId));
  return rows.map((r) => r.id);
}

export async function countFailures(db: Db, key: string, since: Date): Promise<{ n: number; oldest: Date | null }> {
  const res = await db.execute(
    sql`SELECT count(*)::int AS n, min(${loginFailures.at}) AS oldest FROM ${loginFailures} WHERE ${loginFailures.key} = ${key} AND ${loginFailures.at} > ${since}`,
  );
  const row = res.rows[0] as { n: number; oldest: Date | string | null };
  return { n: Number(row.n), oldest: row.oldest ? new Date(row.oldest) : null };
}

export async function addFailure(db: Db, keys: string[]) {
  await db.insert(loginFailures).values(keys.map((key) => ({ key })));
}

export async function clearFailures(db: Db, key: string) {
  await db.delete(loginFailures).where(eq(loginFailures.key, key));
}

export async function pruneFailures(db: Db, before: Date) {
  await db.delete(loginFailures).where(lt(loginFailures.at, before));
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

export async function setPassword(db: Db, userId: number, passwordHash: string) {
  await db.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, userId));
}
