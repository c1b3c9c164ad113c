import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { deviceWebSessions } from '../../db/schema/device-web.ts';

export type DeviceWebRow = typeof deviceWebSessions.$inferSelect;

export async function insertWebSession(db: Db, row: Omit<typeof deviceWebSessions.$inferInsert, 'id' | 'createdAt' | 'closedAt' | 'cookies'>): Promise<DeviceWebRow> {
  const [created] = await db.insert(deviceWebSessions).values(row).returning();
  return created!;
}

/** A session by its token's hash (the page) or its id (the console). */
export async function webSession(db: Db, by: { tokenHash: string } | { id: number }): Promise<DeviceWebRow | null> {
  const [row] = await db.select().from(deviceWebSessions).where('id' in by ? eq(deviceWebSessions.id, by.id) : eq(deviceWebSessions.tokenHash, by.tokenHash));
  return row ?? null;
}

/** A user's sessions of a device still open. */
export async function openWebSessions(db: Db, userId: number, deviceId: number): Promise<DeviceWebRow[]> {
  return db.select().from(deviceWebSessions)
    .where(and(eq(deviceWebSessions.userId, userId), eq(deviceWebSessions.deviceId, deviceId), isNull(deviceWebSessions.closedAt), gt(deviceWebSessions.expiresAt, sql`now()`)))
    .orderBy(desc(deviceWebSessions.id));
}

/** Closes a session; false when it was closed already. */
export async function closeWebSession(db: Db, id: number): Promise<boolean> {
  const rows = await db.update(deviceWebSessions).set({ closedAt: new Date() })
    .where(and(eq(deviceWebSessions.id, id), isNull(deviceWebSessions.closedAt))).returning({ id: deviceWebSessions.id });
  return rows.length > 0;
}

export async function setWebSessionCookies(db: Db, id: number, cookies: Record<string, string>) {
  await db.update(deviceWebSessions).set({ cookies }).where(eq(deviceWebSessions.id, id));
}
