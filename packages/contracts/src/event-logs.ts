import { z } from 'zod';
import { codedRefSchema } from './fields.ts';
import { defineList, timestamp } from './list.ts';
import { statusDefs } from './status-defs.ts';

/**
 * Log levels (spec section 4), each defined once: its code, label key and colour (a Mantine
 * colour name). The server writes the codes; the console shows label and colour from here.
 */
export const LOG_LEVELS = statusDefs<LogLevel>('logs.level', { I: 'blue', W: 'orange', E: 'red', P: 'violet' });
export const LOG_LEVEL_CODES = ['I', 'W', 'E', 'P'] as const;
export const logLevelSchema = z.enum(LOG_LEVEL_CODES);
export type LogLevel = z.infer<typeof logLevelSchema>;
/** The levels a finished record may end in (P means "still running"). */
export type FinalLogLevel = Exclude<LogLevel, 'P'>;

/** Objects a record may link to; the console links the first three (spec, Logs). */
export const LOG_OBJECT_CLASSES = ['UserDao', 'AgentDao', 'NetworkRangeDao', 'DeviceDao', 'LocationDao', 'QueueDao'] as const;
export type LogObjectClass = (typeof LOG_OBJECT_CLASSES)[number];

export const eventGroupSchema = codedRefSchema;
export type EventGroupRow = z.infer<typeof eventGroupSchema>;

/** A row of GET /api/event-logs/page; `logDuration` is in milliseconds (the console shows seconds). */
export const eventLogRowSchema = z.object({
  id: z.number().int(),
  parentId: z.number().int().nullable(),
  logDatetime: timestamp(),
  eventGroupId: z.number().int(),
  eventGroupName: z.string(),
  logLevel: logLevelSchema,
  /** What the record is about (the device's model, its serial, an IP address), when it names one. */
  device: z.string().nullable(),
  serial: z.string().nullable(),
  address: z.string().nullable(),
  userId: z.number().int().nullable(),
  userLogin: z.string().nullable(),
  childrenCount: z.number().int(),
  logDuration: z.number().int().nullable(),
  message: z.string(),
  messageCode: z.string().nullable(),
  objectClass: z.string().nullable(),
  objectId: z.number().int().nullable(),
});
export type EventLogRow = z.infer<typeof eventLogRowSchema>;

/** GET /api/event-logs/{id}. `stackTraceLines` is empty unless the caller is ADMIN or DEVELOPER. */
export const eventLogSchema = eventLogRowSchema.extend({
  eventGroup: eventGroupSchema,
  user: z.object({ id: z.number().int(), login: z.string(), name: z.string() }).nullable(),
  messageLines: z.array(z.string()),
  stackTraceLines: z.array(z.string()),
  parent: z.object({ id: z.number().int(), message: z.string() }).nullable(),
  /** The first children by date (at most EVENT_LOG_CHILDREN_LIMIT); all of them are in the list with a parentId filter. */
  children: z.array(eventLogRowSchema),
});
export type EventLog = z.infer<typeof eventLogSchema>;
export const EVENT_LOG_CHILDREN_LIMIT = 200;

/**
 * The logs grid (spec section 2, Logs). The structured fields (group, level, device, serial,
 * address) come before the message, so that the filter row offers them first (issue 40).
 * Top-level only is the filter `["parentId", "=", null]`,
 * a run's children `["parentId", "=", <id>]` (parentId, id, userId, messageCode and
 * eventGroupName filter and sort too, though the grid does not show them).
 */
export const eventLogsList = defineList(eventLogRowSchema, {
  endpoint: '/event-logs/page',
  defaultSort: [{ field: 'logDatetime', dir: 'DESC' }],
  // The message before the device's columns: at 1440 px it is seen without scrolling (issue 56).
  columns: [
    'logDatetime', 'eventGroupId', 'logLevel', 'userLogin', 'message', 'device', 'serial', 'address', 'childrenCount', 'logDuration'
  ],
  hidden: ['objectClass', 'objectId'],
});
