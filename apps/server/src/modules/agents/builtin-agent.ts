import { hostname } from 'node:os';
import { join } from 'node:path';
import type { AgentServerCalls } from '@pagewatch/contracts/agent-api';
import { queueJobsRunSchema } from '@pagewatch/contracts/agent-queues';
import type { Readable } from 'node:stream';
import type { WebProxyHead, WebProxyRequest, WebProxyResponse } from '@pagewatch/contracts/device-web';
import { hashToken } from '../../plugins/access.ts';
import { AppError } from '../../lib/app-error.ts';
import type { AppContext } from '../../app-context.ts';
import { defaultLocationId } from '../locations/index.ts';
import { VERSION } from '../options/index.ts';
import { builtinAgentId, insertAgent } from './agents.repository.ts';
import { newAgentToken } from './agents.service.ts';
import { translate } from '../../i18n/messages.ts';
import '../../seed.messages.ts';

/**
 * The server's built-in agent (PAGEWATCH_BUILTIN_AGENT): the agent's own runner
 * (apps/agent/src/run), given a transport that calls the server's services directly instead of
 * HTTP: the calls of contracts' AgentServerCalls, as the agent's `AgentTransport` (checked where
 * main.ts wires the two).
 */
export type DirectTransport = AgentServerCalls & {
  webRequests(waitMs: number, signal?: AbortSignal): Promise<WebProxyRequest[]>;
  webAnswer(id: string, response: WebProxyResponse): Promise<void>;
  webStream(id: string, head: WebProxyHead, body: Readable): Promise<void>;
};

/** What the server needs of a runner: the agent's `AgentRunner` has these and more. */
export type BuiltinRunner = { start(): void; stop(): Promise<void> };
export type BuiltinRunnerFactory = (transport: DirectTransport, opts: { spoolDir: string }) => BuiltinRunner;

/** How a direct call failed, in the agent transport's terms (unavailable / unauthorized / rejected). */
export type TransportErrorMapper = (kind: 'unavailable' | 'unauthorized' | 'rejected', message: string, status: number | null) => Error;

export const BUILTIN_MARK = 'LOCAL';

/** The built-in agent's row, created once in the DEFAULT location. */
export async function ensureBuiltinAgent(ctx: AppContext): Promise<number> {
  const existing = await builtinAgentId(ctx.db, BUILTIN_MARK);
  if (existing !== null) return existing;
  const locationId = await defaultLocationId(ctx.db);
  if (locationId === null) throw new Error('no DEFAULT location');
  // Its token is never used (calls are direct); it only has to be unique and unknown.
  const row = await insertAgent(ctx.db, { name: translate(ctx.config.language, 'seed.builtinAgent'), description: translate(ctx.config.language, 'seed.builtinAgentDescription'), locationId, tokenHash: hashToken(newAgentToken()), builtin: BUILTIN_MARK });
  return row.id;
}

/** The agent protocol as direct calls for one agent; service errors become transport errors. */
export function directTransport(ctx: AppContext, agentId: number, mapError?: TransportErrorMapper): DirectTransport {
  const call = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      await ctx.agents.touch(agentId);
      return await fn();
    } catch (error) {
      if (!mapError) throw error;
      if (error instanceof AppError) {
        const kind = error.status === 401 || error.status === 403 ? 'unauthorized' : error.status < 500 ? 'rejected' : 'unavailable';
        throw mapError(kind, error.message, error.status);
      }
      throw mapError('unavailable', error instanceof Error ? error.message : String(error), null);
    }
  };
  return {
    register: (info) => call(() => ctx.agents.register(agentId, info)),
    config: () => call(() => ctx.agents.config(agentId)),
    modelsPack: () => call(async () => JSON.parse(await ctx.models.activePackJson()) as unknown),
    status: (status, message, spoolDepth) => call(() => ctx.agents.reportStatus(agentId, status, message, spoolDepth)),
    startRun: (runId, startedAt) => call(async () => void (await ctx.agents.runStart(agentId, runId, new Date(startedAt)))),
    problem: (runId, p) => call(() => ctx.agents.runProblem(agentId, runId, p)),
    finishRun: (runId, r) => call(() => ctx.agents.runFinish(agentId, runId, { finishedAt: new Date(r.finishedAt), rangeResults: r.rangeResults })),
    sendReadings: (batch) => call(() => ctx.ingest.ingest(agentId, batch)),
    // The envelope as the route would check it; each job is checked by the service.
    sendQueueJobs: (run) => call(() => ctx.queueJobs.ingest(agentId, queueJobsRunSchema.parse(run), 'en')),
    // The device web page's requests straight from the broker (issue 55): no touch, the poll is not a check-in.
    webRequests: (waitMs, signal) => ctx.deviceWebBroker.take(agentId, waitMs, signal),
    webAnswer: async (id, response) => void ctx.deviceWebBroker.answer(agentId, id, response),
    // The device's bytes straight to the browser's answer; a request no longer waiting ends them.
    webStream: (id, head, body) => ctx.deviceWebBroker.stream(agentId, id, head, body) ?? Promise.reject(new Error('the request no longer waits')),
  };
}

/**
 * Starts the built-in agent with the given runner factory; returns the runner (stop it on
 * shutdown). Its spool lives in the data directory, so a restart loses nothing.
 */
export async function startBuiltinAgent(ctx: AppContext, createRunner: BuiltinRunnerFactory, mapError?: TransportErrorMapper): Promise<BuiltinRunner> {
  const agentId = await ensureBuiltinAgent(ctx);
  const spoolDir = join(ctx.config.dataDir, 'builtin-agent-spool');
  const runner = createRunner(directTransport(ctx, agentId, mapError), { spoolDir });
  runner.start();
  return runner;
}

/**
 * main.ts's entry: loads the agent's runner (apps/agent/src/run) and starts it with direct calls.
 * The agent package is imported only here, so a server without the built-in agent never loads
 * the SNMP code.
 */
export async function startBuiltinAgentFromPackage(ctx: AppContext, log: { info(m: string): void; warn(m: string): void }): Promise<BuiltinRunner> {
  // Loaded by name, not typed through: the agent's SNMP typings are its own workspace's.
  const runnerModule: RunnerModule = await import(RUNNER_MODULE);
  const transportModule: TransportModule = await import(TRANSPORT_MODULE);
  const runner = await startBuiltinAgent(
    ctx,
    (transport, { spoolDir }) =>
      runnerModule.createAgentRunner({
        transport,
        spoolDir,
        // The config it keeps in its spool holds communities and queue passwords: sealed with the server's key.
        configSealer: ctx.secrets,
        ...(ctx.config.builtinAgentPeriodSeconds ? { periodMs: ctx.config.builtinAgentPeriodSeconds * 1000 } : {}),
        // The server's own version and host, as a standalone agent says its own (the grid showed "built-in", "server" untranslated).
        info: { version: VERSION.appVersion, hostname: hostname() },
        deviceWeb: { allowLoopback: ctx.config.deviceWebLoopback },
        log: (level, message) => (level === 'info' ? log.info(`built-in agent: ${message}`) : log.warn(`built-in agent: ${message}`)),
      }),
    (kind, message, status) => new transportModule.TransportError(kind, message, status),
  );
  log.info('Built-in agent started');
  return runner;
}

const RUNNER_MODULE: string = '@pagewatch/agent/runner';
const TRANSPORT_MODULE: string = '@pagewatch/agent/transport';
type RunnerModule = {
  createAgentRunner(o: { transport: DirectTransport; spoolDir: string; deviceWeb?: { allowLoopback?: boolean }; configSealer?: { seal(plain: string): string; open(sealed: string): string }; periodMs?: number; info?: { version?: string; hostname?: string }; log?: (level: 'info' | 'warn' | 'error', message: string) => void }): BuiltinRunner;
};
type TransportModule = { TransportError: new (kind: 'unavailable' | 'unauthorized' | 'rejected', message: string, status: number | null) => Error };
