import { agentQueueJobSchema, printerHostOf, type AgentQueueJob, type QueueJobsRunResult } from '@pagewatch/contracts/agent-queues';
import type { queueJobsRunSchema } from '@pagewatch/contracts/agent-queues';
import { isIpv4 } from '@pagewatch/contracts/network-ranges';
import type { z } from 'zod';
import { errorBody, issueFields } from '../../lib/error-body.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Lang } from '../../i18n/messages.ts';
import { descendantIds } from '../locations/index.ts';
import { DomainService } from '../event-logs/index.ts';
import * as repo from './queue-jobs.repository.ts';
import './queues.messages.ts';

type Run = z.output<typeof queueJobsRunSchema>;
type Rejected = QueueJobsRunResult['rejected'];

const EARLIEST = Date.UTC(2000, 0, 1);
const SKEW_MS = 24 * 3600_000;

/** What zod cannot check: a time before 2000 or in the future, a job completed before it was made. */
function impossible(j: AgentQueueJob, now: number): boolean {
  const done = Date.parse(j.completedAt);
  const made = j.createdAt ? Date.parse(j.createdAt) : done;
  return done < EARLIEST || done > now + SKEW_MS || made < EARLIEST || made > done;
}

/**
 * A printer address as a device is looked up by: an IPv4 by IP; a host name by the address
 * the agent resolved it to, then by name (lower case, no trailing dot or `.local`).
 */
export function addressKey(addr: string, resolved: string | null = null): repo.AddressKey {
  if (isIpv4(addr)) return { addr, ip: addr, name: null, resolved: null };
  return { addr, ip: null, name: addr.toLowerCase().replace(/\.$/, '').replace(/\.local$/, ''), resolved };
}

/**
 * The agents' completed jobs: kept once per queue and external id, matched to the device
 * behind the queue (its printer's address or host name among the agent's locations), and
 * added up into that device's user days. A run carries every queue an agent read; its jobs
 * are stored together, so the cost is one request and a few statements per run, not per
 * queue. A queue's read with an error is the queue's status, and nothing else.
 */
export class QueueJobsIngest extends DomainService {
  /** Each job checked on its own: the impossible ones are refused, the rest kept. */
  private check(queueId: number, jobs: unknown[], lang: Lang, now: number, rejected: Rejected): AgentQueueJob[] {
    const valid: AgentQueueJob[] = [];
    jobs.forEach((raw, index) => {
      const rawId = (raw as { externalJobId?: unknown } | null)?.externalJobId;
      const externalJobId = typeof rawId === 'number' ? rawId : null;
      const parsed = agentQueueJobSchema.safeParse(raw);
      if (!parsed.success) {
        const body = errorBody(lang, 'VALIDATION', 'errors.VALIDATION', {}, issueFields(parsed.error.issues.slice(0, 20), `jobs.${index}.`));
        rejected.push({ queueId, index, externalJobId, status: 400, message: body.message });
      } else if (impossible(parsed.data, now)) {
        const body = errorBody(lang, 'UNPROCESSABLE', 'queues.impossibleJob', {}, [{ field: `jobs.${index}.completedAt`, key: 'queues.badJobTime' }]);
        rejected.push({ queueId, index, externalJobId, status: 422, message: body.message });
      } else valid.push(parsed.data);
    });
    return valid;
  }

  async ingest(agentId: number, run: Run, lang: Lang, now = Date.now()): Promise<QueueJobsRunResult> {
    const seen = new Set<number>();
    run.queues.forEach((r, i) => {
      if (seen.has(r.queueId)) throw new AppError('VALIDATION', { fields: [{ field: `queues.${i}.queueId`, key: 'queues.queueTwice' }] });
      seen.add(r.queueId);
    });
    const rejected: Rejected = [];
    const reads = run.queues.map((r) => ({ ...r, valid: r.error ? [] : this.check(r.queueId, r.jobs, lang, now, rejected) }));
    const readAt = new Date(Math.min(Date.parse(run.readAt), now)).toISOString();

    return this.db.transaction(async (tx) => {
      const locked = new Map((await repo.lockQueues(tx, agentId, [...seen])).map((q) => [q.id, q]));
      // Another agent's queue answers as a missing one: an agent learns nothing of the others.
      for (const r of reads) {
        if (!locked.has(r.queueId)) rejected.push({ queueId: r.queueId, index: null, externalJobId: null, status: 404, message: errorBody(lang, 'NOT_FOUND', 'errors.NOT_FOUND', {}, []).message });
      }
      const ok = reads.flatMap((r) => {
        const q = locked.get(r.queueId);
        return q ? [{ r, q, address: r.error ? q.printerAddress : (printerHostOf(r.printerUri) ?? q.printerAddress) }] : [];
      });

      // Matched again only when the printer's address changed, or no device was found yet.
      const rematch = ok.filter((x) => !x.r.error && x.address !== null && (x.address !== x.q.printerAddress || x.q.deviceId === null));
      const matched = rematch.length
        ? await repo.devicesAt(tx, await descendantIds(tx, [rematch[0]!.q.locationId]), [...new Map(rematch.map((x) => [x.address!, addressKey(x.address!, x.r.printerIp ?? null)])).values()])
        : new Map<string, { id: number; locationId: number }>();
      const again = new Set(rematch.map((x) => x.q.id));
      const devices = new Map(ok.map(({ q, address }) => {
        if (!again.has(q.id)) return [q.id, { id: q.deviceId, locationId: q.deviceLocationId }];
        const d = address ? matched.get(address) : undefined;
        return [q.id, { id: d?.id ?? null, locationId: d?.locationId ?? null }] as const;
      }));

      const jobs = ok.flatMap(({ r }) => r.valid.map((j) => ({ ...j, q: r.queueId })));
      const stored = await repo.insertRunJobs(tx, ok.map(({ q }) => ({ queueId: q.id, deviceId: devices.get(q.id)!.id, locationId: devices.get(q.id)!.locationId })), jobs);

      const states: repo.QueueReadState[] = [];
      for (const { r, q, address } of ok) {
        const base = { id: q.id, host: q.host };
        const where = { objectClass: 'QueueDao' as const, objectId: q.id, locationId: q.locationId };
        if (r.error) {
          if (q.status !== 'ERROR' || q.statusMessage !== r.error) await this.log.write({ group: 'AGENTS', level: 'W', messageCode: 'queue.readFailed', params: { ...base, error: r.error }, ...where }, tx);
          states.push({ id: q.id, status: 'ERROR', statusMessage: r.error, lastReadAt: readAt, printerAddress: q.printerAddress, deviceId: q.deviceId, lastJobId: q.lastJobId });
          continue;
        }
        if (q.status === 'ERROR') await this.log.write({ group: 'AGENTS', level: 'I', messageCode: 'queue.readAgain', params: base, ...where }, tx);
        const refused = rejected.filter((x) => x.queueId === q.id).length;
        if (refused) await this.log.write({ group: 'AGENTS', level: 'W', messageCode: 'queue.jobsRejected', params: { id: q.id, count: refused }, ...where }, tx);
        // A read from before a reset does not move the reset queue's cursor on.
        const current = r.stateVersion === undefined || r.stateVersion === q.stateVersion;
        const maxId = Math.max(0, ...r.valid.map((j) => j.externalJobId));
        const lastJobId = current && maxId > (q.lastJobId ?? 0) ? maxId : q.lastJobId;
        states.push({ id: q.id, status: 'OK', statusMessage: null, lastReadAt: readAt, printerAddress: address, deviceId: devices.get(q.id)!.id, lastJobId });
      }
      await repo.updateQueuesRead(tx, states);
      const storedCount = [...stored.values()].reduce((a, b) => a + b, 0);
      return { stored: storedCount, duplicates: jobs.length - storedCount, rejected };
    });
  }
}
