import type { WsCommand, WsMessage } from '@pagewatch/contracts/ws';
import { showToast } from './toast.ts';
import { useEffect, useRef } from 'react';
import { ERROR_TOAST_MS, wsCloseMessage } from './errors.ts';

/**
 * The console's one WebSocket (spec sections 7 and 8). The session starts it after sign-in
 * and stops it on sign-out; features only subscribe. Subscriptions survive reconnects: their
 * commands are sent again on every open.
 */

export const WS_RECONNECT_MS = 10_000;

type Listener = (msg: WsMessage) => void;
interface Subscription {
  subscribe: WsCommand;
  unsubscribe: WsCommand | null;
  listener: Listener;
}

const listeners = new Set<Listener>();
const subscriptions = new Set<Subscription>();
let socket: WebSocket | null = null;
let urlFor: (() => string) | null = null;
let reconnectTimer: ReturnType<typeof setTimeout> | undefined;

/** The socket URL: the config's WS path on this host (or an absolute ws:// URL) plus the token. */
export function wsUrl(wsPath: string, token: string): string {
  const base = new URL(wsPath, window.location.href);
  if (base.protocol === 'http:') base.protocol = 'ws:';
  if (base.protocol === 'https:') base.protocol = 'wss:';
  base.searchParams.set('access_token', token);
  return base.href;
}

function send(cmd: WsCommand) {
  if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(cmd));
}

function connect() {
  if (!urlFor) return;
  const ws = new WebSocket(urlFor());
  socket = ws;
  let opened = false;
  ws.onopen = () => {
    opened = true;
    for (const s of subscriptions) send(s.subscribe);
  };
  ws.onmessage = (ev) => {
    let msg: WsMessage;
    try {
      msg = JSON.parse(String(ev.data)) as WsMessage;
    } catch {
      return; // not ours to show: the protocol is JSON only
    }
    for (const l of listeners) l(msg);
    for (const s of subscriptions) s.listener(msg);
  };
  ws.onclose = (ev) => {
    if (socket !== ws) return; // stopped or replaced
    socket = null;
    // A normal close (1000) reconnects quietly. Other codes are shown once, for a connection
    // that had been open; a connection that never opened fails silently (section 8) and keeps
    // retrying at the same pace so that live events resume when the server is back.
    if (ev.code !== 1000 && opened) {
      const message = wsCloseMessage(ev.code, ev.reason);
      showToast({ id: `ws:${message}`, color: 'red', message, autoClose: ERROR_TOAST_MS });
    }
    reconnectTimer = setTimeout(connect, WS_RECONNECT_MS);
  };
}

/** Opens the socket (the session calls this after sign-in). */
export function startWs(url: () => string) {
  stopWs();
  urlFor = url;
  connect();
}

/** Closes the socket for good (sign-out); no reconnect. */
export function stopWs() {
  clearTimeout(reconnectTimer);
  urlFor = null;
  const ws = socket;
  socket = null;
  if (ws && ws.readyState !== WebSocket.CLOSED) ws.close(1000);
}

/** Every message from the server, until the returned function is called. */
export function onWsMessage(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Sends `subscribe` now (and after every reconnect) and routes messages to `listener`;
 * the returned function sends `unsubscribe` and stops listening.
 */
export function wsSubscribe(subscribe: WsCommand, unsubscribe: WsCommand | null, listener: Listener): () => void {
  const sub: Subscription = { subscribe, unsubscribe, listener };
  subscriptions.add(sub);
  send(subscribe);
  return () => {
    subscriptions.delete(sub);
    // The server keeps one subscription per topic and connection: keep it while others want it.
    const key = JSON.stringify(subscribe);
    const stillWanted = [...subscriptions].some((s) => JSON.stringify(s.subscribe) === key);
    if (unsubscribe && !stillWanted) send(unsubscribe);
  };
}

/**
 * Live progress of one event log entry (EVENT_LOG_CHANGED / EVENT_LOG_FINISHED for `id`), and
 * the server's answer to the subscription (the entry may have changed before it).
 */
export function subscribeLogEvents(id: number, listener: (msg: WsMessage) => void): () => void {
  return wsSubscribe(
    { command: 'subscribe-log-events', id },
    { command: 'unsubscribe-log-events', id },
    (msg) => {
      if ((msg.type === 'EVENT_LOG_CHANGED' || msg.type === 'EVENT_LOG_FINISHED') && msg.id === id) listener(msg);
      else if (msg.type === 'response' && msg.command === 'subscribe-log-events') listener(msg);
    },
  );
}

/** Dictionary changes (DICTIONARY_CHANGED), for whoever keeps dictionary data. */
export function subscribeDictionaryEvents(listener: (dictionary: string) => void): () => void {
  return wsSubscribe({ command: 'subscribe-dic-events' }, { command: 'unsubscribe-dic-events' }, (msg) => {
    if (msg.type === 'DICTIONARY_CHANGED') listener(msg.dictionary);
  });
}

/** Events of devices in the caller's locations (DEVICE_EVENT: status, IP, supplies…). */
export function subscribeDeviceEvents(listener: (msg: Extract<WsMessage, { type: 'DEVICE_EVENT' }>) => void): () => void {
  return wsSubscribe({ command: 'subscribe-device-events' }, { command: 'unsubscribe-device-events' }, (msg) => {
    if (msg.type === 'DEVICE_EVENT') listener(msg);
  });
}

/** React form of `wsSubscribe` for a component's lifetime; `listener` may change freely. */
export function useWsSubscription(
  subscribe: WsCommand | null,
  unsubscribe: WsCommand | null,
  listener: Listener,
) {
  const latest = useRef(listener);
  latest.current = listener;
  const key = JSON.stringify([subscribe, unsubscribe]);
  useEffect(() => {
    if (!subscribe) return;
    return wsSubscribe(subscribe, unsubscribe, (msg) => latest.current(msg));
    // The commands are compared by value through `key`.
  }, [key]);
}
