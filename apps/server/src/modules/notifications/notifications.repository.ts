import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { locationIn, type Scoped } from '../../db/scope.ts';
import { locations } from '../../db/schema/locations.ts';
import { users } from '../../db/schema/users.ts';
import { notificationLocations, notifications, notificationSubscribers } from '../../db/schema/notifications.ts';

export type NotificationRow = typeof notifications.$inferSelect;
export type NotificationValues = Omit<typeof notifications.$inferInsert, 'id' | 'createdAt'>;
export type SubscriberRow = { id: number; email: string; isSystem: boolean };

export async function notificationById(db: Db, id: number): Promise<NotificationRow | null> {
  const [r] = await db.select().from(notifications).where(eq(notifications.id, id));
  return r ?? null;
}

export function locationsOf(db: Db, id: number): Promise<{ id: number; name: string }[]> {
  return db
    .select({ id: locations.id, name: locations.name })
    .from(notificationLocations)
    .innerJoin(locations, eq(locations.id, notificationLocations.locationId))
    .where(eq(notificationLocations.notificationId, id))
    .orderBy(asc(locations.name));
}

export function subscribersOf(db: Db, id: number): Promise<SubscriberRow[]> {
  return db
    .select({ id: users.id, email: users.email, isSystem: users.systemNotificationRecipient })
    .from(notificationSubscribers)
    .innerJoin(users, eq(users.id, notificationSubscribers.userId))
    .where(eq(notificationSubscribers.notificationId, id))
    .orderBy(asc(users.email));
}

export async function insertNotification(db: Db, values: NotificationValues): Promise<NotificationRow> {
  const [row] = await db.insert(notifications).values(values).returning();
  return row;
}

export async function updateNotification(db: Db, id: number, values: Partial<NotificationValues>): Promise<NotificationRow> {
  const [row] = await db.update(notifications).set(values).where(eq(notifications.id, id)).returning();
  return row;
}

export async function deleteNotification(db: Db, id: number) {
  await db.delete(notifications).where(eq(notifications.id, id));
}

export async function setLocations(db: Db, id: number, locationIds: number[]) {
  await db.delete(notificationLocations).where(eq(notificationLocations.notificationId, id));
  if (locationIds.length) await db.insert(notificationLocations).values(locationIds.map((locationId) => ({ notificationId: id, locationId })));
}

export async function setSubscribers(db: Db, id: number, userIds: number[]) {
  await db.delete(notificationSubscribers).where(eq(notificationSubscribers.notificationId, id));
  if (userIds.length) await db.insert(notificationSubscribers).values(userIds.map((userId) => ({ notificationId: id, userId })));
}

/** The users a caller may see (one of their locations is in the caller's scope), of the given ids. */
export async function visibleUserIds(db: Db, ids: number[], caller: Scoped): Promise<Set<number>> {
  if (!ids.length || !caller.scope.size) return new Set();
  const res = await db.execute<{ id: unknown }>(sql`
    SELECT DISTINCT ul.user_id AS id FROM user_locations ul
    WHERE ul.user_id IN (${sql.join(ids.map((i) => sql`${i}`), sql`, `)}) AND ${locationIn(caller.scope, sql`ul.location_id`)}`);
  return new Set(res.rows.map((r) => Number(r.id)));
}

/** Who may be chosen as a subscriber: the active users the caller may see, with their e-mail. */
export async function subscriberChoices(db: Db, caller: Scoped): Promise<SubscriberRow[]> {
  if (!caller.scope.size) return [];
  const res = await db.execute<{ id: unknown; email: string; isSystem: boolean }>(sql`
    SELECT u.id, u.email, u.system_notification_recipient AS "isSystem" FROM users u
    WHERE u.active_flag AND EXISTS (SELECT 1 FROM user_locations ul WHERE ul.user_id = u.id AND ${locationIn(caller.scope, sql`ul.location_id`)})
    ORDER BY lower(u.email), u.id`);
  return res.rows.map((r) => ({ id: Number(r.id), email: r.email, isSystem: r.isSystem }));
}

/** Which of the given locations exist. */
export async function existingLocations(db: Db, ids: number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  const rows = await db.select({ id: locations.id }).from(locations).where(inArray(locations.id, ids));
  return new Set(rows.map((r) => r.id));
}

/** The location ids of each of the given notifications (none: every location). */
export async function locationIdsOfMany(db: Db, ids: number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>(ids.map((i) => [i, []]));
  if (!ids.length) return out;
  const rows = await db.select().from(notificationLocations).where(inArray(notificationLocations.notificationId, ids));
  for (const r of rows) out.get(r.notificationId)?.push(r.locationId);
  return out;
}
