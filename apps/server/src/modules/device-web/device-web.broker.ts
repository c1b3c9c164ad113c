import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { WebProxyHead, WebProxyRequest, WebProxyResponse } from '@pagewatch/contracts/device-web';

/** An agent's answer: whole (base64, or an error), or its head with the device's bytes to come. */
export type BrokerAnswer = WebProxyResponse | (WebProxyHead & { stream: Readable });
/** A request waiting for its agent, and how its answer is given back. */
type Pending = { agentId: number; request: WebProxyRequest; resolve(r: BrokerAnswer): void; timer: NodeJS.Timeout; taken: boolean };
type Waiter = { resolve(r: WebProxyRequest[]): void; timer: NodeJS.Timeout };

/**
 * Carries proxied requests to agents and their answers back (issue 55). An agent holds a long
 * poll (`take`) open over its own outbound connection; a request for it ends that poll at once,
 * and its answer comes back in a POST (`answer`). Kept in this instance's memory: the agent's
 * poll and the browser's request must reach the same instance (one instance, or sticky routing
 * of /api/agent/web-requests and /device-web by agent).
 */
export class DeviceWebBroker {
  private readonly pending = new Map<string, Pending>();
  private readonly queues = new Map<number, string[]>();
  private readonly waiters = new Map<number, Set<Waiter>>();
  private closed = false;

  /** How long a request waits for the agent to take and answer it. */
  private readonly answerMs: number;
  constructor(answerMs = 30_000) {
    this.answerMs = answerMs;
  }

  /** Sends a request to an agent; its answer, or an `error` when none came in time. */
  send(agentId: number, request: Omit<WebProxyRequest, 'id'>): Promise<BrokerAnswer> {
    if (this.closed) return Promise.resolve({ error: 'server stopping' });
    const id = randomUUID();
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.settle(id, { error: 'the agent did not answer in time' }), this.answerMs);
      this.pending.set(id, { agentId, request: { ...request, id }, resolve, timer, taken: false });
      const queue = this.queues.get(agentId) ?? [];
      queue.push(id);
      this.queues.set(agentId, queue);
      this.wakeOne(agentId);
    });
  }

  /** The agent's long poll: what waits for it now, or the first to come within `waitMs` (else none). */
  take(agentId: number, waitMs: number, signal?: AbortSignal): Promise<WebProxyRequest[]> {
    const ready = this.drain(agentId, 50);
    if (ready.length || waitMs <= 0 || this.closed) return Promise.resolve(ready);
    return new Promise((resolve) => {
      const set = this.waiters.get(agentId) ?? new Set<Waiter>();
      const waiter: Waiter = {
        resolve: (r) => {
          clearTimeout(waiter.timer);
          set.delete(waiter);
          resolve(r);
        },
        timer: setTimeout(() => waiter.resolve([]), waitMs),
      };
      set.add(waiter);
      this.waiters.set(agentId, set);
      // A poll whose connection went away takes nothing more.
      signal?.addEventListener('abort', () => waiter.resolve([]), { once: true });
    });
  }

  /** An agent's answer; false when the request is not that agent's or no longer waits. */
  answer(agentId: number, id: string, response: WebProxyResponse): boolean {
    const p = this.pending.get(id);
    if (!p || p.agentId !== agentId || !p.taken) return false;
    this.settle(id, response);
    return true;
  }

  /**
   * An agent's answer as it comes: null when the request is not that agent's or no longer waits;
   * else settles when its bytes are all taken, and throws when they were not (the browser went
   * away, or the answer was too large). The one who sent the request reads `body` or destroys it.
   */
  stream(agentId: number, id: string, head: WebProxyHead, body: Readable): Promise<void> | null {
    const p = this.pending.get(id);
    if (!p || p.agentId !== agentId || !p.taken) return null;
    this.settle(id, { ...head, stream: body });
    return finished(body);
  }

  /** Ends every wait: polls answer empty, requests get an error (server shutdown). */
  close() {
    this.closed = true;
    for (const set of this.waiters.values()) for (const w of [...set]) w.resolve([]);
    for (const id of [...this.pending.keys()]) this.settle(id, { error: 'server stopping' });
  }

  private drain(agentId: number, max: number): WebProxyRequest[] {
    const queue = this.queues.get(agentId) ?? [];
    const out: WebProxyRequest[] = [];
    while (queue.length && out.length < max) {
      const p = this.pending.get(queue.shift()!);
      if (!p) continue;
      p.taken = true;
      out.push(p.request);
    }
    if (!queue.length) this.queues.delete(agentId);
    return out;
  }

  private wakeOne(agentId: number) {
    const set = this.waiters.get(agentId);
    const waiter = set?.values().next().value;
    if (waiter) waiter.resolve(this.drain(agentId, 50));
  }

  private settle(id: string, response: BrokerAnswer) {
    const p = this.pending.get(id);
    if (!p) return;
    clearTimeout(p.timer);
    this.pending.delete(id);
    p.resolve(response);
  }
}
