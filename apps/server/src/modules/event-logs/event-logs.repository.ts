import { and, asc, eq, sql } from 'drizzle-orm';
import type { EventLogRow } from '@pagewatch/contracts/event-logs';
import type { Db } from '../../db/client.ts';
import { bulk } from '../../db/bulk.ts';
import { visibleCondition, type Scoped } from '../../db/scope.ts';
import type { Lang } from '../../i18n/messages.ts';
import { logMessage } from './event-logs.messages.ts';
import { logSubject } from './event-log-subject.ts';
import { eventGroups, eventLogs } from '../../db/schema/event-logs.ts';
import { users } from '../../db/schema/users.ts';

/** Drivers differ: int8 comes back as a string (pg) or bigint (PGlite); timestamps as Date or string. */
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const iso = (v: unknown) => (v instanceof Date ? v : new Date(String(v))).toISOString();

/** int8 and jsonb: PGlite may give the params as text. */
const params = (v: unknown) => (typeof v === 'string' ? (JSON.parse(v) as Record<string, unknown>) : (v as Record<string, unknown> | null));

/** A stored record's message in `lang`, from its code and params (the stored text otherwise). */
export function messageIn(lang: Lang, r: { message?: unknown; messageCode?: unknown; messageParams?: unknown }): string {
  return logMessage(lang, (r.messageCode as string | null) ?? null, params(r.messageParams), String(r.message));
}

/** A list or detail row, its message in `lang` (the stored text when it has no template or params). */
export function toRow(r: Record<string, unknown>, lang: Lang = 'en'): EventLogRow {
  return {
    id: Number(r.id),
    parentId: num(r.parentId),
    logDatetime: iso(r.logDatetime),
    eventGroupId: Number(r.eventGroupId),
    eventGroupName: String(r.eventGroupName),
    logLevel: r.logLevel as EventLogRow['logLevel'],
    device: (r.device as string | null) ?? null,
    serial: (r.serial as string | null) ?? null,
    address: (r.address as string | null) ?? null,
    userId: num(r.userId),
    userLogin: (r.userLogin as string | null) ?? null,
    childrenCount: Number(r.childrenCount),
    logDuration: num(r.logDuration),
    message: messageIn(lang, r),
    messageCode: (r.messageCode as string | null) ?? null,
    objectClass: (r.objectClass as string | null) ?? null,
    objectId: num(r.objectId),
  };
}

const rowColumns = {
  id: eventLogs.id,
  parentId: eventLogs.parentId,
  logDatetime: eventLogs.logDatetime,
  eventGroupId: eventLogs.eventGroupId,
  eventGroupName: eventGroups.name,
  logLevel: eventLogs.logLevel,
  device: eventLogs.device,
  serial: eventLogs.serial,
  address: eventLogs.address,
  userId: eventLogs.userId,
  userLogin: users.login,
  childrenCount: eventLogs.childrenCount,
  logDuration: eventLogs.durationMs,
  message: eventLogs.message,
  messageCode: eventLogs.messageCode,
  messageParams: eventLogs.messageParams,
  objectClass: eventLogs.objectClass,
  objectId: eventLogs.objectId,
};

function selectRows(db: Db) {
  return db
    .select(rowColumns)
    .from(eventLogs)
    .innerJoin(eventGroups, eq(eventGroups.id, eventLogs.eventGroupId))
    .leftJoin(users, eq(users.id, eventLogs.userId));
}

export type NewLogRow = Omit<typeof eventLogs.$inferInsert, 'id' | 'childrenCount'> & { logDatetime: Date };

/**
 * Many records in one INSERT; returns their ids in the order of `rows`. The ids are taken from
 * the sequence first and written explicitly: RETURNING does not promise the order of the rows given.
 */
export async function insertLogs(db: Db, rows: NewLogRow[]): Promise<number[]> {
  if (!rows.length) return [];
  // event_logs.id is a bigserial (drizzle/0000_init.sql): its sequence is event_logs_id_seq.
  const res = await db.execute<{ id: unknown }>(sql`SELECT nextval('event_logs_id_seq') AS id FROM generate_series(1, ${rows.length}::int)`);
  const ids = res.rows.map((r) => Number(r.id));
  await bulk(db, eventLogs, rows.map((r, i) => ({ parentId: null, userId: null, stackTrace: null, durationMs: null, childrenCount: 0, ...r, ...logSubject(r.messageParams), id: ids[i] })));
  return ids;
}

export async function logRecord(db: Db, id: number) {
  const [row] = await db
    .select({
      ...rowColumns,
      locationId: eventLogs.locationId,
      stackTrace: eventLogs.stackTrace,
      eventGroupCode: eventGroups.code,
      userLastName: users.lastName,
      userFirstName: users.firstName,
    })
    .from(eventLogs)
    .innerJoin(eventGroups, eq(eventGroups.id, eventLogs.eventGroupId))
    .leftJoin(users, eq(users.id, eventLogs.userId))
    .where(eq(eventLogs.id, id));
  return row ?? null;
}

export async function childRows(db: Db, parentId: number, limit: number, caller: Scoped, lang: Lang = 'en'): Promise<EventLogRow[]> {
  const rows = await selectRows(db).where(and(eq(eventLogs.parentId, parentId), visibleCondition(caller, eventLogs.locationId) ?? undefined)).orderBy(asc(eventLogs.logDatetime), asc(eventLogs.id)).limit(limit);
  return rows.map((r) => toRow(r, lang));
}

export async function parentRef(db: Db, id: number, caller: Scoped, lang: Lang = 'en') {
  const visible = visibleCondition(caller, sql`l.location_id`) ?? sql`true`;
  const res = await db.execute<{ id: unknown; message: string; message_code: string | null; message_params: unknown }>(sql`SELECT l.id, l.message, l.message_code, l.message_params FROM event_logs l WHERE l.id = ${id} AND ${visible}`);
  const r = res.rows[0];
  return r ? { id: Number(r.id), message: logMessage(lang, r.message_code, params(r.message_params), r.message) } : null;
}

/** One record; returns its id. */
export async function insertLog(db: Db, values: Omit<typeof eventLogs.$inferInsert, 'id'>): Promise<number> {
  const [row] = await db.insert(eventLogs).values({ ...values, ...logSubject(values.messageParams) }).returning({ id: eventLogs.id });
  return row.id;
}

/** A child was added under the record. */
export async function countChild(db: Db, parentId: number) {
  await db.update(eventLogs).set({ childrenCount: sql`${eventLogs.childrenCount} + 1` }).where(eq(eventLogs.id, parentId));
}

export async function groupAndLocationOf(db: Db, id: number) {
  const [r] = await db.select({ eventGroupId: eventLogs.eventGroupId, locationId: eventLogs.locationId }).from(eventLogs).where(eq(eventLogs.id, id));
  return r ?? null;
}

export async function messageCodeOf(db: Db, id: number): Promise<string | null> {
  const [r] = await db.select({ code: eventLogs.messageCode }).from(eventLogs).where(eq(eventLogs.id, id));
  return r?.code ?? null;
}

/**
 * Closes a run: its level (by default the worst of its children's, I without any), its duration
 * (by default from its time stamp until now) and, when given, its new text.
 */
export async function finishRecord(
  db: Db,
  id: number,
  f: { level?: string; durationMs?: number; text: { message: string; messageRu: string | null; params: Record<string, unknown> | null } | null },
) {
  const level = f.level
    ? sql`${f.level}`
    : sql`COALESCE((SELECT CASE max(CASE c.log_level WHEN 'E' THEN 3 WHEN 'W' THEN 2 ELSE 1 END) WHEN 3 THEN 'E' WHEN 2 THEN 'W' ELSE 'I' END
                    FROM event_logs c WHERE c.parent_id = ${id}), 'I')`;
  const duration = f.durationMs !== undefined
    ? sql`${f.durationMs}`
    : sql`GREATEST(0, floor(extract(epoch FROM (clock_timestamp() - ${eventLogs.logDatetime})) * 1000))::int`;
  await db
    .update(eventLogs)
    .set({ logLevel: level, durationMs: duration, ...(f.text ? { message: f.text.message, messageRu: f.text.messageRu, messageParams: f.text.params, ...logSubject(f.text.params) } : {}) })
    .where(eq(eventLogs.id, id));
}

export async function eventGroupId(db: Db, code: string): Promise<number> {
  const [g] = await db.select({ id: eventGroups.id }).from(eventGroups).where(eq(eventGroups.code, code));
  if (!g) throw new Error(`Event group ${code} is not seeded`);
  return g.id;
}

export function allGroups(db: Db) {
  return db.select().from(eventGroups).orderBy(asc(eventGroups.name));
}

/** Deletes up to `limit` of the oldest records before `before` (never `keepId`); returns how many. */
export async function deleteBatch(db: Db, before: Date, limit: number, keepId: number | null): Promise<number> {
  const res = await db.execute<{ n: number }>(sql`
    WITH doomed AS (
      SELECT id FROM event_logs WHERE log_datetime < ${before.toISOString()} AND id <> ${keepId ?? -1}
      ORDER BY log_datetime LIMIT ${limit}
    ), gone AS (
      DELETE FROM event_logs WHERE id IN (SELECT id FROM doomed) RETURNING 1
    )
    SELECT count(*)::int AS n FROM gone`);
  return Number(res.rows[0]!.n);
}

/**
 * Up to `limit` records after `afterId` (in id order) that have a template's params but no
 * Russian text yet: written before migration 0041 (`EventLog.translateMissing`).
 */
export async function untranslated(db: Db, afterId: number, limit: number) {
  const res = await db.execute<{ id: unknown; message_code: string; message_params: unknown }>(sql`
    SELECT id, message_code, message_params FROM event_logs
    WHERE id > ${afterId} AND message_ru IS NULL AND message_code IS NOT NULL AND message_params IS NOT NULL
    ORDER BY id LIMIT ${limit}`);
  return res.rows.map((r) => ({ id: Number(r.id), code: r.message_code, params: params(r.message_params) }));
}

/** Stores records' Russian texts, one statement for the batch. */
export async function setRussian(db: Db, rows: { id: number; ru: string }[]) {
  if (!rows.length) return;
  await db.execute(sql`
    UPDATE event_logs l SET message_ru = v.ru
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS v(id bigint, ru text) WHERE l.id = v.id`);
}
