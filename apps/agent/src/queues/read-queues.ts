import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { AgentConfig } from '@pagewatch/contracts/agent-api';
import { MAX_QUEUE_JOBS, MAX_RUN_BYTES, MAX_RUN_JOBS, MAX_RUN_QUEUES, printerHostOf, type AgentQueue, type QueueJobsRun, type QueueRead } from '@pagewatch/contracts/agent-queues';
import { isIpv4 } from '@pagewatch/contracts/network-ranges';
import type { AgentLog } from '../run/collect.ts';
import type { Spool } from '../run/spool.ts';
import { QUEUE_READERS } from './queue-reader.ts';
import type { QueueReader } from './queue-read.ts';
import { resolveIpv4 } from './resolve-host.ts';

/** What the agent has spooled of each queue: the server's cursor lags until the spool is sent. */
type Cursors = Record<string, { stateVersion: number; lastJobId: number }>;

export type ReadQueuesOptions = {
  spool: Spool;
  log: AgentLog;
  signal?: AbortSignal;
  timeoutMs?: number;
  readers?: Partial<Record<AgentQueue['type'], QueueReader>>;
  /** How a printer's host name becomes an IPv4 address (null: none); the system's resolver unless given. */
  resolve?: (host: string) => Promise<string | null>;
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

const bytesOf = (v: unknown) => Buffer.byteLength(JSON.stringify(v)) + 1;

/** A queue's read cut into pieces of at most MAX_QUEUE_JOBS jobs and `maxBytes` of JSON. */
function pieces(r: QueueRead, maxBytes: number): { read: QueueRead; bytes: number }[] {
  const { jobs, ...head } = r;
  const headBytes = bytesOf(head);
  const out = [{ read: { ...head, jobs: [] as QueueRead['jobs'] }, bytes: headBytes }];
  for (const job of jobs) {
    const size = bytesOf(job);
    let last = out[out.length - 1]!;
    if (last.read.jobs.length >= MAX_QUEUE_JOBS || (last.read.jobs.length > 0 && last.bytes + size > maxBytes)) {
      last = { read: { ...head, jobs: [] }, bytes: headBytes };
      out.push(last);
    }
    last.read.jobs.push(job);
    last.bytes += size;
  }
  return out;
}

/**
 * A run's reads as requests within the contract's limits and the server's body size: as few
 * as fit, each queue at most once in a request (a queue with more jobs than one request
 * takes goes on in the next).
 */
export function packRuns(reads: QueueRead[], readAt: string, maxBytes = MAX_RUN_BYTES): QueueJobsRun[] {
  const runs: QueueJobsRun[] = [];
  let queues: QueueRead[] = [];
  let jobs = 0;
  let bytes = 0;
  const flush = () => {
    if (queues.length) runs.push({ batchId: randomUUID(), readAt, queues });
    queues = [];
    jobs = 0;
    bytes = 0;
  };
  for (const r of reads) {
    for (const [i, piece] of pieces(r, maxBytes).entries()) {
      if (i > 0 || queues.length >= MAX_RUN_QUEUES || jobs + piece.read.jobs.length > MAX_RUN_JOBS || bytes + piece.bytes > maxBytes) flush();
      queues.push(piece.read);
      jobs += piece.read.jobs.length;
      bytes += piece.bytes;
    }
  }
  flush();
  return runs;
}

/**
 * Reads each queue of the config once: the completed jobs after the last one seen of every
 * queue go to the spool together, as one request for the run (more only past the contract's
 * limits); a queue that cannot be read goes with its error. One queue failing never stops the
 * others.
 */
export async function readQueues(cfg: AgentConfig, opts: ReadQueuesOptions): Promise<{ jobs: number; failed: number }> {
  const { spool, log } = opts;
  const cursors = loadCursors(spool);
  const readAt = new Date().toISOString();
  const reads: QueueRead[] = [];
  const moved: Cursors = {};
  // A host name is resolved once a run, however many queues print to it.
  const resolved = new Map<string, Promise<string | null>>();
  const ipOf = (host: string) => {
    if (!resolved.has(host)) resolved.set(host, (opts.resolve ?? resolveIpv4)(host));
    return resolved.get(host)!;
  };
  let jobs = 0;
  let failed = 0;
  for (const q of cfg.queues ?? []) {
    if (opts.signal?.aborted) break;
    const reader = opts.readers?.[q.type] ?? QUEUE_READERS[q.type];
    const base = { queueId: q.id, stateVersion: q.stateVersion };
    const since = sinceOf(q, cursors);
    try {
      const read = await reader(q, { signal: opts.signal, timeoutMs: opts.timeoutMs });
      const fresh = read.jobs.filter((j) => j.externalJobId > since).sort((a, b) => a.externalJobId - b.externalJobId);
      // The printer named by host name: its address too, for the server to match a device by.
      const host = printerHostOf(read.printerUri);
      const printerIp = host && !isIpv4(host) ? await ipOf(host) : null;
      // Sent even when nothing is new: it tells the server the queue was read.
      reads.push({ ...base, printerUri: read.printerUri, ...(printerIp ? { printerIp } : {}), error: null, jobs: fresh });
      if (fresh.length) moved[q.id] = { stateVersion: q.stateVersion, lastJobId: fresh[fresh.length - 1]!.externalJobId };
      jobs += fresh.length;
    } catch (error) {
      failed++;
      const message = (error as Error).message.slice(0, 2000);
      log('warn', `queue ${q.id} (${q.host}:${q.port}${q.url ?? ''}): ${message}`);
      reads.push({ ...base, printerUri: null, error: message, jobs: [] });
    }
  }
  for (const run of packRuns(reads, readAt)) await spool.append({ kind: 'queue-jobs-run', run });
  if (Object.keys(moved).length) writeFileSync(cursorsPath(spool), JSON.stringify({ ...cursors, ...moved }));
  if (cfg.queues?.length) log('info', `queues: ${jobs} new jobs from ${cfg.queues.length} queues, ${failed} not read`);
  return { jobs, failed };
}
