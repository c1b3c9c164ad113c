import { z } from 'zod';
import { int32, text } from './fields.ts';
import { queueTypeSchema } from './queues.ts';

/**
 * The print queue part of the agent protocol:
 *
 *   GET  /api/agent/config        -> AgentConfig.queues: what to read, and from which job on
 *   POST /api/agent/queue-jobs    QueueJobBatch                       -> QueueJobBatchResult
 *
 * An agent reads each queue's completed jobs with an id above `sinceJobId` and sends them
 * like readings: spooled while the server is away, idempotent by queue and external job id.
 * A batch with `error` tells the queue could not be read (the print server away, refused
 * credentials, no such printer); the queue shows it, the other queues go on.
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

export const MAX_BATCH_JOBS = 1000;
export const queueJobBatchSchema = z.object({
  batchId: z.uuid(),
  queueId: int32.min(1),
  readAt: z.iso.datetime(),
  /** The printer behind the queue as the print server names it (CUPS device-uri); its host matches a device. */
  printerUri: text(1000, { line: true }).nullable(),
  /** Why the queue could not be read; then `jobs` is empty. */
  error: text(2000).nullable(),
  /** The queue's stateVersion the agent read under: a batch from before a reset does not move its cursor. */
  stateVersion: int32.min(0).optional(),
  jobs: z.array(z.unknown()).max(MAX_BATCH_JOBS),
});
export type QueueJobBatch = Omit<z.infer<typeof queueJobBatchSchema>, 'jobs'> & { jobs: AgentQueueJob[] };

export const queueJobBatchResultSchema = z.object({
  stored: z.number().int(),
  duplicates: z.number().int(),
  rejected: z.array(z.object({ index: z.number().int(), externalJobId: z.number().nullable(), status: z.number().int(), message: z.string() })),
});
export type QueueJobBatchResult = z.infer<typeof queueJobBatchResultSchema>;
