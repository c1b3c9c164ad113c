/**
 * The event log: the one writer every module uses, and the reads behind the logs screens.
 *
 * Plain record (inside a transaction pass `tx` as the last argument):
 *   await ctx.eventLog.write({ group: 'USERS', level: 'I', message, messageCode, userId, objectClass: 'UserDao', objectId }, tx);
 *
 * Runs (agent runs, jobs): a parent record in state P whose children appear live, closed with
 * its duration and final level.
 *   const runId = await ctx.eventLog.startRun({ group: 'AGENTS', message: 'Agent "x" run', objectClass: 'AgentDao', objectId: agentId, locationId });
 *   await ctx.eventLog.child(runId, { level: 'W', message: 'Range 10.0.0.0/24: 2 devices silent', objectClass: 'NetworkRangeDao', objectId: rangeId });
 *   await ctx.eventLog.finish(runId);                        // final level: the worst child level (I when none)
 *   await ctx.eventLog.finish(runId, { level: 'E', message: 'Agent stopped', durationMs });  // or explicit
 *   const result = await ctx.eventLog.run({ group: 'JOBS', message: 'Log clearing' }, async (runId) => { ... });
 *     // run(): startRun, your function, finish; a throw finishes the run as E with the stack trace, and rethrows.
 * - child() inherits the parent's group and location unless given (so scoping sees children with
 *   their parent), bumps the parent's childrenCount and publishes EVENT_LOG_CHANGED on `log:<parentId>`.
 * - finish() sets durationMs (now minus the parent's logDatetime unless given), the final level and
 *   optionally a new message, then publishes EVENT_LOG_CHANGED and EVENT_LOG_FINISHED on `log:<parentId>`.
 *   Call it after your transaction has committed: the console reloads once on FINISHED and stops listening.
 * - locationId: set it for anything that belongs to a location (agents, devices); records
 *   without one are seen only by users at the DEFAULT root (see event-logs.scope.ts).
 */
import { eq, sql } from 'drizzle-orm';
import type { FinalLogLevel, LogLevel, LogObjectClass } from '@pagewatch/contracts/event-logs';
import type { Db } from '../../db/client.ts';
import { eventGroups, eventLogs } from '../../db/schema.ts';
import type { Hub } from '../../plugins/realtime.ts';

export type { LogLevel } from '@pagewatch/contracts/event-logs';

export const EVENT_GROUPS = ['AUTH', 'USERS', 'LOCATIONS', 'AGENTS', 'DEVICES', 'NOTIFICATIONS', 'SETTINGS', 'JOBS', 'SYSTEM'] as const;
export type EventGroup = (typeof EVENT_GROUPS)[number];

export type LogEntry = {
  group: EventGroup;
  level: LogLevel;
  message: string;
  messageCode?: string;
  userId?: number | null;
  locationId?: number | null;
  objectClass?: LogObjectClass | null;
  objectId?: number | null;
  parentId?: number | null;
  stackTrace?: string | null;
  durationMs?: number | null;
};

export type RunEntry = Omit<LogEntry, 'level' | 'parentId' | 'durationMs'>;
export type ChildEntry = Omit<LogEntry, 'group' | 'parentId'> & { group?: EventGroup };
export type FinishOptions = { level?: FinalLogLevel; message?: string; durationMs?: number };
export type RunOutcome = { level?: FinalLogLevel; message?: string };

const MAX_MESSAGE = 10_000;
const MAX_STACK = 20_000;

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
    return this.insert({ ...e, eventGroupId: this.groupId(e.group) }, db);
  }

  private async insert(e: Omit<LogEntry, 'group'> & { eventGroupId: number }, db: Db): Promise<number> {
    const [row] = await db
      .insert(eventLogs)
      .values({
        eventGroupId: e.eventGroupId,
        logLevel: e.level,
        message: e.message.slice(0, MAX_MESSAGE),
        messageCode: e.messageCode ?? null,
        userId: e.userId ?? null,
        locationId: e.locationId ?? null,
        objectClass: e.objectClass ?? null,
        objectId: e.objectId ?? null,
        parentId: e.parentId ?? null,
        stackTrace: e.stackTrace?.slice(0, MAX_STACK) ?? null,
        durationMs: e.durationMs ?? null,
      })
      .returning({ id: eventLogs.id });
    if (e.parentId) {
      await db.update(eventLogs).set({ childrenCount: sql`${eventLogs.childrenCount} + 1` }).where(eq(eventLogs.id, e.parentId));
      this.hub?.publish(`log:${e.parentId}`, { type: 'EVENT_LOG_CHANGED', id: e.parentId });
    }
    return row.id;
  }

  /** Opens a run: a top-level record in state P. Returns its id, the parent of what follows. */
  startRun(e: RunEntry, db: Db = this.db): Promise<number> {
    return this.write({ ...e, level: 'P' }, db);
  }

  /** Adds a child record to a run (or to any record). */
  async child(parentId: number, e: ChildEntry, db: Db = this.db): Promise<number> {
    const [parent] = await db
      .select({ eventGroupId: eventLogs.eventGroupId, locationId: eventLogs.locationId })
      .from(eventLogs)
      .where(eq(eventLogs.id, parentId));
    if (!parent) throw new Error(`Event log record ${parentId} does not exist`);
    return this.insert(
      {
        ...e,
        parentId,
        eventGroupId: e.group ? this.groupId(e.group) : parent.eventGroupId,
        locationId: e.locationId === undefined ? parent.locationId : e.locationId,
      },
      db,
    );
  }

  /** Closes a run: duration, final level (default: the worst level among its children), live FINISHED. */
  async finish(parentId: number, opts: FinishOptions = {}, db: Db = this.db): Promise<void> {
    const level = opts.level
      ? sql`${opts.level}`
      : sql`COALESCE((SELECT CASE max(CASE c.log_level WHEN 'E' THEN 3 WHEN 'W' THEN 2 ELSE 1 END) WHEN 3 THEN 'E' WHEN 2 THEN 'W' ELSE 'I' END
                      FROM event_logs c WHERE c.parent_id = ${parentId}), 'I')`;
    const duration = opts.durationMs !== undefined
      ? sql`${Math.max(0, Math.round(opts.durationMs))}`
      : sql`GREATEST(0, floor(extract(epoch FROM (clock_timestamp() - ${eventLogs.logDatetime})) * 1000))::int`;
    await db
      .update(eventLogs)
      .set({
        logLevel: level,
        durationMs: duration,
        ...(opts.message !== undefined ? { message: opts.message.slice(0, MAX_MESSAGE) } : {}),
      })
      .where(eq(eventLogs.id, parentId));
    this.hub?.publish(`log:${parentId}`, { type: 'EVENT_LOG_CHANGED', id: parentId });
    this.hub?.publish(`log:${parentId}`, { type: 'EVENT_LOG_FINISHED', id: parentId });
  }

  /**
   * Runs `fn` as a logged run. It finishes with the level and message `fn` returns (default: the
   * worst child level); a throw finishes it as E with the error's stack trace, then rethrows.
   */
  async run<T extends RunOutcome | void>(e: RunEntry, fn: (runId: number) => Promise<T>): Promise<T> {
    const runId = await this.startRun(e);
    let result: T;
    try {
      result = await fn(runId);
    } catch (err) {
      const error = err instanceof Error ? err : new Error(String(err));
      await this.child(runId, { level: 'E', message: error.message || error.name, stackTrace: error.stack ?? null });
      await this.finish(runId, { level: 'E' });
      throw err;
    }
    await this.finish(runId, { level: result?.level, message: result?.message });
    return result;
  }
}
