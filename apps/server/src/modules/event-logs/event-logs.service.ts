/**
 * The event log: the one writer every module uses, and the reads behind the logs screens.
 *
 * Plain record (inside a transaction pass `tx` as the last argument):
 *   await ctx.eventLog.write({ group: 'USERS', level: 'I', messageCode: 'user.created', params: { actor, login }, userId, objectClass: 'UserDao', objectId }, tx);
 *
 * Messages: `messageCode` with `params` is rendered in the reader's language from the template
 * `log.<messageCode>` (event-logs.messages.ts; a test fails on a code without en and ru templates).
 * A param that is itself translatable is passed as `{ key, params }`. `message` is stored too: the
 * English rendering unless given, for search and filters; records without params show it as is.
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
 *   without one are seen only by users at the DEFAULT root (`visibleCondition` in db/scope.ts).
 */
import { hasMessage, type Lang } from '../../i18n/messages.ts';
import { EVENT_LOG_CHILDREN_LIMIT, type EventLog as EventLogView, type EventLogRow, type FinalLogLevel, type LogLevel, type LogObjectClass } from '@pagewatch/contracts/event-logs';
import type { ListQuery } from '@pagewatch/contracts/list';
import type { Db } from '../../db/client.ts';
import type { Hub } from '../../plugins/realtime.ts';
import { AppError, notFound } from '../../lib/app-error.ts';
import { runList } from '../../lib/list-run.ts';
import type { Caller } from '../../lib/caller.ts';
import * as repo from './event-logs.repository.ts';
import { allGroups, childRows, deleteBatch, logRecord, parentRef, toRow } from './event-logs.repository.ts';
import { eventLogsListIn } from './event-logs.list.ts';
import { renderLog, type LogParams } from './event-logs.messages.ts';
import { errorSummary, fullStack, loggableError } from '../../lib/loggable-error.ts';

export type { LogLevel } from '@pagewatch/contracts/event-logs';

export const EVENT_GROUPS = ['AUTH', 'USERS', 'LOCATIONS', 'DICTIONARIES', 'AGENTS', 'DEVICES', 'NOTIFICATIONS', 'SETTINGS', 'JOBS', 'SYSTEM'] as const;
export type EventGroup = (typeof EVENT_GROUPS)[number];

/** Either a plain message, or a code with params (then `message` defaults to the English rendering). */
type LogText =
  | { message: string; messageCode?: string; params?: LogParams }
  | { message?: string; messageCode: string; params: LogParams };

export type LogEntry = LogText & {
  group: EventGroup;
  level: LogLevel;
  userId?: number | null;
  locationId?: number | null;
  objectClass?: LogObjectClass | null;
  objectId?: number | null;
  parentId?: number | null;
  stackTrace?: string | null;
  durationMs?: number | null;
};

type LogFields = Omit<LogEntry, keyof LogText>;
export type RunEntry = LogText & Omit<LogFields, 'level' | 'parentId' | 'durationMs'>;
export type ChildEntry = LogText & Omit<LogFields, 'group' | 'parentId'> & { group?: EventGroup };
/** A new message replaces the run's: give `params` (rendered with the run's code) or a plain `message`. */
export type FinishOptions = { level?: FinalLogLevel; message?: string; params?: LogParams; durationMs?: number };
/** A record of a change a user made (`byCaller`): a message code, its params besides `actor`. */
export type CallerEntry = Omit<LogFields, 'userId'> & { messageCode: string; params?: LogParams };
export type RunOutcome = { level?: FinalLogLevel; message?: string; params?: LogParams };

const MAX_MESSAGE = 10_000;
const MAX_STACK = 20_000;

/**
 * A record's stored texts: `message` (English, or the plain text given) and `messageRu`, the
 * message as a Russian reader is shown it (`logMessage`), kept so that the Russian search finds
 * what the screen shows; null without a template, where the reader is shown `message`.
 */
function texts(message: string, code: string | null, params: LogParams | null) {
  const ru = code && params && hasMessage(`log.${code}`) ? renderLog('ru', code, params) : null;
  return { message: message.slice(0, MAX_MESSAGE), messageRu: ru?.slice(0, MAX_MESSAGE) ?? null };
}

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
    for (const g of await allGroups(this.db)) this.groupIds.set(g.code, g.id);
  }

  private groupId(code: EventGroup): number {
    const id = this.groupIds.get(code);
    if (id === undefined) throw new Error(`Event group ${code} is not seeded`);
    return id;
  }

  async write(e: LogEntry, db: Db = this.db): Promise<number> {
    return this.insert({ ...e, eventGroupId: this.groupId(e.group) }, db);
  }

  /**
   * A change a user made: the record is theirs (`userId`) and its message names them (the
   * param `actor`, their login), as every module's create, update and delete records do.
   */
  byCaller(caller: Pick<Caller, 'userId' | 'login'>, e: CallerEntry, db: Db = this.db): Promise<number> {
    return this.write({ ...e, params: { actor: caller.login, ...e.params }, userId: caller.userId }, db);
  }

  /** Many plain records in one statement (no parents: runs take `child`). Returns their ids in order. */
  async writeMany(entries: Omit<LogEntry, 'parentId' | 'durationMs'>[], db: Db = this.db): Promise<number[]> {
    const at = new Date();
    return repo.insertLogs(db, entries.map((e) => ({ ...this.row({ ...e, eventGroupId: this.groupId(e.group) }), logDatetime: at })));
  }

  /** A record's columns: the message rendered in English when only its code is given, texts cut to their limits. */
  private row(e: Omit<LogEntry, 'group'> & { eventGroupId: number }) {
    return {
      eventGroupId: e.eventGroupId,
      logLevel: e.level,
      ...texts(e.message ?? renderLog('en', e.messageCode!, e.params!), e.messageCode ?? null, e.params ?? null),
      messageCode: e.messageCode ?? null,
      messageParams: e.params ?? null,
      userId: e.userId ?? null,
      locationId: e.locationId ?? null,
      objectClass: e.objectClass ?? null,
      objectId: e.objectId ?? null,
      parentId: e.parentId ?? null,
      stackTrace: e.stackTrace?.slice(0, MAX_STACK) ?? null,
      durationMs: e.durationMs ?? null,
    };
  }

  private async insert(e: Omit<LogEntry, 'group'> & { eventGroupId: number }, db: Db): Promise<number> {
    const id = await repo.insertLog(db, this.row(e));
    if (e.parentId) {
      await repo.countChild(db, e.parentId);
      this.hub?.publish(`log:${e.parentId}`, { type: 'EVENT_LOG_CHANGED', id: e.parentId });
    }
    return id;
  }

  /**
   * A request that failed with a 500: the message names the route (never the query string,
   * which may hold a token); the stack trace is kept for administrators.
   */
  serverError(err: Error, method: string, url: string, userId: number | null): Promise<number> {
    // PostgreSQL text refuses NUL: shown as \0, so that the error is recorded at all.
    const clean = (s: string) => s.replace(/\u0000/g, '\\0');
    const path = clean(url.split('?')[0].slice(0, 300));
    const safe = loggableError(err);
    const first = clean(errorSummary(safe).slice(0, 500));
    return this.write({ group: 'SYSTEM', level: 'E', messageCode: 'server.error', params: { method, path, error: first }, userId, stackTrace: clean(fullStack(safe)) });
  }

  /** Opens a run: a top-level record in state P. Returns its id, the parent of what follows. */
  startRun(e: RunEntry, db: Db = this.db): Promise<number> {
    return this.write({ ...e, level: 'P' } as LogEntry, db);
  }

  /** Adds a child record to a run (or to any record). */
  async child(parentId: number, e: ChildEntry, db: Db = this.db): Promise<number> {
    const parent = await repo.groupAndLocationOf(db, parentId);
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
    const code = opts.params ? await repo.messageCodeOf(db, parentId) : null;
    const text = this.finishText(code, opts);
    await repo.finishRecord(db, parentId, {
      level: opts.level,
      durationMs: opts.durationMs === undefined ? undefined : Math.max(0, Math.round(opts.durationMs)),
      text: text && { ...texts(text.message, code, text.params), params: text.params },
    });
    this.hub?.publish(`log:${parentId}`, { type: 'EVENT_LOG_CHANGED', id: parentId });
    this.hub?.publish(`log:${parentId}`, { type: 'EVENT_LOG_FINISHED', id: parentId });
  }

  /** The run's new message and params: params render with the run's code; a plain message drops the old params. */
  private finishText(code: string | null, opts: FinishOptions): { message: string; params: LogParams | null } | null {
    if (opts.params && code) return { message: opts.message ?? renderLog('en', code, opts.params), params: opts.params };
    return opts.message !== undefined ? { message: opts.message, params: null } : null;
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
      const error = loggableError(err);
      await this.child(runId, { level: 'E', message: errorSummary(error) || error.type, stackTrace: fullStack(error) || null });
      await this.finish(runId, { level: 'E' });
      throw err;
    }
    await this.finish(runId, { level: result?.level, message: result?.message, params: result?.params });
    return result;
  }

  /**
   * Deletes records older than `before` in batches of short statements with a pause between
   * them, so a big clearing never holds locks for long or starves other queries.
   */
  async deleteOlderThan(before: Date, opts: { batchSize: number; pauseMs: number; keepId?: number }) {
    let deleted = 0;
    let batches = 0;
    for (;;) {
      const n = await deleteBatch(this.db, before, opts.batchSize, opts.keepId ?? null);
      if (n > 0) batches++;
      deleted += n;
      if (n < opts.batchSize) return { deleted, batches };
      await new Promise((r) => setTimeout(r, opts.pauseMs));
    }
  }

  /**
   * Renders the Russian text of the records written before it was stored (migration 0041), in
   * batches of short statements in id order with a pause between them (the log-translation
   * job). Returns how many records it rendered.
   */
  async translateMissing(opts: { batchSize: number; pauseMs: number }): Promise<number> {
    let done = 0;
    for (let after = 0; ;) {
      const rows = await repo.untranslated(this.db, after, opts.batchSize);
      if (!rows.length) return done;
      const ru = rows.flatMap((r) => {
        const text = r.params && texts('', r.code, r.params).messageRu;
        return text ? [{ id: r.id, ru: text }] : [];
      });
      await repo.setRussian(this.db, ru);
      done += ru.length;
      after = rows[rows.length - 1].id;
      if (rows.length < opts.batchSize) return done;
      await new Promise((r) => setTimeout(r, opts.pauseMs));
    }
  }

  // ---- Reads (the logs screens) ----

  /**
   * Messages come in the caller's language (logMessage), and a filter or sort on `message` reads
   * the text in that language as it was rendered when written (`messageRu`).
   */
  async list(caller: Caller, q: ListQuery, lang: Lang = 'en') {
    const res = await runList<Record<string, unknown>>(this.db, eventLogsListIn(lang), q, caller);
    return { pageRows: res.pageRows.map((r) => toRow(r, lang)), totalRows: res.totalRows };
  }

  async get(caller: Caller, id: number, lang: Lang = 'en'): Promise<EventLogView> {
    const r = await logRecord(this.db, id);
    if (!r) throw notFound();
    // Records in the caller's locations; those without one only for callers who see them.
    if (r.locationId === null ? !caller.seesUnlocated : !caller.scope.has(r.locationId)) throw new AppError('OUT_OF_SCOPE');
    // Stack traces show internals: administrators and developers only.
    const seesStack = caller.roleCodes.includes('ADMIN') || caller.roleCodes.includes('DEVELOPER');
    const [parent, children] = await Promise.all([
      r.parentId ? parentRef(this.db, r.parentId, caller, lang) : null,
      r.childrenCount > 0 ? childRows(this.db, id, EVENT_LOG_CHILDREN_LIMIT, caller, lang) : ([] as EventLogRow[]),
    ]);
    const row = toRow(r, lang);
    return {
      ...row,
      eventGroup: { id: r.eventGroupId, code: r.eventGroupCode, name: r.eventGroupName },
      user: r.userId && r.userLogin
        ? { id: r.userId, login: r.userLogin, name: [r.userLastName, r.userFirstName].filter(Boolean).join(' ') }
        : null,
      messageLines: row.message.split(/\r?\n/),
      stackTraceLines: seesStack && r.stackTrace ? r.stackTrace.split(/\r?\n/) : [],
      parent,
      children,
    };
  }

  async groups() {
    const rows = await allGroups(this.db);
    return { pageRows: rows, totalRows: rows.length };
  }
}
