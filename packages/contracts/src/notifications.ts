import { z } from 'zod';
import { DEVICE_STATUS_CODES, type DeviceEventType } from './device-events.ts';
import { id, idRef, namedRefSchema, text } from './fields.ts';
import { defineList } from './list.ts';
import { COLOR_TYPES, DEVICE_TYPES, PAPER_FORMATS } from './reading.ts';

/** What a notification's form may hold besides the common fields (spec section 2, Notifications). */
type TypeField = 'statuses' | 'dim01List' | 'dim02List' | 'dim03List' | 'threshold' | 'report' | 'fileExtension' | 'attachment';

type TypeDef = {
  id: number;
  /** Body variables, written `{device.<name>}` (spec section 3). */
  variables: readonly string[];
  fields: readonly TypeField[];
  /** The device events it reacts to; none for the scheduled-only types and the level watch. */
  events: readonly DeviceEventType[];
  /** IMMEDIATELY is offered (not for counters and reports, spec section 4). */
  immediate: boolean;
};

const DEVICE_VARIABLES = ['serialNumber', 'ip', 'modelCode', 'hostname', 'snmpLocation', 'status', 'location'] as const;

/** The notification types, a registry: ids are fixed, so the API's `notificationType.id` is stable. */
export const NOTIFICATION_TYPES = {
  STATUS_CHANGE: {
    id: 1,
    variables: [...DEVICE_VARIABLES, 'consumableLevel', 'interfaceLink', 'eventDate'],
    fields: ['statuses'],
    events: ['STATUS_CHANGE', 'NOT_AVAILABLE', 'BACK_ONLINE'],
    immediate: true,
  },
  IP_CHANGE: {
    id: 2,
    variables: [...DEVICE_VARIABLES, 'interfaceLink', 'eventDate', 'oldIp'],
    fields: ['dim01List'],
    events: ['IP_CHANGE'],
    immediate: true,
  },
  MIN_CONSUMABLE_LEVEL: {
    id: 3,
    variables: [...DEVICE_VARIABLES, 'interfaceLink', 'partType', 'partModelCode', 'partSerialNumber', 'partLevel', 'partRunsOut', 'eventDate'],
    fields: ['dim01List', 'threshold'],
    events: [],
    immediate: true,
  },
  PART_REPLACEMENT: {
    id: 4,
    variables: [...DEVICE_VARIABLES, 'interfaceLink', 'partType', 'partModelCode', 'partSerialNumber', 'partInstallDatetime'],
    fields: ['dim01List'],
    events: ['SUPPLY_REPLACED'],
    immediate: true,
  },
  REPORT: {
    id: 5,
    variables: [],
    fields: ['dim01List', 'report', 'fileExtension', 'dim02List', 'dim03List', 'attachment'],
    events: [],
    immediate: false,
  },
  COUNTERS: {
    id: 6,
    variables: [],
    fields: ['attachment'],
    events: [],
    immediate: false,
  },
  /** A daily digest per location of what to order (issue 45), its list as a CSV attached. */
  SUPPLIES_TO_ORDER: {
    id: 7,
    variables: [],
    fields: [],
    events: [],
    immediate: false,
  },
  /** An agent not heard from for AGENT_SILENT_MINUTES (issue 42): once when it falls silent, once when it is back. */
  AGENT_SILENT: {
    id: 8,
    variables: ['agentName', 'location', 'lastContact', 'eventDate'],
    fields: [],
    events: [],
    immediate: true,
  },
} as const satisfies Record<string, TypeDef>;

export type NotificationTypeCode = keyof typeof NOTIFICATION_TYPES;
export const NOTIFICATION_TYPE_CODES = Object.keys(NOTIFICATION_TYPES) as NotificationTypeCode[];
export const DEFAULT_NOTIFICATION_TYPE: NotificationTypeCode = 'STATUS_CHANGE';
export const notificationTypeById = (typeId: number): NotificationTypeCode | undefined => NOTIFICATION_TYPE_CODES.find((c) => NOTIFICATION_TYPES[c].id === typeId);
export const typeHasField = (code: NotificationTypeCode, field: TypeField) => (NOTIFICATION_TYPES[code].fields as readonly string[]).includes(field);

/** `{device.<name>}` in a body. */
export const VARIABLE_PATTERN = /\{device\.([A-Za-z0-9]+)\}/g;

/** Removes the variables the type does not know (spec section 5: stripped on load). */
export function stripUnknownVariables(body: string, code: NotificationTypeCode): string {
  const known = NOTIFICATION_TYPES[code].variables as readonly string[];
  return body.replace(VARIABLE_PATTERN, (all, name: string) => (known.includes(name) ? all : ''));
}

/** The counters a COUNTERS notification (and a report's attachment) may attach, in CSV order. */
export const COUNTER_ATTACHMENT_COLUMNS = [
  'ip', 'serialNumber', 'inventoryNumber', 'modelCode', 'hostname', 'snmpLocation', 'status', 'location',
  'printedPageCount', 'printedBwPageCount', 'printedColorPageCount',
  'printedPageA3Count', 'printedPageA3BwCount', 'printedPageA3ColorCount',
  'printedPageA4Count', 'printedPageA4BwCount', 'printedPageA4ColorCount',
  'copyPageCount', 'scanPageCount',
] as const;
export type CounterColumn = (typeof COUNTER_ATTACHMENT_COLUMNS)[number];

/** An attachment as the API stores it: column names, each ending with a semicolon. */
export const attachmentColumns = (attachment: string | null | undefined): string[] => (attachment ?? '').split(';').map((s) => s.trim()).filter(Boolean);
export const attachmentString = (columns: readonly string[]) => columns.map((c) => `${c};`).join('');

export const FILE_EXTENSIONS = ['CSV', 'XLSX', 'PDF'] as const;
export const THRESHOLD_DEFAULT = 1;

// ---- Schedules: seconds-first cron strings in UTC (spec section 7) ----

export const WEEK_DAYS = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'] as const;
export type WeekDay = (typeof WEEK_DAYS)[number];
export const SCHEDULE_KINDS = ['DAILY', 'WEEKLY', 'MONTHLY', 'IMMEDIATELY'] as const;
export type ScheduleKind = (typeof SCHEDULE_KINDS)[number];

/** The schedule control's value (spec section 3, schedule detail), in the user's local time. */
export type ScheduleForm = { id: ScheduleKind; days: WeekDay[]; dayOfMonth: number; lastDay: boolean; time: string };
export const DEFAULT_SCHEDULE: ScheduleForm = { id: 'DAILY', days: ['MON'], dayOfMonth: 1, lastDay: false, time: '10:00' };

/**
 * The shapes the API accepts: `0 m h ? * * *` (daily), `0 m h ? * MON,WED *` (weekly),
 * `0 m h 15 * ? *` or `0 m h L * ? *` (monthly). A day of month up to 31: a local day 28 may be
 * day 29 in UTC, and the local first of a month the last day (L) of the one before.
 */
export const SCHEDULE_PATTERN =
  /^0 ([1-5]?\d) (1?\d|2[0-3]) (?:\? \* (?:\*|(?:MON|TUE|WED|THU|FRI|SAT|SUN)(?:,(?:MON|TUE|WED|THU|FRI|SAT|SUN)){0,6})|(?:[1-9]|[12]\d|3[01]|L) \* \?) \*$/;

const DAY_MINUTES = 1440;
const pad = (n: number) => String(n).padStart(2, '0');

function shiftDays(days: readonly WeekDay[], by: number): WeekDay[] {
  const out = days.map((d) => WEEK_DAYS[(WEEK_DAYS.indexOf(d) + by + 7) % 7]);
  return WEEK_DAYS.filter((d) => out.includes(d));
}

/**
 * The cron string (UTC) of a schedule set in local time; `offsetMinutes` is local minus UTC
 * (`-new Date().getTimezoneOffset()`). IMMEDIATELY has none (null). Days move with the time when
 * it crosses midnight in UTC. One case has no cron string: the last day of the month at a local
 * time that is still the day before in UTC (after midnight east of Greenwich); it runs on the
 * last day in UTC, which is the first of the next month there.
 */
export function scheduleToCron(f: ScheduleForm, offsetMinutes: number): string | null {
  if (f.id === 'IMMEDIATELY') return null;
  const [h, m] = f.time.split(':').map(Number);
  const utc = h * 60 + m - offsetMinutes;
  const shift = Math.floor(utc / DAY_MINUTES);
  const minutes = ((utc % DAY_MINUTES) + DAY_MINUTES) % DAY_MINUTES;
  const head = `0 ${minutes % 60} ${Math.floor(minutes / 60)}`;
  if (f.id === 'DAILY') return `${head} ? * * *`;
  if (f.id === 'WEEKLY') return `${head} ? * ${shiftDays(f.days, shift).join(',')} *`;
  let dom: string;
  if (f.lastDay) dom = shift > 0 ? '1' : 'L';
  else if (f.dayOfMonth + shift < 1) dom = 'L';
  else dom = String(f.dayOfMonth + shift);
  return `${head} ${dom} * ? *`;
}

/** The schedule control's value of a stored cron string (null: IMMEDIATELY), in local time. */
export function cronToSchedule(cron: string | null, offsetMinutes: number): ScheduleForm {
  if (!cron) return { ...DEFAULT_SCHEDULE, id: 'IMMEDIATELY' };
  const [, min, hour, dom, , dow] = cron.split(' ');
  const local = Number(hour) * 60 + Number(min) + offsetMinutes;
  const shift = Math.floor(local / DAY_MINUTES);
  const minutes = ((local % DAY_MINUTES) + DAY_MINUTES) % DAY_MINUTES;
  const time = `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
  if (dom === '?' && dow !== '*') return { ...DEFAULT_SCHEDULE, id: 'WEEKLY', days: shiftDays(dow.split(',') as WeekDay[], shift), time };
  if (dom === '?' || dom === '*') return { ...DEFAULT_SCHEDULE, id: 'DAILY', time };
  if (dom === 'L') return shift > 0 ? { ...DEFAULT_SCHEDULE, id: 'MONTHLY', dayOfMonth: 1, time } : { ...DEFAULT_SCHEDULE, id: 'MONTHLY', lastDay: true, time };
  const day = Number(dom) + shift;
  if (day < 1) return { ...DEFAULT_SCHEDULE, id: 'MONTHLY', lastDay: true, time };
  return { ...DEFAULT_SCHEDULE, id: 'MONTHLY', dayOfMonth: Math.min(28, day), time };
}

// ---- The API ----

const codeRef = z.object({ code: text(50, { line: true }) }, 'general.mandatory');

/** `POST`/`PUT /api/notifications`: the spec's payload (types and report as objects, attachment as a string). */
/** A body's visible text: without tags, non-breaking spaces (an editor's empty paragraph is `&nbsp;`) or edge spaces. */
export const bodyText = (html: string) => html.replace(/<[^>]*>/g, '').replace(/&nbsp;/g, ' ').trim();

export const notificationInputSchema = z
  .object({
    name: text(250, { line: true }).trim().min(1, 'general.mandatory'),
    active: z.boolean(),
    description: text(2000).nullable().optional(),
    subject: text(500, { line: true }).trim().min(1, 'general.mandatory'),
    body: text(100_000).refine((s) => bodyText(s).length > 0, 'general.mandatory'),
    notificationType: z.object({ id: id.optional(), code: z.enum(NOTIFICATION_TYPE_CODES as [NotificationTypeCode, ...NotificationTypeCode[]]).optional() }, 'general.mandatory'),
    locations: z.array(idRef).max(500).default([]),
    subscribers: z.array(idRef).max(500).default([]),
    /** Channels besides e-mail (issue 42); only the default administrator changes them. */
    channels: z.array(idRef).max(20).optional(),
    schedule: z.string().max(100).regex(SCHEDULE_PATTERN, 'notification.badSchedule').nullable().optional(),
    isScheduled: z.boolean().optional(),
    includeSystemSubscribers: z.boolean().default(false),
    statuses: z.array(z.enum(DEVICE_STATUS_CODES, 'general.badValue')).max(DEVICE_STATUS_CODES.length).default([]),
    dim01List: z.array(z.enum(DEVICE_TYPES, 'general.badValue')).max(DEVICE_TYPES.length).default([]),
    dim02List: z.array(z.enum(COLOR_TYPES, 'general.badValue')).max(COLOR_TYPES.length).default([]),
    dim03List: z.array(z.enum(PAPER_FORMATS, 'general.badValue')).max(PAPER_FORMATS.length).default([]),
    threshold: z.number('notification.badThreshold').int('notification.badThreshold').min(0, 'notification.badThreshold').max(100, 'notification.badThreshold').nullable().optional(),
    report: codeRef.nullable().optional(),
    fileExtension: codeRef.nullable().optional(),
    fileExtensionCode: z.enum(FILE_EXTENSIONS, 'general.badValue').nullable().optional(),
    attachment: text(2000, { line: true }).nullable().optional(),
  })
  .superRefine((n, ctx) => {
    const code = n.notificationType.code ?? (n.notificationType.id ? notificationTypeById(n.notificationType.id) : undefined);
    if (!code) {
      ctx.addIssue({ code: 'custom', path: ['notificationType'], message: 'general.mandatory' });
      return;
    }
    if (n.active && n.subscribers.length === 0 && !n.includeSystemSubscribers && !n.channels?.length) {
      ctx.addIssue({ code: 'custom', path: ['subscribers'], message: 'general.mandatory' });
    }
    if (!n.schedule && !NOTIFICATION_TYPES[code].immediate) ctx.addIssue({ code: 'custom', path: ['schedule'], message: 'general.mandatory' });
    if (typeHasField(code, 'attachment')) {
      const cols = attachmentColumns(n.attachment);
      if (cols.length === 0) ctx.addIssue({ code: 'custom', path: ['attachment'], message: 'general.mandatory' });
      if (code === 'COUNTERS' && cols.some((c) => !(COUNTER_ATTACHMENT_COLUMNS as readonly string[]).includes(c))) {
        ctx.addIssue({ code: 'custom', path: ['attachment'], message: 'general.badValue' });
      }
    }
    if (code === 'REPORT') {
      if (!n.report) ctx.addIssue({ code: 'custom', path: ['report'], message: 'general.mandatory' });
      if (!n.fileExtension && !n.fileExtensionCode) ctx.addIssue({ code: 'custom', path: ['fileExtension'], message: 'general.mandatory' });
    }
  });
export type NotificationInput = z.input<typeof notificationInputSchema>;
export type ParsedNotification = z.output<typeof notificationInputSchema>;

/** The type code of a parsed input (the refinement made sure there is one). */
export const inputTypeCode = (n: Pick<ParsedNotification, 'notificationType'>): NotificationTypeCode =>
  n.notificationType.code ?? notificationTypeById(n.notificationType.id ?? 0) ?? DEFAULT_NOTIFICATION_TYPE;

export const notificationTypeSchema = z.object({ id: z.number().int(), code: z.enum(NOTIFICATION_TYPE_CODES as [NotificationTypeCode, ...NotificationTypeCode[]]), name: z.string() });
export type NotificationType = z.infer<typeof notificationTypeSchema>;

export const subscriberSchema = z.object({ id: z.number().int(), email: z.string(), isSystem: z.boolean() });
export type Subscriber = z.infer<typeof subscriberSchema>;

/** `GET /api/notifications/{id}`. */
export const notificationSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  active: z.boolean(),
  description: z.string().nullable(),
  subject: z.string(),
  body: z.string(),
  notificationType: notificationTypeSchema,
  locations: z.array(namedRefSchema),
  subscribers: z.array(subscriberSchema),
  channels: z.array(z.object({ id: z.number().int(), name: z.string(), kind: z.string() })),
  schedule: z.string().nullable(),
  isScheduled: z.boolean(),
  isEditable: z.boolean(),
  includeSystemSubscribers: z.boolean(),
  statuses: z.array(z.string()),
  dim01List: z.array(z.string()),
  dim02List: z.array(z.string()),
  dim03List: z.array(z.string()),
  threshold: z.number().int().nullable(),
  report: z.object({ code: z.string(), name: z.string() }).nullable(),
  fileExtension: z.object({ code: z.string(), name: z.string() }).nullable(),
  fileExtensionCode: z.string().nullable(),
  attachment: z.string().nullable(),
  /** When a scheduled one runs next (UTC). */
  nextRunAt: z.string().nullable(),
});
export type Notification = z.infer<typeof notificationSchema>;

/** A row of the notifications grid: the notification's own fields, its type by id. */
export const notificationListRowSchema = notificationSchema
  .pick({ id: true, active: true, name: true, description: true })
  .extend({ notificationTypeId: z.number().int() });
export type NotificationListRow = z.infer<typeof notificationListRowSchema>;

/** The notifications grid (`/api/notifications/page`). */
export const notificationsList = defineList(notificationListRowSchema, {
  endpoint: '/notifications/page',
  defaultSort: [{ field: 'name', dir: 'ASC' }],
  columns: ['active', 'name', 'notificationTypeId', 'description'],
  hidden: ['id'],
});

/** Who is subscribed to what (`/api/user-notifications-v/page`). */
export const userNotificationRowSchema = z.object({
  id: z.string(),
  userId: z.number().int(),
  login: z.string(),
  email: z.string(),
  notificationId: z.number().int(),
  notificationName: z.string(),
  notificationTypeId: z.number().int(),
  active: z.boolean(),
});
export type UserNotificationRow = z.infer<typeof userNotificationRowSchema>;

export const userNotificationsList = defineList(userNotificationRowSchema, {
  endpoint: '/user-notifications-v/page',
  defaultSort: [{ field: 'notificationName', dir: 'ASC' }],
  columns: ['login', 'email', 'notificationName', 'notificationTypeId', 'active'],
  hidden: ['id', 'userId', 'notificationId'],
});

/** `POST /api/notifications/{id}/test-email/`: how many messages went out. */
export const testEmailResultSchema = z.object({ sent: z.number().int() });
