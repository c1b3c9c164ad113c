import { z } from 'zod';
import { int32, text } from './fields.ts';
import { queueTypeSchema } from './queues.ts';

/**
 * The print queue part of the agent protocol:
 *
 *   GET  /api/agent/config        -> AgentConfig.queues: what to read, and from which job on
 *   POST /api/agent/queue-jobs    QueueJobsRun                        -> QueueJobsRunResult
 *
 * An agent reads each queue's completed jobs with an id above `sinceJobId` and sends a run's
 * reads of every queue together, like readings: spooled while the server is away, idempotent
 * by queue and external job id. A queue's read with `error` tells it could not be read (the
 * print server away, refused credentials, no such printer); the queue shows it, the other
 * queues go on.
 */
export const agentQueueSchema = z.object({
  id: z.number().int(),
  type: queueTypeSchema,
  host: z.string(),
  port: z.number().int().min(1).max(65535),
  url: z.string().nullable(),
  username: z.string().nullable(),
  password: z.string().nullable(),
  token: z.string().nullable(),
  /** Jobs above this external id are new; null: read them all (a new or reset queue). */
  sinceJobId: z.number().int().nullable(),
  /** Rises with every reset: an agent drops what it remembers of the queue when it changes. */
  stateVersion: z.number().int(),
});
export type AgentQueue = z.infer<typeof agentQueueSchema>;

/** A completed job as the print server tells it; the limits are the table's. */
export const agentQueueJobSchema = z.object({
  externalJobId: int32.min(1),
  name: text(255).nullable(),
  username: text(255, { line: true }),
  clientMachine: text(255, { line: true }).nullable(),
  createdAt: z.iso.datetime().nullable(),
  completedAt: z.iso.datetime(),
  printedPageCount: int32.min(0).max(1_000_000),
  colorPageCount: int32.min(0).max(1_000_000).nullable(),
  sizeKb: int32.min(0).nullable(),
  paperSize: text(100, { line: true }).nullable(),
  duplex: z.boolean().nullable(),
});
export type AgentQueueJob = z.infer<typeof agentQueueJobSchema>;

/** Per-queue and per-request limits: a run of many queues is cut into several requests. */
export const MAX_QUEUE_JOBS = 1000;
export const MAX_RUN_QUEUES = 500;
export const MAX_RUN_JOBS = 10_000;
/** What an agent puts in one request at most, in bytes of JSON: well under the server's body limit (10 MB) with the longest values. */
export const MAX_RUN_BYTES = 4_000_000;

/** One queue's read within a run: its new jobs, or why it could not be read. */
export const queueReadSchema = z.object({
  queueId: int32.min(1),
  /** The queue's stateVersion the agent read under: a read from before a reset does not move its cursor. */
  stateVersion: int32.min(0).optional(),
  /** The printer behind the queue as the print server names it (CUPS device-uri); its host matches a device. */
  printerUri: text(1000, { line: true }).nullable(),
  /**
   * The IPv4 address the agent resolved the printer's host name to (dns.lookup), when the
   * printer URI names a host: matched to a device's IP where its host name matches none.
   */
  printerIp: z.ipv4().nullable().optional(),
  /** Why the queue could not be read; then `jobs` is empty. */
  error: text(2000).nullable(),
  jobs: z.array(z.unknown()).max(MAX_QUEUE_JOBS),
});
export type QueueRead = Omit<z.infer<typeof queueReadSchema>, 'jobs'> & { jobs: AgentQueueJob[] };

/**
 * One agent run's reads of its queues in one request (each queue at most once): the server
 * stores the jobs of all of them set-wise, so a run costs one request, not one per queue.
 */
export const queueJobsRunSchema = z.object({
  batchId: z.uuid(),
  readAt: z.iso.datetime(),
  queues: z.array(queueReadSchema).min(1).max(MAX_RUN_QUEUES),
});
export type QueueJobsRun = Omit<z.infer<typeof queueJobsRunSchema>, 'queues'> & { queues: QueueRead[] };

/**
 * `rejected`: jobs refused for good (`index` in the queue's jobs), or a whole queue the agent
 * may not send (`index` null: no such queue, or another agent's: 404).
 */
export const queueJobsRunResultSchema = z.object({
  stored: z.number().int(),
  duplicates: z.number().int(),
  rejected: z.array(z.object({
    queueId: z.number().int(), index: z.number().int().nullable(), externalJobId: z.number().nullable(), status: z.number().int(), message: z.string(),
  })),
});
export type QueueJobsRunResult = z.infer<typeof queueJobsRunResultSchema>;

/** The schemes whose host is the printer's network address (not usb://, file://, dnssd://). */
const NETWORK_SCHEMES = new Set(['ipp:', 'ipps:', 'http:', 'https:', 'socket:', 'lpd:']);

/**
 * The host of a printer URI (socket://10.0.0.5:9100, ipp://printer-name.local/ipp/print,
 * socket://myprinter:9100) in lower case: an IPv4 address or a host name; null for a
 * printer not on the network.
 */
export function printerHostOf(uri: string | null | undefined): string | null {
  if (!uri) return null;
  try {
    const url = new URL(uri);
    if (!NETWORK_SCHEMES.has(url.protocol)) return null;
    const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    return host && host.length <= 253 ? host : null;
  } catch {
    return null;
  }
}
