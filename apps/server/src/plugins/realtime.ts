import type { FastifyInstance } from 'fastify';
import { randomUUID } from 'node:crypto';
import websocket from '@fastify/websocket';
import pg from 'pg';
import { wsCommandSchema, type WsMessage } from '@pagewatch/contracts/ws';
import { bearerToken, hashToken, type SessionResolver } from './access.ts';

type Listener = (msg: WsMessage) => void;

/**
 * Sessions that ended or whose rights changed; every instance evicts its cached callers and
 * closes the WebSockets concerned. `ended`: the sessions are revoked (password change,
 * deactivation, deletion); `rights`: roles or locations changed; `profile`: other fields.
 */
export type SessionNotice =
  | { kind: 'token'; tokenHash: string }
  | { kind: 'user'; userId: number; effect: 'ended' | 'rights' | 'profile' }
  | { kind: 'scopes' };
type NoticeListener = (n: SessionNotice) => void;
/** Not a WebSocket topic (those are dic, devices, log:<id>): clients cannot subscribe to it. */
const NOTICE_TOPIC = '@sessions';

/**
 * Publish/subscribe: modules publish, WebSocket connections listen. Within one process it
 * delivers directly; `bridgeHubOverPostgres` carries messages to the other instances.
 */
export class Hub {
  private topics = new Map<string, Set<Listener>>();
  private noticeListeners = new Set<NoticeListener>();
  /** Sends a message to the other instances; set by the PostgreSQL bridge. */
  relay: ((topic: string, msg: WsMessage | SessionNotice) => void) | null = null;

  /** Tells this instance and the others that sessions ended or changed. */
  notify(n: SessionNotice) {
    this.applyNotice(n);
    this.relay?.(NOTICE_TOPIC, n);
  }

  applyNotice(n: SessionNotice) {
    for (const fn of this.noticeListeners) fn(n);
  }

  onNotice(fn: NoticeListener): () => void {
    this.noticeListeners.add(fn);
    return () => this.noticeListeners.delete(fn);
  }

  publish(topic: string, msg: WsMessage) {
    this.deliver(topic, msg);
    this.relay?.(topic, msg);
  }

  /** Delivers to this process's listeners only (messages that came from another instance). */
  deliver(topic: string, msg: WsMessage) {
    for (const fn of this.topics.get(topic) ?? []) fn(msg);
  }

  subscribe(topic: string, fn: Listener): () => void {
    let set = this.topics.get(topic);
    if (!set) this.topics.set(topic, (set = new Set()));
    set.add(fn);
    return () => {
      set.delete(fn);
      if (!set.size) this.topics.delete(topic);
    };
  }

  listenerCount(topic: string) {
    return this.topics.get(topic)?.size ?? 0;
  }
}

function topicOf(cmd: { command: string; id?: number }): string {
  if (cmd.command.includes('dic')) return 'dic';
  if (cmd.command.includes('device')) return 'devices';
  return `log:${cmd.id}`;
}

/**
 * Registers the WebSocket plugin. It must come before the access hook: the plugin marks upgrade
 * requests in its own onRequest hook, and only marked ones get their socket closed when a later
 * hook refuses them.
 */
export async function registerWebsocket(app: FastifyInstance) {
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
}

/** Close codes: an ended session is a policy violation (the console signs out); changed rights reconnect quietly. */
const CLOSE_ENDED = 1008;
const CLOSE_RECONNECT = 1000;
const MAX_TIMER_MS = 2 ** 31 - 1;

export function realtimeRoutes(app: FastifyInstance, hub: Hub, resolve: SessionResolver) {
  app.get('/ws', { websocket: true, config: { access: 'user' } }, (socket, req) => {
    const subs = new Map<string, () => void>();
    const tokenHash = hashToken(bearerToken(req) ?? '');
    const userId = req.caller?.userId ?? null;
    let scope = req.caller?.scope ?? new Set<number>();
    let expiry: NodeJS.Timeout | null = null;
    const end = (code: number, reason: string) => {
      scope = new Set();
      if (expiry) clearTimeout(expiry);
      socket.close(code, reason);
    };
    // A session that simply runs out ends its socket too, as its REST calls end with a 401.
    const expireAt = (at: number) => {
      const left = at - Date.now();
      if (left <= 0) return end(CLOSE_ENDED, 'session expired');
      // setTimeout holds at most about 24.8 days; a 30-day session re-arms.
      expiry = setTimeout(() => expireAt(at), Math.min(left, MAX_TIMER_MS));
    };
    if (req.caller) expireAt(req.caller.sessionExpiresAt.getTime());
    const offNotice = hub.onNotice((n) => {
      if (n.kind === 'token' && n.tokenHash === tokenHash) end(CLOSE_ENDED, 'session ended');
      else if (n.kind === 'user' && n.userId === userId && n.effect !== 'profile') {
        if (n.effect === 'ended') end(CLOSE_ENDED, 'session ended');
        else end(CLOSE_RECONNECT, 'rights changed');
      } else if (n.kind === 'scopes') {
        // The tree moved: the same session may now see other locations.
        resolve(tokenHash).then(
          (caller) => (caller && caller !== 'expired' ? (scope = caller.scope) : end(CLOSE_ENDED, 'session ended')),
          () => end(CLOSE_RECONNECT, 'rights changed'),
        );
      }
    });
    const send = (msg: WsMessage) => {
      // Device events reach only those who may see the device's location, a customer's
      // dictionary's changes those who may see its owner.
      if (msg.type === 'DEVICE_EVENT' && !scope.has(msg.locationId)) return;
      if (msg.type === 'DICTIONARY_CHANGED' && msg.locationId !== undefined && !scope.has(msg.locationId)) return;
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(msg));
    };
    socket.on('message', (data: Buffer) => {
      let parsed;
      try {
        parsed = wsCommandSchema.safeParse(JSON.parse(String(data)));
      } catch {
        parsed = null;
      }
      if (!parsed?.success) return send({ type: 'response', command: 'unknown', ok: false, message: 'bad command' });
      const cmd = parsed.data;
      const topic = topicOf(cmd);
      if (cmd.command.startsWith('subscribe')) {
        if (!subs.has(topic)) subs.set(topic, hub.subscribe(topic, send));
      } else {
        subs.get(topic)?.();
        subs.delete(topic);
      }
      send({ type: 'response', command: cmd.command, ok: true });
    });
    socket.on('close', () => {
      if (expiry) clearTimeout(expiry);
      offNotice();
      for (const off of subs.values()) off();
      subs.clear();
    });
  });
}

const CHANNEL = 'pagewatch_hub';
/** NOTIFY payloads must stay under 8000 bytes; hub messages are a few ids and codes. */
const MAX_PAYLOAD = 7900;

/**
 * Live events across server instances (architecture: LISTEN/NOTIFY, no extra broker): every
 * published message is also sent with NOTIFY, and messages of other instances are delivered
 * here. The LISTEN connection is opened again, with backoff, whenever it is lost (a restart of
 * the database); messages sent meanwhile are missed, as live events may be. Returns the function
 * that stops the bridge.
 */
export async function bridgeHubOverPostgres(
  hub: Hub,
  url: string,
  onError: (err: unknown) => void,
  retry: { minMs: number; maxMs: number } = { minMs: 500, maxMs: 30_000 },
): Promise<() => Promise<void>> {
  const instance = randomUUID();
  const sender = new pg.Pool({ connectionString: url, max: 2 });
  sender.on('error', onError);
  let listener: pg.Client | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let delay = retry.minMs;

  const onNotification = (n: pg.Notification) => {
    try {
      const { from, topic, msg } = JSON.parse(n.payload ?? '') as { from: string; topic: string; msg: WsMessage | SessionNotice };
      if (from === instance) return;
      if (topic === NOTICE_TOPIC) hub.applyNotice(msg as SessionNotice);
      else hub.deliver(topic, msg as WsMessage);
    } catch (err) {
      onError(err);
    }
  };
  const listen = async () => {
    const client = new pg.Client({ connectionString: url });
    client.on('error', onError);
    client.on('notification', onNotification);
    client.once('end', () => {
      if (listener !== client) return;
      listener = null;
      reconnectLater();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
    if (stopped) return void (await client.end().catch(() => undefined));
    listener = client;
    delay = retry.minMs;
  };
  function reconnectLater() {
    if (stopped || timer) return;
    timer = setTimeout(() => {
      timer = null;
      listen().catch((err: unknown) => {
        onError(err);
        reconnectLater();
      });
    }, delay);
    delay = Math.min(delay * 2, retry.maxMs);
  }

  await listen();
  hub.relay = (topic, msg) => {
    const payload = JSON.stringify({ from: instance, topic, msg });
    if (payload.length > MAX_PAYLOAD) return onError(new Error(`hub message on ${topic} too large to relay`));
    sender.query('SELECT pg_notify($1, $2)', [CHANNEL, payload]).catch(onError);
  };
  return async () => {
    stopped = true;
    hub.relay = null;
    if (timer) clearTimeout(timer);
    await listener?.end().catch(onError);
    await sender.end().catch(onError);
  };
}
