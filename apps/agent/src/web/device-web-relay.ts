import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { Readable } from 'node:stream';
import {
  DEVICE_WEB_MAX_BODY, DEVICE_WEB_METHODS, DEVICE_WEB_PORTS, type WebProxyHead, type WebProxyRequest, type WebProxyResponse,
} from '@pagewatch/contracts/device-web';

/** The transport's side of the relay: the long poll and the answers (AgentTransport has them). */
export type DeviceWebTransport = {
  webRequests(waitMs: number, signal?: AbortSignal): Promise<WebProxyRequest[]>;
  /** An answer whole, or why there is none. */
  webAnswer(id: string, response: WebProxyResponse): Promise<void>;
  /**
   * The device's answer as it comes, read with backpressure; settles when the server has taken
   * it all, throws when it stopped taking (the browser went away). Without it, answers are whole.
   */
  webStream?(id: string, head: WebProxyHead, body: Readable): Promise<void>;
};

export type DeviceWebRelayOptions = {
  transport: DeviceWebTransport;
  log?: (level: 'info' | 'warn' | 'error', message: string) => void;
  /**
   * Lets loopback devices (127.0.0.0/8, not the agent's own addresses) be reached: tests only,
   * where a printer's page stands on 127.0.x.y. Refused in production (deviceWebLoopbackAllowed).
   */
  allowLoopback?: boolean;
  /** Requests made at once (default 32). */
  concurrency?: number;
  /** How long a device has to answer (default 20 s). */
  deviceTimeoutMs?: number;
  /** Backoff while the server cannot be reached (default 1 s doubling to 30 s). */
  retryMinMs?: number;
  retryMaxMs?: number;
};

const WAIT_MS = 25_000;

/** Whether the loopback override may be used here: never with NODE_ENV=production. */
export function deviceWebLoopbackAllowed(env: NodeJS.ProcessEnv, name: string): boolean {
  if (env[name] !== '1') return false;
  if (env.NODE_ENV === 'production') throw new Error(`${name} is for tests only and is refused with NODE_ENV=production`);
  return true;
}

const v4 = (ip: string) => ip.split('.').map(Number);
/** Addresses no device has: unspecified, link-local, multicast, broadcast; loopback unless allowed. */
function specialAddress(ip: string, allowLoopback: boolean): boolean {
  const lower = ip.toLowerCase();
  const mapped = lower.startsWith('::ffff:') && isIP(lower.slice(7)) === 4 ? lower.slice(7) : null;
  if (isIP(ip) === 4 || mapped) {
    const [a, b] = v4(mapped ?? ip) as [number, number];
    if (a === 127) return !allowLoopback;
    return a === 0 || (a === 169 && b === 254) || a >= 224;
  }
  return lower === '::' || lower === '::1' || /^fe[89ab]/.test(lower) || lower.startsWith('ff');
}

/** The agent's own addresses: its host is never reached through a device's page. */
function ownAddresses(): Set<string> {
  const out = new Set<string>(['0.0.0.0', '::']);
  for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) out.add(a.address.toLowerCase().replace(/%.*$/, ''));
  return out;
}

/** Why the agent will not make this request, or null: only HTTP(S) to a device's address on 80, 443 or 8080. */
export function refusal(r: WebProxyRequest, allowLoopback: boolean): string | null {
  if (!(DEVICE_WEB_PORTS as readonly number[]).includes(r.port)) return `port ${r.port} is not a device web port`;
  if ((r.port === 443) !== (r.scheme === 'https')) return `${r.scheme} on port ${r.port} is refused`;
  if (!isIP(r.host)) return 'the host must be an address';
  if (specialAddress(r.host, allowLoopback) || ownAddresses().has(r.host.toLowerCase())) return `${r.host} is not a device's address`;
  if (!(DEVICE_WEB_METHODS as readonly string[]).includes(r.method)) return `method ${r.method} is refused`;
  if (!r.path.startsWith('/') || r.path.startsWith('//') || /[\s\\#]/.test(r.path)) return 'the path must be a path of the device';
  return null;
}

/** The device's answer as it comes: its head, and its body (the server holds it to DEVICE_WEB_MAX_BODY). */
export type DeviceAnswer = { head: WebProxyHead; body: Readable };

/**
 * Makes one request to the device and gives its answer once its head is in; redirects are
 * answered as they are (the server keeps them on the device). `timeoutMs` bounds the wait for
 * the head, and then each silence of the body.
 */
export function openOnDevice(r: WebProxyRequest, timeoutMs: number): Promise<DeviceAnswer | { error: string }> {
  const headers: [string, string][] = r.headers.filter(([n]) => !/^(host|connection|content-length|transfer-encoding)$/i.test(n));
  const body = Buffer.from(r.body, 'base64');
  const hostHeader = r.host.includes(':') ? `[${r.host}]` : r.host;
  headers.push(['host', r.port === (r.scheme === 'https' ? 443 : 80) ? hostHeader : `${hostHeader}:${r.port}`]);
  if (body.length || !['GET', 'HEAD', 'OPTIONS', 'DELETE'].includes(r.method)) headers.push(['content-length', String(body.length)]);
  const request = r.scheme === 'https' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const done = (answer: DeviceAnswer | { error: string }) => {
      clearTimeout(timer);
      resolve(answer);
    };
    const req = request({
      host: r.host, port: r.port, method: r.method, path: r.path, headers: headers.flat(),
      // Printers' certificates are their own, self-signed: the page is reached by address, not by name.
      rejectUnauthorized: false, setHost: false, agent: false,
    }, (res: IncomingMessage) => {
      if (Number(res.headers['content-length']) > DEVICE_WEB_MAX_BODY) {
        req.destroy();
        return done({ error: 'the page is too large' });
      }
      const pairs: [string, string][] = [];
      for (let i = 0; i + 1 < res.rawHeaders.length && pairs.length < 100; i += 2) pairs.push([res.rawHeaders[i]!.slice(0, 200), res.rawHeaders[i + 1]!.slice(0, 8000)]);
      res.setTimeout(timeoutMs, () => res.destroy(new Error('the device stopped answering')));
      done({ head: { status: Math.min(599, Math.max(100, res.statusCode ?? 502)), headers: pairs }, body: res });
    });
    const timer = setTimeout(() => {
      req.destroy();
      done({ error: 'the device did not answer in time' });
    }, timeoutMs);
    req.on('error', (e) => done({ error: `${r.host}:${r.port}: ${e.message}`.slice(0, 500) }));
    req.end(body.length ? body : undefined);
  });
}

/** The device's answer whole, for a server that takes no streamed answer (older release). */
export async function fetchFromDevice(r: WebProxyRequest, timeoutMs: number): Promise<WebProxyResponse> {
  const answer = await openOnDevice(r, timeoutMs);
  if ('error' in answer) return answer;
  try {
    const parts: Buffer[] = [];
    let size = 0;
    for await (const chunk of answer.body) {
      size += (chunk as Buffer).length;
      if (size > DEVICE_WEB_MAX_BODY) {
        answer.body.destroy();
        return { error: 'the page is too large' };
      }
      parts.push(chunk as Buffer);
    }
    return { ...answer.head, body: Buffer.concat(parts).toString('base64') };
  } catch (e) {
    return { error: (e as Error).message.slice(0, 500) };
  }
}

/**
 * The agent's side of the device's web page (issue 55): a long poll over its own outbound
 * connection to the server (no port opened at the customer's site), each request checked and
 * made to the device, its answer posted back. Runs beside the polling loop.
 */
export function startDeviceWebRelay(options: DeviceWebRelayOptions): { stop(): Promise<void> } {
  const log = options.log ?? (() => undefined);
  const max = options.concurrency ?? 32;
  const retryMin = options.retryMinMs ?? 1000;
  const retryMax = options.retryMaxMs ?? 30_000;
  let stopped = false;
  let inFlight = 0;
  const queued: WebProxyRequest[] = [];
  let wakeSleep: (() => void) | null = null;
  const abort = new AbortController();

  const timeoutMs = options.deviceTimeoutMs ?? 20_000;
  const { transport } = options;
  /** The device's answer, streamed where the server takes it so; whole otherwise. */
  const answer = async (r: WebProxyRequest, why: string | null) => {
    if (why) return transport.webAnswer(r.id, { error: why });
    if (!transport.webStream) return transport.webAnswer(r.id, await fetchFromDevice(r, timeoutMs));
    const opened = await openOnDevice(r, timeoutMs);
    if ('error' in opened) return transport.webAnswer(r.id, opened);
    // A browser that went away ends the upload, and so the device's answer: not a failure.
    await transport.webStream(r.id, opened.head, opened.body).catch(() => {
      const failed = opened.body.errored;
      opened.body.destroy();
      if (failed) log('warn', `device web page: ${r.method} ${r.path}: ${failed.message}`);
    });
  };

  const handle = async (r: WebProxyRequest) => {
    inFlight++;
    try {
      const why = refusal(r, options.allowLoopback ?? false);
      if (why) log('warn', `device web page: refused ${r.method} ${r.scheme}://${r.host}:${r.port}: ${why}`);
      await answer(r, why).catch((e: Error) => log('warn', `device web page: answer not delivered: ${e.message}`));
    } finally {
      inFlight--;
      const next = queued.shift();
      if (next) void handle(next);
    }
  };

  const loop = (async () => {
    let backoff = retryMin;
    while (!stopped) {
      try {
        const requests = await options.transport.webRequests(WAIT_MS, abort.signal);
        backoff = retryMin;
        for (const r of requests) {
          if (inFlight < max) void handle(r);
          else queued.push(r);
        }
      } catch (error) {
        if (stopped) break;
        // A server without the device web page (older release) answers 404: ask again rarely.
        const kind = (error as { kind?: string }).kind;
        const wait = kind === 'rejected' ? 300_000 : backoff;
        backoff = Math.min(backoff * 2, retryMax);
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, wait);
          wakeSleep = () => {
            clearTimeout(t);
            resolve();
          };
        });
      }
    }
  })();

  return {
    async stop() {
      stopped = true;
      abort.abort();
      wakeSleep?.();
      await loop;
    },
  };
}
