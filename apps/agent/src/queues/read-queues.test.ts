import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_QUEUE_JOBS, MAX_RUN_BYTES, MAX_RUN_JOBS, MAX_RUN_QUEUES, queueJobsRunSchema, type AgentQueue, type AgentQueueJob, type QueueRead } from '@pagewatch/contracts/agent-queues';
import type { AgentConfig } from '@pagewatch/contracts/agent-api';
import type { Spool, SpoolRecord } from '../run/spool.ts';
import { packRuns, readQueues } from './read-queues.ts';

const job = (id: number): AgentQueueJob => ({
  externalJobId: id, name: null, username: 'alice', clientMachine: null, createdAt: null, completedAt: '2026-03-02T09:00:00.000Z',
  printedPageCount: 1, colorPageCount: null, sizeKb: null, paperSize: null, duplex: null,
});
const jobs = (n: number) => Array.from({ length: n }, (_, i) => job(i + 1));
const read = (queueId: number, n: number): QueueRead => ({ queueId, stateVersion: 0, printerUri: null, error: null, jobs: jobs(n) });

describe('a run\'s reads as requests', () => {
  it('one request for every queue of a run, within the contract\'s limits', () => {
    const runs = packRuns([read(1, 5), read(2, 0), { ...read(3, 0), error: 'down' }], '2026-03-02T09:15:00.000Z');
    expect(runs).toHaveLength(1);
    expect(runs[0]!.queues.map((q) => [q.queueId, q.jobs.length, q.error])).toEqual([[1, 5, null], [2, 0, null], [3, 0, 'down']]);
    expect(queueJobsRunSchema.safeParse(runs[0]).success).toBe(true);
  });

  it('cuts past the limits: a queue at most once a request, no request over its queues or jobs', () => {
    const big = packRuns([read(1, MAX_QUEUE_JOBS * 2 + 1), read(2, 3)], 'x');
    expect(big.map((r) => r.queues.map((q) => [q.queueId, q.jobs.length]))).toEqual([[[1, MAX_QUEUE_JOBS]], [[1, MAX_QUEUE_JOBS]], [[1, 1], [2, 3]]]);
    expect(big[1]!.queues[0]!.jobs[0]!.externalJobId).toBe(MAX_QUEUE_JOBS + 1);
    const many = packRuns(Array.from({ length: MAX_RUN_QUEUES + 1 }, (_, i) => read(i + 1, 0)), 'x');
    expect(many.map((r) => r.queues.length)).toEqual([MAX_RUN_QUEUES, 1]);
    const heavy = packRuns(Array.from({ length: 12 }, (_, i) => read(i + 1, MAX_QUEUE_JOBS)), 'x');
    expect(heavy.map((r) => r.queues.length)).toEqual([MAX_RUN_JOBS / MAX_QUEUE_JOBS, 2]);
    expect(new Set([...many, ...heavy, ...big].map((r) => r.batchId)).size).toBe(many.length + heavy.length + big.length);
  });

  it('keeps each request under its size in bytes, the longest values too', () => {
    const long = (q: number, n: number): QueueRead => ({ ...read(q, 0), jobs: jobs(n).map((j) => ({ ...j, name: 'Отчёт'.repeat(51), username: 'ю'.repeat(255) })) });
    const runs = packRuns([long(1, 300), long(2, 300), long(3, 10)], 'x', 200_000);
    const sizes = runs.map((r) => Buffer.byteLength(JSON.stringify(r)));
    expect(Math.max(...sizes)).toBeLessThanOrEqual(200_000 + 200);
    expect(runs.length).toBeGreaterThan(2);
    // Every job once, in order, each queue at most once a request.
    for (const q of [1, 2, 3]) expect(runs.flatMap((r) => r.queues.filter((x) => x.queueId === q).flatMap((x) => x.jobs.map((j) => j.externalJobId)))).toEqual(jobs(q === 3 ? 10 : 300).map((j) => j.externalJobId));
    for (const r of runs) expect(new Set(r.queues.map((q) => q.queueId)).size).toBe(r.queues.length);
    // At the contract's size, 10,000 of the longest jobs go in several requests under the server's 10 MB.
    const worst = packRuns(Array.from({ length: 10 }, (_, q) => long(q + 1, MAX_QUEUE_JOBS)), 'x');
    expect(worst.length).toBeGreaterThan(1);
    for (const r of worst) expect(Buffer.byteLength(JSON.stringify(r))).toBeLessThan(MAX_RUN_BYTES + 1000);
  });
});

describe('reading the queues of a run', () => {
  it('spools one run with each queue\'s new jobs or its error, and remembers where each stopped', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pagewatch-read-queues-'));
    try {
      const records: SpoolRecord[] = [];
      const spool = { dir, append: async (r: SpoolRecord) => void records.push(r) } as unknown as Spool;
      const q = (id: number, sinceJobId: number | null): AgentQueue => ({ id, type: 'IPP', host: 'cups', port: 631, url: `/printers/p${id}`, username: null, password: null, token: null, sinceJobId, stateVersion: 0 });
      const uris: Record<number, string> = { 1: 'socket://P1.corp:9100', 2: 'ipp://10.0.0.2/ipp/print', 4: 'ipp://p1.corp/ipp/print', 5: 'socket://gone:9100' };
      const readers = { IPP: async (x: AgentQueue) => (x.id === 3 ? Promise.reject(new Error('refused')) : { printerUri: uris[x.id]!, jobs: jobs(3) }) };
      const asked: string[] = [];
      const resolve = async (host: string) => (asked.push(host), host === 'p1.corp' ? '10.0.0.1' : null);
      const cfg = { queues: [q(1, null), q(2, 2), q(3, null), q(4, 3), q(5, 3)] } as AgentConfig;
      expect(await readQueues(cfg, { spool, log: () => undefined, readers, resolve })).toEqual({ jobs: 4, failed: 1 });
      expect(records).toHaveLength(1);
      const run = (records[0] as Extract<SpoolRecord, { kind: 'queue-jobs-run' }>).run;
      expect(run.queues.map((r) => [r.queueId, r.jobs.map((j) => j.externalJobId), r.printerUri, r.printerIp, r.error])).toEqual([
        [1, [1, 2, 3], uris[1], '10.0.0.1', null], [2, [3], uris[2], undefined, null], [3, [], null, undefined, 'refused'],
        [4, [], uris[4], '10.0.0.1', null], [5, [], uris[5], undefined, null],
      ]);
      // A host name is looked up once a run; an IPv4 address is not looked up.
      expect(asked).toEqual(['p1.corp', 'gone']);
      expect(queueJobsRunSchema.safeParse(run).success).toBe(true);
      // The next run before the server has them: nothing is spooled twice.
      records.length = 0;
      expect(await readQueues(cfg, { spool, log: () => undefined, readers, resolve })).toEqual({ jobs: 0, failed: 1 });
      expect((records[0] as Extract<SpoolRecord, { kind: 'queue-jobs-run' }>).run.queues.map((r) => r.jobs.length)).toEqual([0, 0, 0, 0, 0]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a printer\'s host name resolved by the agent', () => {
  it('an IPv4 address as it is, a name through the system\'s resolver, null for none', async () => {
    const { resolveIpv4 } = await import('./resolve-host.ts');
    expect(await resolveIpv4('10.1.2.3')).toBe('10.1.2.3');
    expect(await resolveIpv4('localhost')).toBe('127.0.0.1');
    expect(await resolveIpv4('no-such-printer.invalid')).toBeNull();
    // Past the time the answer is null, not a wait.
    const started = Date.now();
    expect(await resolveIpv4('slow-printer.invalid', 1)).toBeNull();
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

describe('sending what the spool holds', () => {
  it('sends a run as it is, and one queue\'s read spooled by an older agent as a run of that queue', async () => {
    const { deliver } = await import('../run/deliver.ts');
    const sent: unknown[] = [];
    const logged: string[] = [];
    const transport = { sendQueueJobs: async (run: unknown) => (sent.push(run), { stored: 0, duplicates: 0, rejected: [{ queueId: 9, index: null, externalJobId: null, status: 404, message: 'Not found' }] }) };
    const run = { batchId: 'b1', readAt: 'r', queues: [read(1, 1)] };
    const old = { batchId: 'b2', readAt: 'r', ...read(2, 2) };
    for (const record of [{ kind: 'queue-jobs-run', run }, { kind: 'queue-jobs', batch: old }] as SpoolRecord[]) {
      await deliver(transport as never, {} as Spool, (_level, m) => logged.push(m), { seq: 1, path: '' }, { firstLine: 0, lines: 1, records: [record] });
    }
    expect(sent).toEqual([run, { batchId: 'b2', readAt: 'r', queues: [read(2, 2)] }]);
    expect(logged[0]).toBe('the server refused queue 9: Not found');
  });
});
