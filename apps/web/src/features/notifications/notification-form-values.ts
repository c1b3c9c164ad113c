import {
  attachmentColumns,
  attachmentString,
  COUNTER_ATTACHMENT_COLUMNS,
  cronToSchedule,
  DEFAULT_SCHEDULE,
  NOTIFICATION_TYPES,
  notificationInputSchema,
  scheduleToCron,
  stripUnknownVariables,
  THRESHOLD_DEFAULT,
  typeHasField,
  type Notification,
  type NotificationInput,
  type NotificationTypeCode,
  type ScheduleForm,
} from '@pagewatch/contracts/notifications';

/** The form's values (spec sections 3 and 4): ids as strings for the selects, the schedule in local time. */
export type NotificationFormValues = {
  type: NotificationTypeCode;
  name: string;
  active: boolean;
  description: string;
  subject: string;
  body: string;
  locationIds: string[];
  subscriberIds: string[];
  /** Channels besides e-mail (issue 42): the default administrator chooses them. */
  channelIds: string[];
  includeSystemSubscribers: boolean;
  schedule: ScheduleForm;
  statuses: string[];
  dim01List: string[];
  dim02List: string[];
  dim03List: string[];
  threshold: number | string;
  reportCode: string | null;
  fileExtensionCode: string;
  attachment: string[];
};

/** Local time minus UTC, in minutes, as the schedule strings need it. */
export const localOffset = () => -new Date().getTimezoneOffset();

/** A new notification of the type (spec section 4, notification defaults). */
export function emptyValues(type: NotificationTypeCode, reportCode: string | null = null): NotificationFormValues {
  return {
    type,
    name: '',
    active: true,
    description: '',
    subject: '',
    body: '',
    locationIds: [],
    subscriberIds: [],
    channelIds: [],
    includeSystemSubscribers: false,
    schedule: { ...DEFAULT_SCHEDULE },
    statuses: [],
    dim01List: [],
    dim02List: [],
    dim03List: [],
    threshold: THRESHOLD_DEFAULT,
    reportCode,
    fileExtensionCode: 'CSV',
    attachment: type === 'COUNTERS' ? [...COUNTER_ATTACHMENT_COLUMNS] : [],
  };
}

/** A saved notification in the form; variables its type does not know are stripped (spec section 5). */
export function valuesOf(n: Notification, offset = localOffset()): NotificationFormValues {
  const type = n.notificationType.code;
  return {
    type,
    name: n.name,
    active: n.active,
    description: n.description ?? '',
    subject: n.subject,
    body: stripUnknownVariables(n.body, type),
    locationIds: n.locations.map((l) => String(l.id)),
    subscriberIds: n.subscribers.map((s) => String(s.id)),
    channelIds: (n.channels ?? []).map((c) => String(c.id)),
    includeSystemSubscribers: n.includeSystemSubscribers,
    schedule: cronToSchedule(n.schedule, offset),
    statuses: n.statuses,
    dim01List: n.dim01List,
    dim02List: n.dim02List,
    dim03List: n.dim03List,
    threshold: n.threshold ?? THRESHOLD_DEFAULT,
    reportCode: n.report?.code ?? null,
    fileExtensionCode: n.fileExtensionCode ?? 'CSV',
    attachment: attachmentColumns(n.attachment),
  };
}

/** Another type in the form: its own fields and defaults, IMMEDIATELY becomes DAILY (spec section 4). */
export function switchType(v: NotificationFormValues, type: NotificationTypeCode): NotificationFormValues {
  const fresh = emptyValues(type);
  return {
    ...v,
    type,
    body: stripUnknownVariables(v.body, type),
    schedule: v.schedule.id === 'IMMEDIATELY' ? { ...v.schedule, id: 'DAILY' } : v.schedule,
    statuses: typeHasField(type, 'statuses') ? v.statuses : [],
    threshold: fresh.threshold,
    attachment: fresh.attachment,
    reportCode: null,
  };
}

/** What the API takes (spec section 7): types and report as objects, the schedule as a UTC cron string. */
export function inputOf(v: NotificationFormValues, offset = localOffset()): NotificationInput {
  const has = (f: Parameters<typeof typeHasField>[1]) => typeHasField(v.type, f);
  return {
    name: v.name.trim(),
    active: v.active,
    description: v.description.trim() || null,
    subject: v.subject.trim(),
    body: v.body,
    notificationType: { id: NOTIFICATION_TYPES[v.type].id, code: v.type },
    locations: v.locationIds.map((id) => ({ id: Number(id) })),
    subscribers: v.subscriberIds.map((id) => ({ id: Number(id) })),
    channels: v.channelIds.map((id) => ({ id: Number(id) })),
    includeSystemSubscribers: v.includeSystemSubscribers,
    schedule: scheduleToCron(v.schedule, offset),
    isScheduled: v.schedule.id !== 'IMMEDIATELY',
    statuses: has('statuses') ? (v.statuses as NotificationInput['statuses']) : [],
    dim01List: has('dim01List') ? (v.dim01List as NotificationInput['dim01List']) : [],
    dim02List: has('dim02List') ? (v.dim02List as NotificationInput['dim02List']) : [],
    dim03List: has('dim03List') ? (v.dim03List as NotificationInput['dim03List']) : [],
    threshold: has('threshold') ? Number(v.threshold) : null,
    report: has('report') && v.reportCode ? { code: v.reportCode } : null,
    fileExtensionCode: has('fileExtension') ? (v.fileExtensionCode as NotificationInput['fileExtensionCode']) : null,
    attachment: has('attachment') ? attachmentString(v.attachment) : null,
  };
}

/**
 * The rules of spec section 5 (group notificationValidation) as i18n keys per field: the
 * contract's own schema, which the server applies too, over what the form would send. Only the
 * form's own controls add theirs: the threshold box left empty, and the monthly schedule's day
 * (the schema sees only the cron string it becomes). The weekdays rule is a dialog.
 */
export function validateNotification(v: NotificationFormValues): Record<string, string> {
  const input = inputOf(v);
  const emptyThreshold = typeHasField(v.type, 'threshold') && String(v.threshold).trim() === '';
  const parsed = notificationInputSchema.safeParse(emptyThreshold ? { ...input, threshold: Number.NaN } : input);
  const errors: Record<string, string> = {};
  for (const issue of parsed.error?.issues ?? []) {
    const field = formFieldOf(String(issue.path[0] ?? ''));
    errors[field] ??= issue.message.includes('.') ? issue.message : 'general.badValue';
  }
  if (v.schedule.id === 'MONTHLY' && !v.schedule.lastDay && !(Number.isInteger(v.schedule.dayOfMonth) && v.schedule.dayOfMonth >= 1 && v.schedule.dayOfMonth <= 28)) {
    delete errors.schedule;
    errors['schedule.dayOfMonth'] = 'notification.badDayOfMonth';
  }
  // A week without a day has no cron string the schema accepts: the save says so in its dialog instead.
  if (weeklyWithoutDays(v)) delete errors.schedule;
  return errors;
}

/** A weekly schedule without a day: the error dialog of spec section 5, and no save. */
export const weeklyWithoutDays = (v: NotificationFormValues) => v.schedule.id === 'WEEKLY' && v.schedule.days.length === 0;

/** An API field error's form field. */
export function formFieldOf(field: string): string {
  const map: Record<string, string> = { locations: 'locationIds', subscribers: 'subscriberIds', channels: 'channelIds', notificationType: 'type', report: 'reportCode', fileExtension: 'fileExtensionCode' };
  return map[field.split('.')[0]] ?? field;
}
