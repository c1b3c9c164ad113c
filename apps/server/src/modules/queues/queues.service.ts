import type { ListQuery } from '@pagewatch/contracts/list';
import { QUEUE_TYPE_DEFS, queueInputSchema, sameQueueDestination, type Queue, type QueueInput, type QueueStatus } from '@pagewatch/contracts/queues';
import type { z } from 'zod';
import { locationRef } from '../locations/index.ts';
import { AppError, notFound } from '../../lib/app-error.ts';
import { runListJson } from '../../lib/list-run.ts';
import { requireSecretsOnMove } from '../../lib/secrets.ts';
import { secretReachAfter } from '../../lib/secret-reach.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { ListDef } from '../../lib/list-query.ts';
import type { Caller } from '../../lib/caller.ts';
import { agentById } from '../agents/index.ts';
import { DomainService, type EventLog } from '../event-logs/index.ts';
import * as repo from './queues.repository.ts';
import './queues.messages.ts';
import type { Db } from '../../db/client.ts';

type Parsed = z.output<typeof queueInputSchema>;

/** Print queues (grants MNU_QUEUES): a queue belongs to its agent's location. */
export class QueuesService extends DomainService {
  private readonly cloud: boolean;

  /** Seals the password and token a request gives: they are stored encrypted (issue 43). */
  private readonly secrets: SecretBox;

  constructor(db: Db, log: EventLog, opts: { cloud?: boolean; secrets: SecretBox }) {
    super(db, log);
    this.cloud = opts.cloud ?? false;
    this.secrets = opts.secrets;
  }

  /** In cloud mode the print queues are the operators' (spec section 6): users of DEFAULT only, whatever a customer's grants. */
  private allowed(caller: Caller) {
    if (this.cloud && !caller.seesUnlocated) throw new AppError('FORBIDDEN', { key: 'queues.cloudDefaultOnly' });
  }

  /** A page of the queues or the jobs grid as JSON text, scoped to the caller's locations. */
  page(caller: Caller, def: ListDef, q: ListQuery) {
    this.allowed(caller);
    return runListJson(this.db, def, q, caller);
  }

  private async visible(caller: Caller, id: number): Promise<repo.QueueRow> {
    this.allowed(caller);
    const q = await repo.queueById(this.db, id);
    if (!q) throw notFound();
    if (!caller.scope.has(q.locationId)) throw new AppError('OUT_OF_SCOPE');
    return q;
  }

  /** Never the password or the token: only whether they are set. */
  private async view(id: number): Promise<Queue> {
    const q = (await repo.queueById(this.db, id))!;
    return {
      id: q.id,
      type: q.type as Queue['type'],
      host: q.host,
      port: q.port,
      url: q.url,
      username: q.username,
      passwordSet: !!q.password,
      tokenSet: !!q.token,
      status: q.status as QueueStatus,
      statusMessage: q.statusMessage,
      lastReadAt: q.lastReadAt?.toISOString() ?? null,
      lastJobId: q.lastJobId,
      printerAddress: q.printerAddress,
      jobCount: await repo.jobCount(this.db, q.id),
      agent: { id: q.agentId, name: q.agentName },
      location: (await locationRef(this.db, q.locationId))!,
      device: q.deviceId ? await repo.deviceRef(this.db, q.deviceId) : null,
    };
  }

  get(caller: Caller, id: number) {
    return this.visible(caller, id).then((q) => this.view(q.id));
  }

  /** The agent must exist and be inside the caller's locations. */
  private async agentOf(caller: Caller, input: Parsed) {
    const a = await agentById(this.db, input.agent.id);
    if (!a) throw new AppError('VALIDATION', { fields: [{ field: 'agent', key: 'general.badValue' }] });
    if (!caller.scope.has(a.locationId)) throw new AppError('OUT_OF_SCOPE', { key: 'queues.agentOutOfScope' });
    return a;
  }

  /** The type's fields only; write-only secrets: a new value replaces, none keeps, clear drops. */
  private values(caller: Caller, input: Parsed, existing: repo.QueueRow | null) {
    const fields = QUEUE_TYPE_DEFS[input.type].fields;
    const has = (f: (typeof fields)[number]) => fields.includes(f);
    const secret = (given: string | null | undefined, clear: boolean | undefined, stored: string | null | undefined) =>
      clear ? null : this.secrets.sealOrNull(given) || stored || null;
    const password = has('password') ? secret(input.password, input.clearPassword, existing?.password) : null;
    const token = has('token') ? secret(input.token, input.clearToken, existing?.token) : null;
    return {
      type: input.type,
      agentId: input.agent.id,
      host: input.host,
      port: input.port,
      url: has('url') ? input.url : null,
      username: has('username') ? input.username : null,
      password,
      token,
      secretReach: secretReachAfter(caller, existing?.secretReach ?? null, [{ stored: !!password, given: !!input.password }, { stored: !!token, given: !!input.token }]),
      updatedAt: new Date(),
    };
  }

  async create(caller: Caller, input: QueueInput) {
    this.allowed(caller);
    const parsed = queueInputSchema.parse(input);
    const agent = await this.agentOf(caller, parsed);
    const id = await repo.insertQueue(this.db, this.values(caller, parsed, null));
    await this.log.byCaller(caller, { group: 'AGENTS', level: 'I', messageCode: 'queue.created', params: { id }, objectClass: 'QueueDao', objectId: id, locationId: agent.locationId });
    return this.view(id);
  }

  async update(caller: Caller, id: number, input: QueueInput) {
    const existing = await this.visible(caller, id);
    const parsed = queueInputSchema.parse(input);
    const agent = await this.agentOf(caller, parsed);
    const values = this.values(caller, parsed, existing);
    const moved = !sameQueueDestination(existing, values);
    requireSecretsOnMove(moved, [
      { field: 'password', key: 'queues.passwordAgain', kept: !!values.password && !parsed.password },
      { field: 'token', key: 'queues.tokenAgain', kept: !!values.token && !parsed.token },
    ]);
    await repo.updateQueue(this.db, id, values);
    // Another print server or printer is another job numbering: read it from the start.
    if (moved) await repo.resetQueue(this.db, id);
    await this.log.byCaller(caller, { group: 'AGENTS', level: 'I', messageCode: 'queue.updated', params: { id }, objectClass: 'QueueDao', objectId: id, locationId: agent.locationId });
    return this.view(id);
  }

  async remove(caller: Caller, id: number) {
    const existing = await this.visible(caller, id);
    await repo.deleteQueue(this.db, id);
    await this.log.byCaller(caller, { group: 'AGENTS', level: 'I', messageCode: 'queue.deleted', params: { id }, objectClass: 'QueueDao', objectId: id, locationId: existing.locationId });
  }

  /** The agent reads every job again at its next run; jobs already kept are not doubled. */
  async reset(caller: Caller, id: number) {
    const existing = await this.visible(caller, id);
    await repo.resetQueue(this.db, id);
    await this.log.byCaller(caller, { group: 'AGENTS', level: 'I', messageCode: 'queue.reset', params: { id }, objectClass: 'QueueDao', objectId: id, locationId: existing.locationId });
    return this.view(id);
  }
}
