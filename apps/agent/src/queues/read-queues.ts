import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { AgentConfig } from '@pagewatch/contracts/agent-api';
import { MAX_BATCH_JOBS, type AgentQueue, type QueueJobBatch } from '@pagewatch/contracts/agent-queues';
import type { AgentLog } from '../run/collect.ts';
import type { Spool } from '../run/spool.ts';
import { QUEUE_READERS } from './queue-reader.ts';
import type { QueueReader } from './queue-read.ts';

/** What the agent has spooled of each queue: the server's cursor lags until the spool is sent. */
type Cursors = Record<string, { stateVersion: number; lastJobId: number }>;

export type ReadQueuesOptions = {
  spool: Spool;
  log: AgentLog;
  signal?: AbortSignal;
  timeoutMs?: number;
  readers?: Partial<Record<AgentQueue['type'], QueueReader>>;
};

const cursorsPath = (spool: Spool) => join(spool.dir, 'queues.json');

function loadCursors(spool: Spool): Cursors {
  try {
    return existsSync(cursorsPath(spool)) ? (JSON.parse(readFileSync(cursorsPath(spool), 'utf8')) as Cursors) : {};
  } catch {
    return {};
  }
}

/** The job after which this read starts: the server's cursor, or what was spooled since, unless a reset came between. */
export function sinceOf(q: AgentQueue, cursors: Cursors): number {
  const mine = cursors[q.id];
  const server = q.sinceJobId ?? 0;
  return mine && mine.stateVersion === q.stateVersion ? Math.max(mine.lastJobId, server) : server;
}

/**
 * Reads each queue of the config once: its completed jobs after the last one seen go to the
 * spool in batches, like readings; a queue that cannot be read goes as a batch with the error.
 * One queue failing never stops the others.
 */
export async function readQueues(cfg: AgentConfig, opts: ReadQueuesOptions): Promise<{ jobs: number; failed: number }> {
  const { spool, log } = opts;
  const cursors = loadCursors(spool);
  let jobs = 0;
  let failed = 0;
  for (const q of cfg.queues ?? []) {
    if (opts.signal?.aborted) break;
    const reader = opts.readers?.[q.type] ?? QUEUE_READERS[q.type];
    const readAt = new Date().toISOString();
    const base = { queueId: q.id, readAt, stateVersion: q.stateVersion };
    const since = sinceOf(q, cursors);
    try {
      const read = await reader(q, { signal: opts.signal, timeoutMs: opts.timeoutMs });
      const fresh = read.jobs.filter((j) => j.externalJobId > since).sort((a, b) => a.externalJobId - b.externalJobId);
      // One batch even when nothing is new: it tells the server the queue was read.
      for (let i = 0; i === 0 || i < fresh.length; i += MAX_BATCH_JOBS) {
        const batch: QueueJobBatch = { batchId: randomUUID(), ...base, printerUri: read.printerUri, error: null, jobs: fresh.slice(i, i + MAX_BATCH_JOBS) };
        await spool.append({ kind: 'queue-jobs', batch });
      }
      if (fresh.length) {
        cursors[q.id] = { stateVersion: q.stateVersion, lastJobId: fresh[fresh.length - 1]!.externalJobId };
        writeFileSync(cursorsPath(spool), JSON.stringify(cursors));
      }
      jobs += fresh.length;
    } catch (error) {
      failed++;
      const message = (error as Error).message.slice(0, 2000);
      log('warn', `queue ${q.id} (${q.host}:${q.port}${q.url ?? ''}): ${message}`);
      await spool.append({ kind: 'queue-jobs', batch: { batchId: randomUUID(), ...base, printerUri: null, error: message, jobs: [] } });
    }
  }
  if (cfg.queues?.length) log('info', `queues: ${jobs} new jobs from ${cfg.queues.length} queues, ${failed} not read`);
  return { jobs, failed };
}
