import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { ListQuery } from '@pagewatch/contracts/list';
import { updateRequired, type AgentDevicesStatus, type AgentDevicesStatusQuery, type AgentInput, type AgentListRow, type AgentReleaseView, type AgentWithToken } from '@pagewatch/contracts/agents';
import type { AgentConfig, AgentReleasePlatform, AgentStatus, AgentUpdateOffer, RangeResultReport } from '@pagewatch/contracts/agent-api';
import { olderVersion } from '@pagewatch/contracts/agent-api';
import { AgentReleaseSource, platformOf } from './agent-release.ts';
import type { Db } from '../../db/client.ts';
import { locationRef } from '../locations/index.ts';
import { agentRefused, hashToken } from '../../plugins/access.ts';
import { AppError, conflict, notFound } from '../../lib/app-error.ts';
import { runList } from '../../lib/list-run.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { Caller } from '../../lib/caller.ts';
import { unreached } from '../../lib/secret-reach.ts';
import { type EventLog, type LogLevel, part } from '../event-logs/index.ts';
import type { Lang } from '../../i18n/messages.ts';
import type { IngestService } from '../ingest/index.ts';
import type { ModelsService } from '../models/index.ts';
import * as repo from './agents.repository.ts';
import { agentById, agentIdByTokenHash, agentQueues, rangesOfAgent, secretReachOfAgent, agentRanges, bumpConfigVersions, agentView, periodicityMinutes, recentRuns, updatesPausedForAll, type AgentRow } from './agents.repository.ts';
import { agentsListSql } from './agents.list.ts';
import { devicesStatus, recordOutcomes } from './agent-device-status.repository.ts';
import { summaryPart } from './agents.run-summary.ts';
import './agents.messages.ts';


export const newAgentToken = () => `pwa_${randomBytes(32).toString('base64url')}`;

/** Last contact is written at most this often per agent. */
const CONTACT_EVERY_MS = 5_000;

/** Fresh walks asked for in the console (the devices module keeps them). */
export type WalkRequests = { pendingWalks(agentId: number): Promise<{ deviceId: number; ip: string; port: number }[]> };

export class AgentsService {
  private readonly walks: WalkRequests;
  private readonly db: Db;
  private readonly log: EventLog;
  private readonly ingest: IngestService;
  private readonly models: ModelsService;
  private lastContact = new Map<number, number>();

  private readonly onSpoolDepth: (agentId: number, depth: number) => void;
  private readonly logger: FastifyBaseLogger | null;

  /** Opens the stored range and queue secrets for the agent's config (issue 43). */
  private readonly secrets: SecretBox;
  /** The agent release offered to older agents (issue 44). */
  readonly release: AgentReleaseSource;

  /**
   * `opts.onSpoolDepth`: the metrics' spool gauge; `opts.logger`: the server's log, where each
   * error an agent reports (a failed range, an error of a run, an agent in ERROR) is told once.
   */
  constructor(
    db: Db,
    log: EventLog,
    ingest: IngestService,
    models: ModelsService,
    walks: WalkRequests,
    secrets: SecretBox,
    opts: { onSpoolDepth?: (agentId: number, depth: number) => void; logger?: FastifyBaseLogger | null; release?: AgentReleaseSource } = {},
  ) {
    this.secrets = secrets;
    this.release = opts.release ?? new AgentReleaseSource(null);
    this.onSpoolDepth = opts.onSpoolDepth ?? (() => {});
    this.logger = opts.logger ?? null;
    this.walks = walks;
    this.db = db;
    this.log = log;
    this.ingest = ingest;
    this.models = models;
  }

  // ---- console side ----

  list(caller: Caller, q: ListQuery) {
    return runList<AgentListRow>(this.db, agentsListSql, q, caller);
  }

  private async visible(caller: Caller, id: number): Promise<AgentRow> {
    const a = await agentById(this.db, id);
    if (!a) throw notFound();
    if (!caller.scope.has(a.locationId)) throw new AppError('OUT_OF_SCOPE');
    return a;
  }

  async get(caller: Caller, id: number) {
    return agentView(this.db, await this.visible(caller, id));
  }

  private async checkLocation(caller: Caller, locationId: number) {
    if (!(await locationRef(this.db, locationId))) throw new AppError('VALIDATION', { fields: [{ field: 'location', key: 'general.badValue' }] });
    if (!caller.scope.has(locationId)) throw new AppError('OUT_OF_SCOPE');
  }

  async create(caller: Caller, input: AgentInput, builtin: string | null = null): Promise<AgentWithToken> {
    await this.checkLocation(caller, input.location.id);
    const token = newAgentToken();
    const row = await this.db.transaction(async (tx) => {
      const created = await repo.insertAgent(tx, { name: input.name, description: input.description ?? null, locationId: input.location.id, tokenHash: hashToken(token), builtin });
      await this.log.byCaller(caller, { group: 'AGENTS', level: 'I', messageCode: 'agent.created', params: { name: input.name }, objectClass: 'AgentDao', objectId: created.id, locationId: input.location.id }, tx);
      return created;
    });
    return { ...(await agentView(this.db, row)), token };
  }

  async update(caller: Caller, id: number, input: AgentInput) {
    const a = await this.visible(caller, id);
    await this.checkLocation(caller, input.location.id);
    await this.db.transaction(async (tx) => {
      await repo.updateAgent(tx, id, { name: input.name, description: input.description ?? null, locationId: input.location.id, updatedAt: new Date() });
      await this.log.byCaller(caller, { group: 'AGENTS', level: 'I', messageCode: 'agent.updated', params: { name: a.name }, objectClass: 'AgentDao', objectId: id, locationId: input.location.id }, tx);
    });
    return this.get(caller, id);
  }

  async remove(caller: Caller, id: number) {
    const a = await this.visible(caller, id);
    await this.db.transaction(async (tx) => {
      await repo.deleteAgent(tx, id);
      await this.log.byCaller(caller, { group: 'AGENTS', level: 'I', messageCode: 'agent.deleted', params: { name: a.name }, objectClass: 'AgentDao', objectId: id, locationId: a.locationId }, tx);
    });
  }

  /**
   * A new token; the old one stops working at once. Whoever installs it reads the secrets of the
   * ranges and queues the agent reads: a range owned outside the caller's locations, or a secret
   * set by someone the caller does not reach (issue 52), keeps it from renewing.
   */
  async regenerateToken(caller: Caller, id: number): Promise<AgentWithToken> {
    const a = await this.visible(caller, id);
    if ((await rangesOfAgent(this.db, id)).some((r) => !caller.scope.has(r.locationId))) throw new AppError('FORBIDDEN', { key: 'agent.tokenForeignRanges' });
    const setters = unreached(caller, await secretReachOfAgent(this.db, id));
    if (setters.length) {
      const names = await Promise.all(setters.map(async (l) => { const ref = await locationRef(this.db, l); return ref ? `${ref.name} (${ref.code})` : `#${l}`; }));
      throw new AppError('FORBIDDEN', { key: 'agent.tokenSecretsReach', params: { locations: names.join(', ') } });
    }
    const token = newAgentToken();
    // The agent running on the old token is switched off from now: the console says so (STOPPED)
    // until it runs with the new one, not the status it last reported. The built-in agent has no token.
    const off = a.builtin ? {} : { status: 'STOPPED', statusMessage: null };
    await repo.updateAgent(this.db, id, { tokenHash: hashToken(token), updatedAt: new Date(), ...off });
    await this.log.byCaller(caller, { group: 'AGENTS', level: 'W', messageCode: 'agent.tokenRegenerated', params: { name: a.name }, objectClass: 'AgentDao', objectId: id, locationId: a.locationId });
    return { ...(await this.get(caller, id)), token };
  }

  async status(caller: Caller, id: number, lang: Lang = 'en') {
    const a = await this.visible(caller, id);
    return {
      id: a.id,
      status: a.status as AgentStatus,
      statusMessage: a.statusMessage,
      lastContactAt: a.lastContactAt?.toISOString() ?? null,
      version: a.version,
      updatePending: a.configVersionSeen < a.configVersion,
      updateRequired: updateRequired(a.apiVersion),
      runs: await recentRuns(this.db, id, lang),
    };
  }

  /** Why a device is not collected: the latest outcome of each device of the agent's ranges. */
  async devicesStatus(caller: Caller, id: number, q: AgentDevicesStatusQuery): Promise<AgentDevicesStatus> {
    await this.visible(caller, id);
    return devicesStatus(this.db, id, q, caller);
  }

  /** Every agent in the caller's scope re-fetches its config and models pack at its next contact. */
  async notifyAllUpdate(caller: Caller): Promise<{ count: number }> {
    if (!caller.scope.size) return { count: 0 };
    const rows = await bumpConfigVersions(this.db, caller);
    await this.log.byCaller(caller, { group: 'AGENTS', level: 'I', messageCode: 'agent.notifyAll', params: { count: rows.length } });
    return { count: rows.length };
  }

  /** The release offered to agents and whether updates are paused for all (the agents grid's update column). */
  async releaseView(): Promise<AgentReleaseView> {
    return { version: this.release.current()?.parsed.version ?? null, paused: await updatesPausedForAll(this.db) };
  }

  /** Pauses or resumes the updates of one agent. */
  async setUpdatesPaused(caller: Caller, id: number, paused: boolean) {
    const a = await this.visible(caller, id);
    await this.db.transaction(async (tx) => {
      await repo.updateAgent(tx, id, { updatesPaused: paused, updatedAt: new Date() });
      await this.log.write({ group: 'AGENTS', level: 'I', messageCode: paused ? 'agent.updatesPaused' : 'agent.updatesResumed', params: { actor: caller.login, name: a.name }, userId: caller.userId, objectClass: 'AgentDao', objectId: id, locationId: a.locationId }, tx);
    });
    return this.get(caller, id);
  }

  // ---- agent side ----

  /**
   * The update offered to an agent at its check-in: the release this server carries when the
   * agent reported an older version, has a build for its platform, and neither it nor every
   * agent has updates paused. A release it refused is offered again only once replaced.
   */
  private async updateOffer(a: AgentRow): Promise<AgentUpdateOffer | null> {
    const release = this.release.current();
    const platform = platformOf(a.platform);
    if (!release || !platform || !a.version || a.builtin || a.updatesPaused) return null;
    if (!olderVersion(a.version, release.parsed.version) || a.updateRefusedVersion === release.parsed.version) return null;
    const file = this.release.file(platform);
    if (!file || (await updatesPausedForAll(this.db))) return null;
    return { manifest: release.manifest, signature: release.signature, version: release.parsed.version, platform, sha256: file.sha256, size: file.size };
  }

  /** The executable an agent downloads: only the one of the update it is offered now. */
  async updateFile(agentId: number, platform: AgentReleasePlatform): Promise<{ path: string; size: number }> {
    const offer = await this.updateOffer(await this.own(agentId));
    const file = offer?.platform === platform ? this.release.file(platform) : null;
    if (!file) throw notFound();
    return file;
  }

  /** An agent would not install the offered release: kept (and logged) so the console shows why, and not offered again. */
  async updateRefused(agentId: number, version: string, error: string) {
    const a = await this.own(agentId);
    await this.db.transaction(async (tx) => {
      await repo.updateAgent(tx, agentId, { updateRefusedVersion: version, updateRefusedReason: error });
      await this.log.write({ group: 'AGENTS', level: 'E', messageCode: 'agent.updateRefused', params: { name: a.name, version, reason: error }, objectClass: 'AgentDao', objectId: agentId, locationId: a.locationId }, tx);
    });
  }

  /** The access hook's agent resolver; also records the contact. */
  async resolveToken(hash: string): Promise<number | null> {
    const id = await agentIdByTokenHash(this.db, hash);
    if (id !== null) await this.touch(id);
    return id;
  }

  /** The agent API version the agent spoke (checkAgentApiVersion): written only when it changed. */
  async noteApiVersion(agentId: number, version: number) {
    await repo.noteApiVersion(this.db, agentId, version);
  }

  /** Records a contact of the agent (at most every few seconds). */
  async touch(agentId: number) {
    const now = Date.now();
    if (now - (this.lastContact.get(agentId) ?? 0) > CONTACT_EVERY_MS) {
      this.lastContact.set(agentId, now);
      await repo.updateAgent(this.db, agentId, { lastContactAt: new Date(now) });
    }
  }

  private async own(agentId: number): Promise<AgentRow> {
    const a = await agentById(this.db, agentId);
    if (!a) throw agentRefused();
    return a;
  }

  async register(agentId: number, info: { version: string; hostname: string; platform: string }): Promise<AgentConfig> {
    await repo.updateAgent(this.db, agentId, { version: info.version, hostname: info.hostname, platform: info.platform, lastContactAt: new Date() });
    return this.config(agentId);
  }

  /** The agent gets its range's secrets in clear: they are opened here only, on their way to it. */
  private openRange(r: AgentConfig['ranges'][number]): AgentConfig['ranges'][number] {
    const snmp = r.snmp.version === '3'
      ? { ...r.snmp, authKey: this.secrets.openOrNull(r.snmp.authKey), privKey: this.secrets.openOrNull(r.snmp.privKey) }
      : { ...r.snmp, community: this.secrets.open(r.snmp.community) };
    return { ...r, snmp };
  }

  async config(agentId: number): Promise<AgentConfig> {
    const a = await this.own(agentId);
    const updateRequested = a.configVersionSeen < a.configVersion;
    if (updateRequested) await repo.updateAgent(this.db, agentId, { configVersionSeen: a.configVersion });
    return {
      agentId: a.id,
      name: a.name,
      periodicityMinutes: await periodicityMinutes(this.db),
      modelsVersion: await this.models.activeVersion(),
      ranges: (await agentRanges(this.db, agentId)).map((r) => this.openRange(r)),
      updateRequested,
      configVersion: a.configVersion,
      walkRequests: await this.walks.pendingWalks(agentId),
      queues: (await agentQueues(this.db, agentId)).map((q) => ({ ...q, password: this.secrets.openOrNull(q.password), token: this.secrets.openOrNull(q.token) })),
      update: await this.updateOffer(a),
    };
  }

  /** An agent's status; the depth of its spool goes to the metrics (agents older than it send none). */
  async reportStatus(agentId: number, status: AgentStatus, message: string | undefined, spoolDepth?: number) {
    if (spoolDepth !== undefined) this.onSpoolDepth(agentId, spoolDepth);
    const before = await repo.setAgentStatus(this.db, agentId, status, message ?? null, new Date());
    // Told when the agent enters ERROR, not at every status call while it stays there.
    if (status === 'ERROR' && before !== 'ERROR') this.logger?.error({ agent: agentId, reason: (message ?? '').slice(0, 300) }, 'agent reports an error');
  }

  /** Opens a run: a parent record in the event log (level P). Sending the same run again returns the same record. */
  async runStart(agentId: number, runId: string, startedAt: Date): Promise<{ logId: number }> {
    const existing = await repo.runById(this.db, runId);
    if (existing) {
      if (existing.agentId !== agentId) throw conflict('agent.runOfOther');
      return { logId: existing.logId };
    }
    const a = await this.own(agentId);
    return this.db.transaction(async (tx) => {
      const logId = await this.log.write({ group: 'AGENTS', level: 'P', messageCode: 'agent.run', params: { name: a.name, state: part('agentPolling') }, objectClass: 'AgentDao', objectId: agentId, locationId: a.locationId }, tx);
      await repo.insertRun(tx, { runId, agentId, logId, startedAt });
      return { logId };
    });
  }

  private async run(agentId: number, runId: string) {
    const run = await repo.runById(this.db, runId);
    if (!run || run.agentId !== agentId) throw notFound();
    return run;
  }

  async runProblem(agentId: number, runId: string, p: { rangeId?: number | null; level: 'I' | 'W' | 'E'; message: string }) {
    const run = await this.run(agentId, runId);
    const a = await this.own(agentId);
    if (p.level === 'E') this.logger?.error({ agent: agentId, run: runId, range: p.rangeId ?? undefined, reason: p.message.slice(0, 300) }, 'agent run error');
    await this.log.write({
      group: 'AGENTS', level: p.level, messageCode: 'agent.runProblem', params: { message: p.message }, parentId: run.logId, locationId: a.locationId,
      objectClass: p.rangeId ? 'NetworkRangeDao' : 'AgentDao', objectId: p.rangeId ?? agentId,
    });
  }

  /**
   * Results of ranges that are not the agent's (or of one range twice) refuse the whole finish
   * (issue 39): checked against the one query of its ranges, told in one event-log record,
   * before anything is written; a token cannot fill the log or hold the database with them.
   */
  private async refuseForeignRanges(logId: number, locationId: number, results: RangeResultReport[], own: Map<number, unknown>) {
    const seen = new Set<number>();
    const foreign = results.flatMap((rr, i) => {
      const bad = !own.has(rr.rangeId) || seen.has(rr.rangeId);
      seen.add(rr.rangeId);
      return bad ? [i] : [];
    });
    if (!foreign.length) return;
    const first = results[foreign[0]!]!.rangeId;
    await this.log.write({ group: 'AGENTS', level: 'E', messageCode: 'agent.foreignRanges', params: { count: foreign.length, first }, parentId: logId, locationId });
    throw new AppError('UNPROCESSABLE', {
      key: 'agent.foreignRanges', params: { count: foreign.length },
      fields: foreign.slice(0, 20).map((i) => ({ field: `rangeResults.${i}.rangeId`, key: 'agent.notYourRange' })),
    });
  }

  /** Closes a run: a child per range, the parent's duration and worst level; then missed polls. */
  async runFinish(
    agentId: number,
    runId: string,
    f: { finishedAt: Date; rangeResults: RangeResultReport[] },
  ) {
    const run = await this.run(agentId, runId);
    if (run.finishedAt) return;
    const a = await this.own(agentId);
    const ranges = new Map(
      (await rangesOfAgent(this.db, agentId)).map((r) => [r.id, r]),
    );
    await this.refuseForeignRanges(run.logId, a.locationId, f.rangeResults, ranges);
    const describe = (id: number) => {
      const r = ranges.get(id);
      if (!r) return part('rangeUnknown', { id });
      const where = r.type === 'RANGE' ? `${r.ipFrom}-${r.ipTo}` : `${r.address}${r.mask ? `/${r.mask.replace(/^\//, '')}` : ''}`;
      return part('range', { name: r.name ? `${r.name} ` : '', type: part(`rangeType.${r.type}`), where, port: r.port });
    };
    let found = 0;
    await this.db.transaction(async (tx) => {
      for (const rr of f.rangeResults) {
        found += rr.found;
        // Devices that went silent make the range a warning: the summary says why they are missing.
        const missing = rr.summary ? rr.summary.timedOut + rr.summary.unreachable + (rr.summary.refused ?? 0) + (rr.summary.unprobed ?? 0) : 0;
        const level: LogLevel = rr.error ? 'E' : missing > 0 ? 'W' : 'I';
        const scanned = rr.summary ? summaryPart(rr.scanned, rr.found, rr.summary) : part('rangeScanned', { scanned: rr.scanned, found: rr.found });
        const params = { range: describe(rr.rangeId), result: rr.error ?? scanned };
        await this.log.write({ group: 'AGENTS', level, messageCode: 'agent.rangeResult', params, parentId: run.logId, locationId: ranges.get(rr.rangeId)?.locationId ?? a.locationId, objectClass: 'NetworkRangeDao', objectId: rr.rangeId, durationMs: rr.durationMs }, tx);
      }
      await repo.finishRun(tx, runId, f.finishedAt);
    });
    // Each device's outcome (agent API 2): the latest per address, for the card and home.
    await recordOutcomes(this.db, agentId, f.finishedAt, f.rangeResults.flatMap((rr) => (rr.devices ?? []).map((d) => ({ rangeId: rr.rangeId, ...d }))));
    for (const rr of f.rangeResults) if (rr.error) this.logger?.error({ agent: agentId, run: runId, range: rr.rangeId, reason: rr.error.slice(0, 300) }, 'agent range failed');
    // The event log closes the run: the worst level of its children, the duration, live FINISHED.
    await this.log.finish(run.logId, {
      durationMs: f.finishedAt.getTime() - run.startedAt.getTime(),
      params: { name: a.name, state: part('agentFound', { found, ranges: f.rangeResults.length }) },
    });
    const scanned = f.rangeResults.filter((r) => !r.error).map((r) => r.rangeId);
    await this.ingest.markMissed(agentId, run.startedAt, scanned);
  }
}
