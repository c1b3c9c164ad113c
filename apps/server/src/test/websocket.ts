import type { AddressInfo } from 'node:net';
import type { BuiltApp } from '../app.ts';

/** Starts the app on a free loopback port: the address of its WebSocket. */
export async function webSocketUrl(app: BuiltApp['app']): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}/ws`;
}

/** An open WebSocket that keeps what it hears: `messages` not yet taken, `next()` the next one in order, `closed` its close code. */
export type TestSocket = { ws: WebSocket; messages: unknown[]; next: () => Promise<unknown>; closed: Promise<number> };

/** Opens a WebSocket to the app; refused (rejects) when the server will not have it. */
export function openSocket(url: string): Promise<TestSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const messages: unknown[] = [];
    const waiters: ((m: unknown) => void)[] = [];
    let onClose: (code: number) => void = () => {};
    const closed = new Promise<number>((r) => (onClose = r));
    ws.onmessage = (e) => {
      const m = JSON.parse(String(e.data));
      const w = waiters.shift();
      if (w) w(m);
      else messages.push(m);
    };
    ws.onclose = (e) => onClose(e.code);
    ws.onopen = () => resolve({ ws, messages, closed, next: () => (messages.length ? Promise.resolve(messages.shift()) : new Promise((r) => waiters.push(r))) });
    ws.onerror = () => reject(new Error('connection refused'));
  });
}
