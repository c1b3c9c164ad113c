import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { deviceWebSessions } from '../../db/schema/device-web.ts';
import { sessions } from '../../db/schema/auth.ts';
import { devices } from '../../db/schema/devices.ts';

export type DeviceWebRow = typeof deviceWebSessions.$inferSelect;

export async function insertWebSession(db: Db, row: Omit<typeof deviceWebSessions.$inferInsert, 'id' | 'createdAt' | 'closedAt' | 'cookies' | 'cookieHash'>): Promise<DeviceWebRow> {
  const [created] = await db.insert(deviceWebSessions).values(row).returning();
  return created!;
}

export type WebSessionRow = DeviceWebRow & { consoleTokenHash: string; device: { id: number; ip: string; locationId: number; serialNumber: string | null } };

/**
 * A session by its token's hash (the page) or its id (the console), in one query with the token
 * hash of the console session that opened it and its device as it is now.
 */
export async function webSession(db: Db, by: { tokenHash: string } | { id: number }): Promise<WebSessionRow | null> {
  const [row] = await db
    .select({ s: deviceWebSessions, consoleTokenHash: sessions.tokenHash, device: { id: devices.id, ip: devices.ip, locationId: devices.locationId, serialNumber: devices.serialNumber } })
    .from(deviceWebSessions)
    .innerJoin(sessions, eq(sessions.id, deviceWebSessions.sessionId))
    .innerJoin(devices, eq(devices.id, deviceWebSessions.deviceId))
    .where('id' in by ? eq(deviceWebSessions.id, by.id) : eq(deviceWebSessions.tokenHash, by.tokenHash));
  return row ? { ...row.s, consoleTokenHash: row.consoleTokenHash, device: row.device } : null;
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

/**
 * Swaps a session's one-time ticket for its cookie's hash: once, while the ticket lasts (false
 * when it was swapped already, or ran out). The ticket is gone afterwards either way it is asked.
 */
export async function swapTicket(db: Db, id: number, ticketHash: string, cookieHash: string): Promise<boolean> {
  const rows = await db.update(deviceWebSessions).set({ ticketHash: null, ticketExpiresAt: null, cookieHash })
    .where(and(eq(deviceWebSessions.id, id), eq(deviceWebSessions.ticketHash, ticketHash), gt(deviceWebSessions.ticketExpiresAt, sql`now()`)))
    .returning({ id: deviceWebSessions.id });
  return rows.length > 0;
}
