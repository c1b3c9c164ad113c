import { z } from 'zod';
import { idRef, namedRefSchema, text } from './fields.ts';
import { defineList, timestamp } from './list.ts';
import { statusDefs } from './status-defs.ts';
import { locationRefSchema } from './users.ts';

/**
 * Print queues (spec section 3, Queue and Queue job): a print server an agent reads the
 * completed jobs of, and those jobs. Each queue type is an entry of QUEUE_TYPE_DEFS (house
 * style 6): the fields its form shows and the agent platform that reads it. A Windows print
 * server type is one more entry, read by an agent on Windows.
 */
export const QUEUE_TYPES = ['IPP'] as const;
export const queueTypeSchema = z.enum(QUEUE_TYPES, 'general.badValue');
export type QueueType = (typeof QUEUE_TYPES)[number];

export type QueueField = 'host' | 'port' | 'url' | 'username' | 'password' | 'token';
export type QueueTypeDef = {
  labelKey: string;
  /** The fields its form shows; the others are stored empty. */
  fields: readonly QueueField[];
  defaultPort: number;
  /** Agent platforms (Node's process.platform) that can read it; null: any. */
  platforms: readonly string[] | null;
};

/** CUPS and any IPP print server: Get-Jobs over IPP (ipp://host:port/url). */
export const QUEUE_TYPE_DEFS: Record<QueueType, QueueTypeDef> = {
  IPP: { labelKey: 'queues.type.IPP', fields: ['host', 'port', 'url', 'username', 'password'], defaultPort: 631, platforms: null },
};

/** Queue read states, each defined once with its label and colour (house style 5). */
export const QUEUE_STATUSES = ['NEW', 'OK', 'ERROR'] as const;
export const queueStatusSchema = z.enum(QUEUE_STATUSES);
export type QueueStatus = (typeof QUEUE_STATUSES)[number];
export const QUEUE_STATUS_DEFS = statusDefs<QueueStatus>('queues.status', { NEW: 'gray', OK: 'teal', ERROR: 'red' });

/** A host name or an IPv4 address: letters, digits, dots and dashes, no scheme, no port. */
const HOST = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
/** The printer's path on the print server (e.g. /printers/office): no spaces, no scheme. */
const URL_PATH = /^\/[A-Za-z0-9._~!$&'()*+,;=:@%/-]*$/;

export const isQueueHost = (s: string) => HOST.test(s);
export const isQueueUrlPath = (s: string) => URL_PATH.test(s);

const optionalText = (max: number) => text(max).trim().nullable().optional().transform((v) => (v ? v : null));

/**
 * A queue as the console edits it. `password` and `token` are write-only: absent or null keep
 * the stored one, a string sets it, `clearPassword`/`clearToken` drop it; the API answers
 * with `passwordSet` and `tokenSet`.
 */
export const queueInputSchema = z
  .object({
    type: queueTypeSchema,
    agent: idRef,
    host: text(253, { line: true }).trim().min(1, 'general.mandatory').refine(isQueueHost, 'queues.badHost'),
    port: z.number('queues.badPort').int('queues.badPort').min(1, 'queues.badPort').max(65535, 'queues.badPort'),
    url: optionalText(1000).refine((v) => v === null || isQueueUrlPath(v), 'queues.badUrl'),
    username: optionalText(255),
    password: text(255).nullable().optional(),
    token: text(4000).nullable().optional(),
    clearPassword: z.boolean().optional(),
    clearToken: z.boolean().optional(),
  });
export type QueueInput = z.input<typeof queueInputSchema>;

/**
 * Where a queue's password and token are sent: the agent that reads it (its network decides what
 * the host name reaches), the protocol and the address. A change of any of them needs the stored
 * secrets given again or cleared (security.md, write-only secrets): the server refuses it, and
 * the form asks for them before it sends.
 */
export type QueueDestination = { type: string; agentId: number | null; host: string; port: number; url: string | null };
export const sameQueueDestination = (a: QueueDestination, b: QueueDestination) =>
  a.type === b.type && a.agentId === b.agentId && a.host === b.host && a.port === b.port && (a.url ?? null) === (b.url ?? null);

const queueFields = {
  id: z.number().int(),
  type: queueTypeSchema,
  host: z.string(),
  port: z.number().int(),
  url: z.string().nullable(),
  status: queueStatusSchema,
  statusMessage: z.string().nullable(),
  lastReadAt: timestamp().nullable(),
  printerAddress: z.string().nullable(),
  jobCount: z.number().int(),
};

/** A queue as the API returns it: secrets only as "set or not". */
export const queueSchema = z.object({
  ...queueFields,
  username: z.string().nullable(),
  passwordSet: z.boolean(),
  tokenSet: z.boolean(),
  lastJobId: z.number().int().nullable(),
  agent: namedRefSchema,
  location: locationRefSchema,
  device: z.object({ id: z.number().int(), serialNumber: z.string().nullable(), ip: z.string().nullable() }).nullable(),
});
export type Queue = z.infer<typeof queueSchema>;

export const queueListRowSchema = z.object({
  ...queueFields,
  agentId: z.number().int(),
  agentName: z.string(),
  locationId: z.number().int(),
  locationName: z.string(),
  deviceId: z.number().int().nullable(),
  deviceSerialNumber: z.string().nullable(),
});
export type QueueListRow = z.infer<typeof queueListRowSchema>;

/** The queues grid (`/api/queues`, `/api/queues-v`). */
export const queuesList = defineList(queueListRowSchema, {
  endpoint: '/queues',
  defaultSort: [{ field: 'id', dir: 'ASC' }],
  columns: ['type', 'host', 'port', 'url', 'agentName', 'locationName', 'deviceSerialNumber', 'status', 'lastReadAt', 'jobCount'],
  hidden: ['statusMessage', 'printerAddress', 'id', 'agentId', 'locationId', 'deviceId'],
  unfilterable: ['jobCount'],
  unsortable: ['jobCount'],
});

/** A queue job (spec section 3, Queue job), as the jobs grid shows it. */
export const queueJobRowSchema = z.object({
  id: z.number().int(),
  queueId: z.number().int(),
  externalJobId: z.number().int(),
  deviceId: z.number().int().nullable(),
  deviceSerialNumber: z.string().nullable(),
  name: z.string().nullable(),
  createdAt: timestamp().nullable(),
  completedAt: timestamp(),
  username: z.string(),
  clientMachine: z.string().nullable(),
  printedPageCount: z.number().int(),
  colorPageCount: z.number().int().nullable(),
  sizeKb: z.number().int().nullable(),
  paperSize: z.string().nullable(),
  duplex: z.boolean().nullable(),
});
export type QueueJobRow = z.infer<typeof queueJobRowSchema>;

/** The jobs of queues (`/api/queue-jobs/page`); the queue's tab filters by queueId. */
export const queueJobsList = defineList(queueJobRowSchema, {
  endpoint: '/queue-jobs/page',
  defaultSort: [{ field: 'completedAt', dir: 'DESC' }],
  columns: [
    'externalJobId', 'deviceSerialNumber', 'name', 'createdAt', 'completedAt', 'username', 'clientMachine',
    'printedPageCount', 'colorPageCount', 'sizeKb', 'paperSize', 'duplex',
  ],
  hidden: ['id', 'queueId', 'deviceId'],
});
