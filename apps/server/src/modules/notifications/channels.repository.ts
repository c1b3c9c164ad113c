import { asc, eq, inArray, and } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { notificationChannelLinks, notificationChannels } from '../../db/schema/notifications.ts';

export type ChannelRow = typeof notificationChannels.$inferSelect;
export type ChannelValues = Omit<typeof notificationChannels.$inferInsert, 'id' | 'createdAt'>;
export type ChannelRef = { id: number; kind: string; name: string };

export function listChannels(db: Db): Promise<ChannelRow[]> {
  return db.select().from(notificationChannels).orderBy(asc(notificationChannels.name), asc(notificationChannels.id));
}

export async function channelById(db: Db, id: number): Promise<ChannelRow | null> {
  const [r] = await db.select().from(notificationChannels).where(eq(notificationChannels.id, id));
  return r ?? null;
}

export async function insertChannel(db: Db, values: ChannelValues): Promise<ChannelRow> {
  const [r] = await db.insert(notificationChannels).values(values).returning();
  return r;
}

export async function updateChannel(db: Db, id: number, values: Partial<ChannelValues>): Promise<void> {
  await db.update(notificationChannels).set(values).where(eq(notificationChannels.id, id));
}

export async function deleteChannel(db: Db, id: number): Promise<boolean> {
  return (await db.delete(notificationChannels).where(eq(notificationChannels.id, id)).returning({ id: notificationChannels.id })).length > 0;
}

const REF = { id: notificationChannels.id, kind: notificationChannels.kind, name: notificationChannels.name };

/** Which of the given ids are channels. */
export async function existingChannels(db: Db, ids: number[]): Promise<Set<number>> {
  if (!ids.length) return new Set();
  return new Set((await db.select({ id: notificationChannels.id }).from(notificationChannels).where(inArray(notificationChannels.id, ids))).map((r) => r.id));
}

/** The channels one notification goes to (enabled or not), for its form. */
export function channelsOf(db: Db, notificationId: number): Promise<ChannelRef[]> {
  return db
    .select(REF)
    .from(notificationChannelLinks)
    .innerJoin(notificationChannels, eq(notificationChannels.id, notificationChannelLinks.channelId))
    .where(eq(notificationChannelLinks.notificationId, notificationId))
    .orderBy(asc(notificationChannels.name));
}

/** The enabled channels of each of the given notifications (the dispatcher's). */
export async function enabledChannelsOf(db: Db, notificationIds: number[]): Promise<Map<number, ChannelRef[]>> {
  const out = new Map<number, ChannelRef[]>();
  if (!notificationIds.length) return out;
  const rows = await db
    .select({ ...REF, notificationId: notificationChannelLinks.notificationId })
    .from(notificationChannelLinks)
    .innerJoin(notificationChannels, eq(notificationChannels.id, notificationChannelLinks.channelId))
    .where(and(inArray(notificationChannelLinks.notificationId, notificationIds), eq(notificationChannels.enabled, true)))
    .orderBy(asc(notificationChannels.id));
  for (const { notificationId, ...c } of rows) out.set(notificationId, [...(out.get(notificationId) ?? []), c]);
  return out;
}

export async function setChannelLinks(db: Db, notificationId: number, channelIds: number[]) {
  await db.delete(notificationChannelLinks).where(eq(notificationChannelLinks.notificationId, notificationId));
  if (channelIds.length) await db.insert(notificationChannelLinks).values(channelIds.map((channelId) => ({ notificationId, channelId })));
}

/** The enabled channels, of one kind or all (for other modules: a supply order to "any webhook"). */
export function enabledChannels(db: Db, kind?: string): Promise<ChannelRef[]> {
  return db
    .select(REF)
    .from(notificationChannels)
    .where(and(eq(notificationChannels.enabled, true), kind ? eq(notificationChannels.kind, kind) : undefined))
    .orderBy(asc(notificationChannels.id));
}
