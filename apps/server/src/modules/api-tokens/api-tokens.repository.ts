import { and, count, desc, eq, gt, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { apiTokens } from '../../db/schema/api-tokens.ts';
import { users } from '../../db/schema/users.ts';

export type NewApiToken = { userId: number; name: string; tokenHash: string; prefix: string; readOnly: boolean; expiresAt: Date };

export async function insertToken(db: Db, t: NewApiToken) {
  const [row] = await db.insert(apiTokens).values(t).returning();
  return row;
}

/** The user's tokens that are not revoked (expired ones too, so the owner sees why one stopped). */
export function userTokens(db: Db, userId: number) {
  return db.select().from(apiTokens).where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt))).orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
}

/** How many of the user's tokens still work at `now`. */
export async function liveTokenCount(db: Db, userId: number, now: Date): Promise<number> {
  const [row] = await db.select({ n: count() }).from(apiTokens).where(and(eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt), gt(apiTokens.expiresAt, now)));
  return Number(row.n);
}

/** The token (not revoked) behind a hash, with its user. */
export async function tokenByHash(db: Db, tokenHash: string) {
  const [row] = await db
    .select({ token: apiTokens, user: { id: users.id, login: users.login, activeFlag: users.activeFlag } })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(and(eq(apiTokens.tokenHash, tokenHash), isNull(apiTokens.revokedAt)));
  return row ?? null;
}

/** Revokes one of the user's tokens; null when they hold no such token (or it is already revoked). */
export async function revokeToken(db: Db, userId: number, id: number) {
  const [row] = await db
    .update(apiTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(apiTokens.id, id), eq(apiTokens.userId, userId), isNull(apiTokens.revokedAt)))
    .returning();
  return row ?? null;
}

/** Records a use, unless one was recorded within the last `minGapMs` (one write a minute, not one a call). */
export async function touchToken(db: Db, id: number, now: Date, minGapMs: number) {
  await db
    .update(apiTokens)
    .set({ lastUsedAt: now })
    .where(and(eq(apiTokens.id, id), or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, new Date(now.getTime() - minGapMs)))));
}
