import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { eventGroups, eventLogs } from '../../db/schema.ts';
import type { Hub } from '../../plugins/realtime.ts';

/** Log levels, each defined once: I information, W warning, E error, P processing. */
export const LOG_LEVELS = ['I', 'W', 'E', 'P'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const EVENT_GROUPS = ['AUTH', 'USERS', 'LOCATIONS', 'AGENTS', 'DEVICES', 'NOTIFICATIONS', 'SETTINGS', 'JOBS', 'SYSTEM'] as const;
export type EventGroup = (typeof EVENT_GROUPS)[number];

export type LogEntry = {
  group: EventGroup;
  level: LogLevel;
  message: string;
  messageCode?: string;
  userId?: number | null;
  locationId?: number | null;
  objectClass?: 'UserDao' | 'AgentDao' | 'NetworkRangeDao' | 'DeviceDao' | 'LocationDao' | null;
  objectId?: number | null;
  parentId?: number | null;
  stackTrace?: string | null;
  durationMs?: number | null;
};

/** The one event log every module writes to. */
export class EventLog {
  private readonly db: Db;
  private readonly hub: Hub | null;
  private groupIds = new Map<string, number>();

  constructor(db: Db, hub: Hub | null) {
    this.db = db;
    this.hub = hub;
  }

  /** Loads the group ids once, so writing inside a transaction never needs a second connection. */
  async init() {
    for (const g of await this.db.select().from(eventGroups)) this.groupIds.set(g.code, g.id);
  }

  private groupId(code: EventGroup): number {
    const id = this.groupIds.get(code);
    if (id === undefined) throw new Error(`Event group ${code} is not seeded`);
    return id;
  }

  async write(e: LogEntry, db: Db = this.db): Promise<number> {
    const [row] = await db
      .insert(eventLogs)
      .values({
        eventGroupId: this.groupId(e.group),
        logLevel: e.level,
        message: e.message.slice(0, 10_000),
        messageCode: e.messageCode ?? null,
        userId: e.userId ?? null,
        locationId: e.locationId ?? null,
        objectClass: e.objectClass ?? null,
        objectId: e.objectId ?? null,
        parentId: e.parentId ?? null,
        stackTrace: e.stackTrace ?? null,
        durationMs: e.durationMs ?? null,
      })
      .returning({ id: eventLogs.id });
    if (e.parentId) {
      await db.update(eventLogs).set({ childrenCount: sql`${eventLogs.childrenCount} + 1` }).where(eq(eventLogs.id, e.parentId));
      this.hub?.publish(`log:${e.parentId}`, { type: 'EVENT_LOG_CHANGED', id: e.parentId });
    }
    return row.id;
  }
}
