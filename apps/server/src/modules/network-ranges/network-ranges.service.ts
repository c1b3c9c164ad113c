import type { ListQuery } from '@pagewatch/contracts/list';
import {
  PACKETS_PER_SECOND,
  networkRangeInputSchema,
  rangeSize,
  rangeSecretsMove,
  type NetworkRange,
  type NetworkRangeInput,
  type NetworkRangeListRow,
} from '@pagewatch/contracts/network-ranges';
import type { z } from 'zod';
import { MAX_AGENT_RANGES } from '@pagewatch/contracts/agent-api';
import { locationRef } from '../locations/index.ts';
import { AppError, notFound } from '../../lib/app-error.ts';
import { runList } from '../../lib/list-run.ts';
import { requireSecretsOnMove } from '../../lib/secrets.ts';
import { secretReachAfter } from '../../lib/secret-reach.ts';
import { rangeScope } from '../../lib/range-scope.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { Caller } from '../../lib/caller.ts';
import { agentById } from '../agents/index.ts';
import * as repo from './network-ranges.repository.ts';
import { networkRangesListSql } from './network-ranges.list.ts';
import './network-ranges.messages.ts';
import { DomainService, type EventLog } from '../event-logs/index.ts';
import type { Db } from '../../db/client.ts';

type Row = repo.NetworkRangeRow;
type Parsed = z.output<typeof networkRangeInputSchema>;


/** Normalises a mask to how it was written, without spaces; "/24" and "255.255.255.0" both stay readable. */
const cleanMask = (m: string | null) => (m ? m.replace(/\s+/g, '') : null);

export class NetworkRangesService extends DomainService {
  /** Seals the community and v3 keys a request gives: they are stored encrypted (issue 43). */
  private readonly secrets: SecretBox;
  constructor(db: Db, log: EventLog, secrets: SecretBox) {
    super(db, log);
    this.secrets = secrets;
  }

  list(caller: Caller, q: ListQuery) {
    return runList<NetworkRangeListRow>(this.db, networkRangesListSql, q, caller);
  }

  private async visible(caller: Caller, id: number): Promise<Row> {
    const r = await repo.rangeById(this.db, id);
    if (!r) throw notFound();
    if (!caller.scope.has(r.locationId)) throw new AppError('OUT_OF_SCOPE');
    return r;
  }

  /** Never returns the v3 keys: only whether they are set. */
  private async view(r: Row): Promise<NetworkRange> {
    const loc = (await locationRef(this.db, r.locationId))!;
    const agent = r.agentId ? await agentById(this.db, r.agentId) : null;
    const scope = rangeScope(r);
    return {
      ...scope,
      name: r.name,
      snmpVersion: r.snmpVersion as NetworkRange['snmpVersion'],
      communitySet: !!r.community,
      v3User: r.v3User,
      v3Level: r.v3Level as NetworkRange['v3Level'],
      v3AuthProtocol: r.v3AuthProtocol,
      authKeySet: !!r.v3AuthKey,
      v3PrivProtocol: r.v3PrivProtocol,
      privKeySet: !!r.v3PrivKey,
      agent: agent && { id: agent.id, name: agent.name },
      location: loc,
      comment: r.comment,
      addressCount: rangeSize(scope),
    };
  }

  async get(caller: Caller, id: number) {
    return this.view(await this.visible(caller, id));
  }

  /** The location: the one given, else the agent's. Both must be in the caller's scope. */
  private async resolvePlace(caller: Caller, input: Parsed, rangeId: number | null): Promise<{ agentId: number | null; locationId: number }> {
    let agentLocation: number | null = null;
    if (input.agent) {
      const a = await agentById(this.db, input.agent.id);
      if (!a) throw new AppError('VALIDATION', { fields: [{ field: 'agent', key: 'general.badValue' }] });
      if (!caller.scope.has(a.locationId)) throw new AppError('OUT_OF_SCOPE', { key: 'networks.agentOutOfScope' });
      // A run reports one result per range, and the agent API takes at most this many (issue 39).
      if ((await repo.countRangesOfAgent(this.db, a.id, rangeId)) >= MAX_AGENT_RANGES) {
        throw new AppError('VALIDATION', { fields: [{ field: 'agent', key: 'networks.agentFull', params: { max: MAX_AGENT_RANGES } }] });
      }
      agentLocation = a.locationId;
    }
    const locationId = input.location?.id ?? agentLocation;
    if (locationId == null) throw new AppError('VALIDATION', { fields: [{ field: 'location', key: 'networks.locationRequired' }] });
    const loc = await locationRef(this.db, locationId);
    if (!loc) throw new AppError('VALIDATION', { fields: [{ field: 'location', key: 'general.badValue' }] });
    if (!caller.scope.has(locationId)) throw new AppError('OUT_OF_SCOPE');
    return { agentId: input.agent?.id ?? null, locationId };
  }

  private values(caller: Caller, input: Parsed, place: { agentId: number | null; locationId: number }, existing: Row | null) {
    const v3 = input.snmpVersion === '3';
    const usesAuth = v3 && (input.v3Level === 'authNoPriv' || input.v3Level === 'authPriv');
    const usesPriv = v3 && input.v3Level === 'authPriv';
    // Write-only secrets (community, v3 keys): a new value replaces, none keeps the stored one;
    // a version or level without them drops them.
    const authKey = usesAuth ? (this.secrets.sealOrNull(input.authKey) || existing?.v3AuthKey || null) : null;
    const privKey = usesPriv ? (this.secrets.sealOrNull(input.privKey) || existing?.v3PrivKey || null) : null;
    const community = v3 ? null : (this.secrets.sealOrNull(input.community) || existing?.community || null);
    const secretReach = secretReachAfter(caller, existing?.secretReach ?? null, [
      { stored: !!community, given: !!input.community },
      { stored: !!authKey, given: !!input.authKey },
      { stored: !!privKey, given: !!input.privKey },
    ]);
    const isRange = input.type === 'RANGE';
    return {
      name: input.name || null,
      type: input.type,
      address: isRange ? null : input.address,
      mask: isRange ? null : cleanMask(input.mask),
      ipFrom: isRange ? input.from : null,
      ipTo: isRange ? input.to : null,
      port: input.port,
      packetsPerSecond: input.packetsPerSecond ?? existing?.packetsPerSecond ?? PACKETS_PER_SECOND.default,
      snmpVersion: input.snmpVersion,
      community,
      secretReach,
      v3User: v3 ? (input.v3User ?? null) : null,
      v3Level: v3 ? (input.v3Level ?? null) : null,
      v3AuthProtocol: usesAuth ? (input.v3AuthProtocol ?? null) : null,
      v3AuthKey: authKey,
      v3PrivProtocol: usesPriv ? (input.v3PrivProtocol ?? null) : null,
      v3PrivKey: privKey,
      agentId: place.agentId,
      locationId: place.locationId,
      comment: input.comment || null,
      updatedAt: new Date(),
    };
  }

  private requireKeys(values: ReturnType<NetworkRangesService['values']>) {
    const fields = [];
    if (values.snmpVersion !== '3' && !values.community) fields.push({ field: 'community', key: 'general.mandatory' });
    if (values.v3AuthProtocol && !values.v3AuthKey) fields.push({ field: 'authKey', key: 'general.mandatory' });
    if (values.v3PrivProtocol && !values.v3PrivKey) fields.push({ field: 'privKey', key: 'general.mandatory' });
    if (fields.length) throw new AppError('VALIDATION', { fields });
  }

  async create(caller: Caller, input: NetworkRangeInput) {
    const parsed = networkRangeInputSchema.parse(input);
    const place = await this.resolvePlace(caller, parsed, null);
    const values = this.values(caller, parsed, place, null);
    this.requireKeys(values);
    const row = await repo.insertRange(this.db, values);
    await this.log.byCaller(caller, { group: 'AGENTS', level: 'I', messageCode: 'networkRange.created', params: { id: row.id }, objectClass: 'NetworkRangeDao', objectId: row.id, locationId: row.locationId });
    return this.view(row);
  }

  async update(caller: Caller, id: number, input: NetworkRangeInput) {
    const existing = await this.visible(caller, id);
    const parsed = networkRangeInputSchema.parse(input);
    const place = await this.resolvePlace(caller, parsed, id);
    const values = this.values(caller, parsed, place, existing);
    this.requireKeys(values);
    const destination = (r: Row | typeof values) => ({ type: r.type, address: r.address, mask: r.mask, from: r.ipFrom, to: r.ipTo, port: r.port, agentId: r.agentId });
    requireSecretsOnMove(rangeSecretsMove(destination(existing), destination(values)), [
      { field: 'community', key: 'networks.communityAgain', kept: !!values.community && !parsed.community },
      { field: 'authKey', key: 'networks.authKeyAgain', kept: !!values.v3AuthKey && !parsed.authKey },
      { field: 'privKey', key: 'networks.privKeyAgain', kept: !!values.v3PrivKey && !parsed.privKey },
    ]);
    const row = await repo.updateRange(this.db, id, values);
    await this.log.byCaller(caller, { group: 'AGENTS', level: 'I', messageCode: 'networkRange.updated', params: { id }, objectClass: 'NetworkRangeDao', objectId: id, locationId: row.locationId });
    return this.view(row);
  }

  async remove(caller: Caller, id: number) {
    const existing = await this.visible(caller, id);
    await repo.deleteRange(this.db, id);
    await this.log.byCaller(caller, { group: 'AGENTS', level: 'I', messageCode: 'networkRange.deleted', params: { id }, objectClass: 'NetworkRangeDao', objectId: id, locationId: existing.locationId });
  }
}
