import type { AgentQueue, AgentQueueJob } from '@pagewatch/contracts/agent-queues';

/** What one read of a queue gives: the printer behind it, and its completed jobs (any order). */
export type QueueRead = { printerUri: string | null; jobs: AgentQueueJob[] };

export type QueueReadOptions = { signal?: AbortSignal; timeoutMs?: number };

/** Reads a print server's completed jobs; throws an Error whose message says why it could not. */
export type QueueReader = (queue: AgentQueue, opts: QueueReadOptions) => Promise<QueueRead>;
