import { agentQueueJobSchema, type AgentQueueJob, type QueueJobBatchResult } from '@pagewatch/contracts/agent-queues';
import type { queueJobBatchSchema } from '@pagewatch/contracts/agent-queues';
import type { z } from 'zod';
import { errorBody, issueFields } from '../../lib/error-body.ts';
import { notFound } from '../../lib/app-error.ts';
import type { Lang } from '../../i18n/messages.ts';
import { descendantIds } from '../locations/locations.repository.ts';
import { DomainService } from '../event-logs/domain-service.ts';
import * as repo from './queues.repository.ts';
import { isMatchableAddress, printerAddressOf } from './queues.service.ts';
import './queues.messages.ts';

type Batch = z.output<typeof queueJobBatchSchema>;

const EARLIEST = Date.UTC(2000, 0, 1);
const SKEW_MS = 24 * 3600_000;

/** What zod cannot check: a time before 2000 or in the future, a job completed before it was made. */
function impossible(j: AgentQueueJob, now: number): boolean {
  const done = Date.parse(j.completedAt);
  const made = j.createdAt ? Date.parse(j.createdAt) : done;
  return done < EARLIEST || done > now + SKEW_MS || made < EARLIEST || made > done;
}

/**
 * The agents' completed jobs: kept once per queue and external id, matched to the device
 * behind the queue (its printer's address among the agent's locations), and added up into
 * that device's user days. A batch with an error is the queue's status, and nothing else.
 */
export class QueueJobsIngest extends DomainService {
  async ingest(agentId: number, batch: Batch, lang: Lang, now = Date.now()): Promise<QueueJobBatchResult> {
    const rejected: QueueJobBatchResult['rejected'] = [];
    const valid: AgentQueueJob[] = [];
    batch.jobs.forEach((raw, index) => {
      const rawId = (raw as { externalJobId?: unknown } | null)?.externalJobId;
      const externalJobId = typeof rawId === 'number' ? rawId : null;
      const parsed = agentQueueJobSchema.safeParse(raw);
      if (!parsed.success) {
        const body = errorBody(lang, 'VALIDATION', 'errors.VALIDATION', {}, issueFields(parsed.error.issues.slice(0, 20), `jobs.${index}.`));
        rejected.push({ index, externalJobId, status: 400, message: body.message });
      } else if (impossible(parsed.data, now)) {
        const body = errorBody(lang, 'UNPROCESSABLE', 'queues.impossibleJob', {}, [{ field: `jobs.${index}.completedAt`, key: 'queues.badJobTime' }]);
        rejected.push({ index, externalJobId, status: 422, message: body.message });
      } else valid.push(parsed.data);
    });

    return this.db.transaction(async (tx) => {
      const q = await repo.lockQueueForBatch(tx, batch.queueId);
      // Another agent's queue answers as a missing one: an agent learns nothing of the others.
      if (!q || q.agentId !== agentId) throw notFound();
      const readAt = new Date(Math.min(Date.parse(batch.readAt), now));
      const base = { id: q.id, host: q.host };

      if (batch.error) {
        if (q.status !== 'ERROR' || q.statusMessage !== batch.error) {
          await this.log.write({ group: 'AGENTS', level: 'W', messageCode: 'queue.readFailed', params: { ...base, error: batch.error }, objectClass: 'QueueDao', objectId: q.id, locationId: q.locationId }, tx);
        }
        await repo.updateQueue(tx, q.id, { status: 'ERROR', statusMessage: batch.error, lastReadAt: readAt });
        return { stored: 0, duplicates: 0, rejected };
      }

      let deviceId = q.deviceId;
      let deviceLocationId = q.deviceLocationId;
      const address = printerAddressOf(batch.printerUri) ?? q.printerAddress;
      if (address !== q.printerAddress || deviceId === null) {
        deviceId = isMatchableAddress(address) ? await repo.deviceAt(tx, await descendantIds(tx, [q.locationId]), address) : null;
        deviceLocationId = deviceId === null ? null : await repo.deviceLocation(tx, deviceId);
      }
      const device = deviceId !== null && deviceLocationId !== null ? { id: deviceId, locationId: deviceLocationId } : null;
      const stored = await repo.insertJobs(tx, q.id, device, valid);
      if (q.status === 'ERROR') {
        await this.log.write({ group: 'AGENTS', level: 'I', messageCode: 'queue.readAgain', params: base, objectClass: 'QueueDao', objectId: q.id, locationId: q.locationId }, tx);
      }
      if (rejected.length) {
        await this.log.write({ group: 'AGENTS', level: 'W', messageCode: 'queue.jobsRejected', params: { id: q.id, count: rejected.length }, objectClass: 'QueueDao', objectId: q.id, locationId: q.locationId }, tx);
      }
      // A batch read before a reset does not move the reset queue's cursor on.
      const current = batch.stateVersion === undefined || batch.stateVersion === q.stateVersion;
      const maxId = Math.max(0, ...valid.map((j) => j.externalJobId));
      const lastJobId = current && maxId > (q.lastJobId ?? 0) ? maxId : q.lastJobId;
      await repo.updateQueue(tx, q.id, { status: 'OK', statusMessage: null, lastReadAt: readAt, printerAddress: address, deviceId, lastJobId });
      return { stored, duplicates: valid.length - stored, rejected };
    });
  }
}
