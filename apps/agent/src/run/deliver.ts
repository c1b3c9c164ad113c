import { randomUUID } from 'node:crypto';
import type { AgentLog } from './collect.ts';
import type { Spool, SpoolMessage, SpoolRecord, SpoolSegment } from './spool.ts';
import type { AgentTransport } from './transport.ts';

/**
 * Sends one spooled message to the server: a run's start, problem or finish, a batch of
 * readings, or a run's jobs of its queues. Readings the server refuses for good, one by one, are set aside in the spool with
 * the reason; the rest of the batch is stored. Throws what the transport throws.
 */
export async function deliver(transport: AgentTransport, spool: Spool, log: AgentLog, segment: SpoolSegment, message: SpoolMessage): Promise<void> {
  const first = message.records[0] as SpoolRecord;
  switch (first.kind) {
    case 'run-start':
      return transport.startRun(first.runId, first.startedAt);
    case 'problem':
      return transport.problem(first.runId, { rangeId: first.rangeId, level: first.level, message: first.message });
    case 'run-finish':
      return transport.finishRun(first.runId, { finishedAt: first.finishedAt, rangeResults: first.rangeResults });
    case 'queue-jobs':
    case 'queue-jobs-run': {
      const run = first.kind === 'queue-jobs-run' ? first.run : (({ batchId, readAt, ...read }) => ({ batchId, readAt, queues: [read] }))(first.batch);
      // Jobs refused for good (impossible values), or a queue gone, are named in the log; the server keeps the rest.
      const result = await transport.sendQueueJobs(run);
      for (const r of result.rejected) {
        log('warn', r.index === null ? `the server refused queue ${r.queueId}: ${r.message}` : `the server refused job ${r.externalJobId ?? `#${r.index}`} of queue ${r.queueId}: ${r.message}`);
      }
      return;
    }
    case 'reading': {
      const readings = message.records.map((r) => (r as Extract<SpoolRecord, { kind: 'reading' }>).reading);
      const result = await transport.sendReadings({ batchId: randomUUID(), readings });
      for (const r of result.repaired ?? []) log('warn', `the server repaired broken characters of reading ${r.id ?? `#${r.index}`}: ${r.fields.join(', ')}`);
      const rejected = result.rejected ?? [];
      for (const r of rejected) log('warn', `the server refused reading ${r.id ?? `#${r.index}`} (kept in ${spool.dir}/rejected): ${r.message}`);
      if (rejected.length) {
        const records = rejected.flatMap((r) => (message.records[r.index] ? [message.records[r.index]!] : []));
        spool.reject(segment, { ...message, records }, JSON.stringify(rejected));
      }
    }
  }
}
