import { and, desc, eq, sql } from 'drizzle-orm';
import { scopeCondition, type Scoped } from '../../db/scope.ts';
import { updateRequired, type Agent, type AgentRunRow } from '@pagewatch/contracts/agents';
import type { AgentRange, AgentStatus } from '@pagewatch/contracts/agent-api';
import type { AgentQueue } from '@pagewatch/contracts/agent-queues';
import type { Db } from '../../db/client.ts';
import { eventLogs } from '../../db/schema/event-logs.ts';
import { locations } from '../../db/schema/locations.ts';
import { settings } from '../../db/schema/settings.ts';
import type { Lang } from '../../i18n/messages.ts';
import { messageIn } from '../event-logs/index.ts';
import { networkRanges } from '../../db/schema/network-ranges.ts';
import { agentRuns, agents } from '../../db/schema/agents.ts';
import { queues } from '../../db/schema/queues.ts';
import { rangeScope } from '../../lib/range-scope.ts';

export type AgentRow = typeof agents.$inferSelect;

export async function agentById(db: Db, id: number): Promise<AgentRow | null> {
  const [row] = await db.select().from(agents).where(eq(agents.id, id));
  return row ?? null;
}

/** The built-in agent's id (`builtin` holds its mark), null before it exists. */
export async function builtinAgentId(db: Db, mark: string): Promise<number | null> {
  const [row] = await db.select({ id: agents.id }).from(agents).where(eq(agents.builtin, mark));
  return row?.id ?? null;
}

export async function agentIdByTokenHash(db: Db, hash: string): Promise<number | null> {
  const [row] = await db.select({ id: agents.id }).from(agents).where(eq(agents.tokenHash, hash));
  return row?.id ?? null;
}

export async function agentView(db: Db, a: AgentRow): Promise<Agent> {
  const [loc] = await db.select({ id: locations.id, code: locations.code, name: locations.name }).from(locations).where(eq(locations.id, a.locationId));
  const counts = await db.execute<{ ranges: number; devices: number }>(sql`
    SELECT (SELECT count(*)::int FROM network_ranges WHERE agent_id = ${a.id}) AS ranges,
           (SELECT count(*)::int FROM devices WHERE agent_id = ${a.id}) AS devices`);
  const c = counts.rows[0]!;
  return {
    id: a.id,
    name: a.name,
    description: a.description,
    status: a.status as AgentStatus,
    statusMessage: a.statusMessage,
    lastContactAt: a.lastContactAt?.toISOString() ?? null,
    version: a.version,
    hostname: a.hostname,
    platform: a.platform,
    location: loc,
    builtin: a.builtin !== null,
    rangeCount: Number(c.ranges),
    deviceCount: Number(c.devices),
    updateRequired: updateRequired(a.apiVersion),
    createdAt: a.createdAt.toISOString(),
    updatesPaused: a.updatesPaused,
    updateRefused: a.updateRefusedVersion ? { version: a.updateRefusedVersion, reason: a.updateRefusedReason ?? '' } : null,
  };
}

/** The agent's last runs; each result is its event-log message, in `lang` as the log shows it. */
export async function recentRuns(db: Db, agentId: number, lang: Lang, limit = 20): Promise<AgentRunRow[]> {
  const rows = await db
    .select({
      runId: agentRuns.runId,
      logId: agentRuns.logId,
      startedAt: agentRuns.startedAt,
      finishedAt: agentRuns.finishedAt,
      logLevel: eventLogs.logLevel,
      durationMs: eventLogs.durationMs,
      message: eventLogs.message,
      messageCode: eventLogs.messageCode,
      messageParams: eventLogs.messageParams,
    })
    .from(agentRuns)
    .innerJoin(eventLogs, eq(eventLogs.id, agentRuns.logId))
    .where(eq(agentRuns.agentId, agentId))
    .orderBy(desc(agentRuns.startedAt))
    .limit(limit);
  return rows.map(({ messageCode, messageParams, ...r }) => ({
    ...r,
    message: messageIn(lang, { message: r.message, messageCode, messageParams }),
    startedAt: r.startedAt.toISOString(),
    finishedAt: r.finishedAt?.toISOString() ?? null,
  }));
}

export async function periodicityMinutes(db: Db): Promise<number> {
  const [row] = await db.select({ n: settings.numericValue }).from(settings).where(eq(settings.code, 'PROCESSES_PERIODICITY'));
  const n = Number(row?.n);
  return Number.isInteger(n) && n > 0 ? n : 15;
}

/** Whether updates are paused for every agent (issue 44); a missing row means not. */
export async function updatesPausedForAll(db: Db): Promise<boolean> {
  const [row] = await db.select({ f: settings.flagValue }).from(settings).where(eq(settings.code, 'AGENT_UPDATES_PAUSED'));
  return row?.f === true;
}

/** The agent's ranges as it scans them, with the SNMP secrets it needs. */
export async function agentRanges(db: Db, agentId: number): Promise<AgentRange[]> {
  const rows = await db.select().from(networkRanges).where(eq(networkRanges.agentId, agentId)).orderBy(networkRanges.id);
  return rows.map((r) => ({
    ...rangeScope(r),
    snmp:
      r.snmpVersion === '3'
        ? {
            version: '3' as const,
            user: r.v3User ?? '',
            level: (r.v3Level ?? 'noAuthNoPriv') as 'noAuthNoPriv' | 'authNoPriv' | 'authPriv',
            authProtocol: (r.v3AuthProtocol ?? null) as never,
            authKey: r.v3AuthKey,
            privProtocol: (r.v3PrivProtocol ?? null) as never,
            privKey: r.v3PrivKey,
          }
        : { version: r.snmpVersion as '1' | '2c', community: r.community ?? 'public' },
  }));
}

/** Every agent in the caller's locations re-fetches its config at its next contact. */
export function bumpConfigVersions(db: Db, caller: Scoped) {
  return db
    .update(agents)
    .set({ configVersion: sql`${agents.configVersion} + 1` })
    .where(scopeCondition(caller, agents.locationId) ?? undefined)
    .returning({ id: agents.id });
}

type AgentValues = Omit<typeof agents.$inferInsert, 'id'>;

export async function insertAgent(db: Db, values: AgentValues): Promise<AgentRow> {
  const [row] = await db.insert(agents).values(values).returning();
  return row;
}

export async function updateAgent(db: Db, id: number, set: Partial<AgentValues>) {
  await db.update(agents).set(set).where(eq(agents.id, id));
}

export async function noteApiVersion(db: Db, id: number, version: number) {
  await db.update(agents).set({ apiVersion: version }).where(and(eq(agents.id, id), sql`${agents.apiVersion} IS DISTINCT FROM ${version}`));
}

/** An agent's status call: its status and message now, and what its status was before (one statement). */
export async function setAgentStatus(db: Db, id: number, status: AgentStatus, message: string | null, at: Date): Promise<string | null> {
  const rows = (await db.execute<{ previous: string }>(sql`
    UPDATE agents a SET status = ${status}, status_message = ${message}, last_contact_at = ${at}
    FROM (SELECT id, status FROM agents WHERE id = ${id} FOR UPDATE) old
    WHERE a.id = old.id RETURNING old.status AS previous`)).rows;
  return rows[0]?.previous ?? null;
}

export async function deleteAgent(db: Db, id: number) {
  await db.delete(agents).where(eq(agents.id, id));
}

export async function runById(db: Db, runId: string) {
  const [run] = await db.select().from(agentRuns).where(eq(agentRuns.runId, runId));
  return run ?? null;
}

export async function insertRun(db: Db, run: typeof agentRuns.$inferInsert) {
  await db.insert(agentRuns).values(run);
}

export async function finishRun(db: Db, runId: string, finishedAt: Date) {
  await db.update(agentRuns).set({ finishedAt }).where(eq(agentRuns.runId, runId));
}

/** The agent's ranges as stored (the agents' service checks their locations and names them in a run's log). */
export async function rangesOfAgent(db: Db, agentId: number) {
  return db.select().from(networkRanges).where(eq(networkRanges.agentId, agentId));
}

/** Who set each secret the agent reads (its ranges' and queues' `secret_reach`): its token hands them out. */
export async function secretReachOfAgent(db: Db, agentId: number): Promise<(number[] | null)[]> {
  const ranges = await db.select({ reach: networkRanges.secretReach }).from(networkRanges).where(eq(networkRanges.agentId, agentId));
  const ofQueues = await db.select({ reach: queues.secretReach }).from(queues).where(eq(queues.agentId, agentId));
  return [...ranges, ...ofQueues].map((r) => r.reach);
}

/** The queues an agent reads, with their secrets: the agent needs them. */
export async function agentQueues(db: Db, agentId: number): Promise<AgentQueue[]> {
  const rows = await db.select().from(queues).where(eq(queues.agentId, agentId)).orderBy(queues.id);
  return rows.map((q) => ({
    id: q.id, type: q.type as AgentQueue['type'], host: q.host, port: q.port, url: q.url, username: q.username,
    password: q.password, token: q.token, sinceJobId: q.lastJobId, stateVersion: q.stateVersion,
  }));
}
