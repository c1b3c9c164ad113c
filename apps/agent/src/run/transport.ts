import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream } from 'node:stream/web';
import type { AgentReleasePlatform, AgentServerCalls } from '@pagewatch/contracts/agent-api';
import { AGENT_API_HEADER, AGENT_API_VERSION, agentConfigSchema, batchResultSchema } from '@pagewatch/contracts/agent-api';
import { queueJobsRunResultSchema } from '@pagewatch/contracts/agent-queues';
import { cutText } from '@pagewatch/contracts/fields';
import { webProxyRequestsSchema, type WebProxyHead, type WebProxyRequest, type WebProxyResponse } from '@pagewatch/contracts/device-web';

export type AgentInfo = { version: string; hostname: string; platform: string };

/**
 * How the agent talks to the server: HTTP for a standalone agent, direct calls for the server's
 * built-in one. Methods throw TransportError.
 */
export type AgentTransport = AgentServerCalls & {
  /** Writes the offered release's executable to `dest` (a standalone agent's self-update; the built-in agent has none). */
  downloadUpdate?(platform: AgentReleasePlatform, dest: string): Promise<void>;
  /** Tells the server why an offered release was not installed. */
  updateRefused?(version: string, error: string): Promise<void>;
  /** The device web page's requests for this agent (a long poll of up to `waitMs`), and their answers (issue 55). */
  webRequests?(waitMs: number, signal?: AbortSignal): Promise<WebProxyRequest[]>;
  webAnswer?(id: string, response: WebProxyResponse): Promise<void>;
  /** The device's answer streamed: its head, then its bytes as they come (issue 55). */
  webStream?(id: string, head: WebProxyHead, body: Readable): Promise<void>;
};

/**
 * unavailable: try again later (no connection, timeout, 5xx, 429).
 * unauthorized: the token is wrong or revoked (401/403); retried slowly, the agent shows ERROR.
 * rejected: the server refused this message for good (other 4xx); retrying cannot help.
 * updateRequired: the server no longer takes this agent's API version (426): the agent must be
 *   updated; it keeps its spool and asks again slowly (the server may be rolled back).
 */
export type TransportErrorKind = 'unavailable' | 'unauthorized' | 'rejected' | 'updateRequired';

export class TransportError extends Error {
  readonly kind: TransportErrorKind;
  readonly status: number | null;

  constructor(kind: TransportErrorKind, message: string, status: number | null = null) {
    super(message);
    this.name = 'TransportError';
    this.kind = kind;
    this.status = status;
  }
}

export type HttpTransportOptions = {
  /** e.g. http://localhost:8080 */
  serverUrl: string;
  token: string;
  timeoutMs?: number;
  /** The agent API version to speak: this release's unless a test speaks an older one. */
  apiVersion?: number;
};

/** `first`, then every chunk of `rest`. */
async function* framed(first: Buffer, rest: Readable): AsyncGenerator<Buffer> {
  yield first;
  for await (const chunk of rest) yield chunk as Buffer;
}

/** The agent API over HTTP (`/api/agent/...`, bearer token). */
export function createHttpTransport(options: HttpTransportOptions): AgentTransport & Required<Pick<AgentTransport, 'downloadUpdate' | 'updateRefused' | 'webRequests' | 'webAnswer' | 'webStream'>> {
  const base = `${options.serverUrl.replace(/\/+$/, '')}/api/agent`;
  const timeoutMs = options.timeoutMs ?? 30_000;

  /** The response when it is a success; throws TransportError otherwise. */
  async function request(method: 'GET' | 'POST', path: string, body?: unknown, timeout = timeoutMs, stop?: AbortSignal): Promise<Response> {
    let res: Response;
    // A stream goes as bytes, as they come (the device web page's answers); anything else as JSON.
    const bytes = body instanceof Readable;
    try {
      res = await fetch(`${base}${path}`, {
        method,
        // The API version this agent speaks (contracts agent-api.ts): the server refuses one it no longer takes.
        headers: {
          authorization: `Bearer ${options.token}`, [AGENT_API_HEADER]: String(options.apiVersion ?? AGENT_API_VERSION),
          ...(body === undefined ? {} : { 'content-type': bytes ? 'application/octet-stream' : 'application/json' }),
        },
        body: body === undefined ? undefined : bytes ? (Readable.toWeb(body) as BodyInit) : JSON.stringify(body),
        ...(bytes ? { duplex: 'half' } : {}),
        signal: stop ? AbortSignal.any([AbortSignal.timeout(timeout), stop]) : AbortSignal.timeout(timeout),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
      throw new TransportError('unavailable', `cannot reach ${base}: ${cause}`);
    }
    if (res.ok) return res;
    const text = await res.text().catch(() => '');
    let message = text.slice(0, 300);
    try {
      message = (JSON.parse(text) as { message?: string }).message ?? message;
    } catch {
      // not JSON
    }
    const what = `${method} ${path}: ${res.status} ${message}`;
    if (res.status === 426) throw new TransportError('updateRequired', what, res.status);
    if (res.status === 401 || res.status === 403) throw new TransportError('unauthorized', what, res.status);
    if (res.status >= 500 || res.status === 429 || res.status === 408) throw new TransportError('unavailable', what, res.status);
    throw new TransportError('rejected', what, res.status);
  }

  async function call(method: 'GET' | 'POST', path: string, body?: unknown, timeout = timeoutMs, stop?: AbortSignal): Promise<unknown> {
    const text = await (await request(method, path, body, timeout, stop)).text().catch(() => '');
    return text ? JSON.parse(text) : null;
  }

  return {
    async register(info) {
      return agentConfigSchema.parse(await call('POST', '/register', info));
    },
    async config() {
      return agentConfigSchema.parse(await call('GET', '/config'));
    },
    modelsPack: () => call('GET', '/models-pack'),
    async status(status, message, spoolDepth) {
      await call('POST', '/status', { status, ...(message === undefined ? {} : { message: cutText(message, 2000) }), ...(spoolDepth === undefined ? {} : { spoolDepth }) });
    },
    async startRun(runId, startedAt) {
      await call('POST', '/runs', { runId, startedAt });
    },
    async problem(runId, problem) {
      await call('POST', `/runs/${runId}/problems`, { ...problem, message: cutText(problem.message, 2000) });
    },
    async finishRun(runId, result) {
      await call('POST', `/runs/${runId}/finish`, result);
    },
    async sendReadings(batch) {
      return batchResultSchema.parse(await call('POST', '/readings', batch));
    },
    async sendQueueJobs(run) {
      return queueJobsRunResultSchema.parse(await call('POST', '/queue-jobs', run));
    },
    async downloadUpdate(platform, dest) {
      // A large file on a slow link: ten minutes, not the API's 30 s.
      const res = await request('GET', `/update/${platform}`, undefined, 600_000);
      if (!res.body) throw new TransportError('unavailable', `GET /update/${platform}: no body`);
      await pipeline(Readable.fromWeb(res.body as ReadableStream), createWriteStream(dest, { mode: 0o700 }));
    },
    async updateRefused(version, error) {
      await call('POST', '/update/refused', { version: cutText(version, 50), error: cutText(error, 500) });
    },
    async webRequests(waitMs, signal) {
      return webProxyRequestsSchema.parse(await call('GET', `/web-requests?waitMs=${waitMs}`, undefined, waitMs + 10_000, signal)).requests;
    },
    async webAnswer(id, response) {
      await call('POST', `/web-requests/${id}`, response);
    },
    async webStream(id, head, body) {
      // The head's length, the head, then the device's bytes; no time limit of the API's own (the
      // device's silences are bounded by the relay, the server's waits by the browser).
      const json = Buffer.from(JSON.stringify(head));
      const length = Buffer.alloc(4);
      length.writeUInt32BE(json.length);
      await call('POST', `/web-requests/${id}/stream`, Readable.from(framed(Buffer.concat([length, json]), body)), 3_600_000);
    },
  };
}
