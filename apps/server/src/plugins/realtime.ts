import type { FastifyInstance } from 'fastify';
import websocket from '@fastify/websocket';
import { wsCommandSchema, type WsMessage } from '@pagewatch/contracts/ws';

type Listener = (msg: WsMessage) => void;

/** In-process publish/subscribe; modules publish, WebSocket connections listen. */
export class Hub {
  private topics = new Map<string, Set<Listener>>();

  publish(topic: string, msg: WsMessage) {
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

export function realtimeRoutes(app: FastifyInstance, hub: Hub) {
  app.get('/ws', { websocket: true, config: { access: 'user' } }, (socket, req) => {
    const subs = new Map<string, () => void>();
    const scope = req.caller?.scope ?? new Set<number>();
    const send = (msg: WsMessage) => {
      // Device events reach only those who may see the device's location.
      if (msg.type === 'DEVICE_EVENT' && !scope.has(msg.locationId)) return;
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
      for (const off of subs.values()) off();
      subs.clear();
    });
  });
}
