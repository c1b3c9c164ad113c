import dgram from 'node:dgram';
import { PDU, TAG, decodeMessage, encodeMessage } from '@pagewatch/snmp/ber-codec';
import { PACKETS_PER_SECOND } from '@pagewatch/contracts/network-ranges';
import type { RefusalReason } from '@pagewatch/contracts/agent-api';
import { SYS } from '../reading/printer-mib.ts';
import type { RttTable } from '../snmp/rtt-estimator.ts';
import { formatIpv4 } from './address-range.ts';
import { PACE_TICK_MS, SweepPace } from './sweep-pace.ts';
import { TokenBucket } from './token-bucket.ts';

/**
 * Cap on discovery packets a second when a range sets none (the contract's default, 5,000: at
 * about 90 bytes a request on the wire, 3.6 Mbit/s, and a /16, its silent addresses each asked
 * twice, in about 27 s; a /24 in under 0.2 s).
 */
export const DEFAULT_PACKETS_PER_SECOND: number = PACKETS_PER_SECOND.default;

const SWEEP_CATCH_UP_MS = 50;
/** More tries an address gets when a try of it went out while the sweep was behind (its answer may have overflowed the receive queue). */
const BEHIND_EXTRA_TRIES = 2;

export type SweepOptions = {
  port: number;
  community: string;
  /** 0 = SNMPv1, 1 = SNMPv2c. */
  version: 0 | 1;
  /** Addresses in flight at once. */
  concurrency: number;
  /** First wait for an address not heard from before; each retry doubles it. */
  timeoutMs: number;
  retries: number;
  /** Requests sent a second, at most (retries included). */
  packetsPerSecond?: number;
  /** Learns each answering device's answer time, and gives the wait for devices heard before. */
  rtt?: RttTable;
  /** An address in flight answered, but with no usable answer (a report PDU, not SNMP). */
  onRefused?: (ip: string, reason: RefusalReason) => void;
  /**
   * Milliseconds after which the sweep stops: the addresses it has not been able to settle by
   * then (never asked, or still waiting for the sweep to catch up) are not called silent but
   * given to `onUnprobed`. Default: no limit.
   */
  deadlineMs?: number;
  /** An address the sweep could not probe in time (see `deadlineMs`). */
  onUnprobed?: (ip: string) => void;
  signal?: AbortSignal;
};

export type SweepAnswer = { ip: string; sysDescr: string | null; sysObjectID: string | null };

const IDENTITY_OIDS = [SYS.descr, SYS.objectId];

/** What came back from an address in flight that is not an answer: a refusal, or null for a stray packet. */
function refusalOf(packet: Buffer, expectId: (id: number) => boolean): RefusalReason | null {
  try {
    const msg = decodeMessage(packet);
    return msg.pdu.type === PDU.report && expectId(msg.pdu.requestId) ? 'report' : null;
  } catch {
    return 'malformed';
  }
}

function answerOf(ip: string, packet: Buffer, expectId: (id: number) => boolean): SweepAnswer | null {
  try {
    const msg = decodeMessage(packet);
    if (msg.pdu.type !== PDU.response || !expectId(msg.pdu.requestId)) return null;
    let sysDescr: string | null = null;
    let sysObjectID: string | null = null;
    for (const vb of msg.pdu.varbinds) {
      if (vb.oid === SYS.descr && vb.tag === TAG.octets && vb.value instanceof Uint8Array) sysDescr = Buffer.from(vb.value).toString('utf8').replace(/\0+$/, '').trim();
      if (vb.oid === SYS.objectId && vb.tag === TAG.oid) sysObjectID = String(vb.value);
    }
    // A v1 agent without one of the two answers noSuchName: it still answered SNMP.
    return { ip, sysDescr, sysObjectID };
  } catch {
    return null;
  }
}

function request(requestId: number, options: SweepOptions): Buffer {
  return encodeMessage({
    version: options.version,
    community: options.community,
    pdu: { type: PDU.get, requestId, errorStatus: 0, errorIndex: 0, varbinds: IDENTITY_OIDS.map((oid) => ({ oid, tag: TAG.null, value: null })) },
  });
}

/** An address of a sweep in flight. */
type Entry = {
  /** `firstSentAt` and `dueAt` on the pace's clock, which stops while the event loop is held up. */
  ip: string; attempt: number; firstSentAt: number; dueAt: number; timer: NodeJS.Timeout | null; ids: number[]; done: boolean;
  /** A try went out while the sweep was behind; `extra`: the tries granted for it. */
  sentBehind: boolean; extra: number;
};

/** The sweep's UDP socket, bound to an ephemeral port, with room for a second of answers. */
async function sweepSocket(): Promise<dgram.Socket> {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, () => resolve());
  });
  socket.on('error', () => undefined);
  // Answers come back at the packet rate: room for a second of them (the kernel may cap it).
  try {
    socket.setRecvBufferSize(4 * 1024 * 1024);
  } catch {
    // left at the system's default
  }
  return socket;
}

/** The packet budget and the pace that sets its rate, kept up to date by a heartbeat (cleared by the caller). */
function pacedBudget(options: SweepOptions) {
  // A sweep on a busy machine wakes late (timers 50 to 150 ms late at load 6 on 2 cores): with
  // 10 ms of catch-up it lost a sixth of its packet budget and a /16 took 32 s instead of 28.
  // 50 ms of catch-up (250 packets at 5,000 a second, 22 KB) keeps the rate.
  const bucket = new TokenBucket(options.packetsPerSecond ?? DEFAULT_PACKETS_PER_SECOND, undefined, SWEEP_CATCH_UP_MS);
  const pace = new SweepPace(options.packetsPerSecond ?? DEFAULT_PACKETS_PER_SECOND);
  bucket.setRate(pace.rate);
  const heartbeat = setInterval(() => {
    pace.tick();
    // A loop that wakes only every few hundred ms still sends its rate: the catch-up covers the lag.
    bucket.setRate(pace.rate, Math.max(SWEEP_CATCH_UP_MS, pace.loopLagMs()));
  }, PACE_TICK_MS);
  return { bucket, pace, heartbeat };
}

/** How many tries an address gets and how long each is listened to. */
function addressTiming(options: SweepOptions, pace: SweepPace) {
  // A device heard from before gets two more tries: a lost packet must not make it vanish, and
  // silent addresses (most of a big range) still cost only `retries + 1` packets each.
  const retriesFor = (entry: Entry): number => (options.rtt?.peek(entry.ip, options.port)?.srttMs != null ? options.retries + 2 : options.retries) + entry.extra;
  const firstWait = (entry: Entry): number => {
    const known = options.rtt?.peek(entry.ip, options.port);
    return known?.srttMs != null ? known.timeoutMs(0) : options.timeoutMs;
  };
  // Behind by a quarter of a first wait, an answer may be waiting unread: no verdict yet.
  const behind = (entry: Entry): boolean => pace.behindMs() > firstWait(entry) / 4;

  /**
   * An address is listened to as long as if each try had gone out the moment the one before
   * timed out (1 + 2 + 4… times its first wait, from its first request), and each try at least
   * its first wait. A retry held back by the packet cap thus waits no longer than it must: at
   * the end of a big sweep the last retries go out many seconds after their first tries, whose
   * late answers have long had their time, and the sweep is not held up by a doubled wait.
   */
  const waitFor = (entry: Entry, now: number): number => {
    const base = firstWait(entry);
    // A try granted because the sweep was behind listens two first waits more, not a doubled wait.
    const doubled = entry.attempt - entry.extra;
    const window = base * (2 ** (doubled + 1) - 1) + 2 * base * entry.extra;
    // In steps of 50 ms: timers of one duration share a list in Node, thousands of durations cost CPU.
    return Math.ceil(Math.max(base, entry.firstSentAt + window - now) / 50) * 50;
  };
  return { retriesFor, behind, waitFor };
}

/**
 * Asks every address in [first, last] for sysDescr and sysObjectID from one UDP socket, at most
 * `packetsPerSecond` requests a second and `concurrency` addresses in flight; an address that
 * stays silent after its retries is skipped. Each attempt has its own request id, so a late
 * answer to an earlier attempt still counts and gives an exact answer time. `concurrency`
 * bounds the addresses in flight (and the memory), new addresses going first up to it.
 *
 * The sweep paces itself by what it can process (`SweepPace`): behind (answers handled late,
 * its timers late) it slows down, and a try that timed out meanwhile counts as unanswered only
 * once it has caught up; an address with a try sent while behind gets up to two more tries.
 */
export async function sweep(first: number, last: number, options: SweepOptions): Promise<SweepAnswer[]> {
  const socket = await sweepSocket();
  const answers: SweepAnswer[] = [];
  const { bucket, pace, heartbeat } = pacedBudget(options);
  const byId = new Map<number, { entry: Entry; sentAt: number }>();
  let inFlight = 0;
  // Tens of thousands of retries wait in a /16: a queue with a head index, since shift() on an
  // array that large copies it.
  const retryQueue = new Fifo<Entry>();
  let nextAddress = first;
  let nextId = (Math.floor(Math.random() * 0x3fffffff) + 1) & 0x3fffffff;
  let pumpTimer: NodeJS.Timeout | null = null;
  let outOfTime = false;
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));

  // Addresses in flight: an undecodable packet has no request id to find its address by.
  const byIp = new Map<string, Entry>();
  const settle = (entry: Entry): void => {
    entry.done = true;
    if (entry.timer) clearTimeout(entry.timer);
    for (const id of entry.ids) byId.delete(id);
    byIp.delete(entry.ip);
    inFlight--;
  };

  const { retriesFor, behind, waitFor } = addressTiming(options, pace);

  const send = (entry: Entry): void => {
    const id = nextId;
    nextId = (nextId + 1) & 0x3fffffff || 1;
    entry.ids.push(id);
    const now = pace.clock();
    if (entry.attempt === 0) entry.firstSentAt = now;
    byId.set(id, { entry, sentAt: performance.now() });
    if (behind(entry)) entry.sentBehind = true;
    const wait = waitFor(entry, now);
    entry.dueAt = now + wait;
    const expire = (): void => {
      entry.timer = null;
      if (entry.done) return;
      // Held up meanwhile, the sweep has not listened for the whole wait yet; answers come late too.
      const left = entry.dueAt + pace.queueDelayMs() - pace.clock();
      if (left > 0) {
        entry.timer = setTimeout(expire, Math.ceil(left / 50) * 50);
        return;
      }
      if (entry.attempt >= retriesFor(entry) && entry.sentBehind && entry.extra < BEHIND_EXTRA_TRIES) {
        entry.extra++;
        entry.sentBehind = false;
      }
      if (entry.attempt < retriesFor(entry)) {
        entry.attempt++;
        retryQueue.push(entry);
      } else {
        settle(entry);
      }
      pump();
    };
    entry.timer = setTimeout(expire, wait);
    socket.send(request(id, options), options.port, entry.ip, (error) => {
      // An unroutable address fails at once: count it as silent (a full buffer is a lost packet: retried).
      const lost = (error as NodeJS.ErrnoException | null)?.code === 'ENOBUFS' || (error as NodeJS.ErrnoException | null)?.code === 'EAGAIN';
      if (error && !lost && !entry.done) {
        settle(entry);
        pump();
      }
    });
  };

  const pump = (): void => {
    const aborted = (options.signal?.aborted ?? false) || outOfTime;
    for (;;) {
      // An address answered late while its retry waited in the queue: no packet for it.
      while (retryQueue.length > 0 && retryQueue.peek()!.done) retryQueue.shift();
      if (aborted || !(retryQueue.length > 0 || (nextAddress <= last && inFlight < options.concurrency))) break;
      if (!bucket.take()) {
        pumpTimer ??= setTimeout(() => {
          pumpTimer = null;
          pump();
        }, Math.max(1, bucket.waitMs()));
        return;
      }
      // New addresses first, up to the in-flight bound; retries when it is reached and after
      // the last address. The packet budget is the same either way, but so the sweep's last
      // packets are retries of addresses asked long before, and end with a single wait.
      const retry = nextAddress <= last && inFlight < options.concurrency ? undefined : retryQueue.shift();
      if (retry) {
        send(retry);
        continue;
      }
      inFlight++;
      const entry: Entry = { ip: formatIpv4(nextAddress++), attempt: 0, firstSentAt: 0, dueAt: 0, timer: null, ids: [], done: false, sentBehind: false, extra: 0 };
      byIp.set(entry.ip, entry);
      send(entry);
    }
    if (inFlight === 0 && (nextAddress > last || aborted)) finish();
  };

  socket.on('message', (packet, rinfo) => {
    let sent: { entry: Entry; sentAt: number } | undefined;
    const answer = answerOf(rinfo.address, packet, (id) => {
      sent = byId.get(id);
      return sent !== undefined && sent.entry.ip === rinfo.address;
    });
    if (!answer) {
      const entry = byIp.get(rinfo.address);
      const reason = entry && !entry.done ? refusalOf(packet, (id) => byId.get(id)?.entry === entry) : null;
      if (entry && reason) {
        settle(entry);
        options.onRefused?.(entry.ip, reason);
        pump();
      }
      return;
    }
    if (!sent || sent.entry.done) return;
    const ageMs = performance.now() - sent.sentAt;
    pace.answered(ageMs, options.rtt?.peek(rinfo.address, options.port)?.srttMs ?? null);
    options.rtt?.get(rinfo.address, options.port).sample(ageMs);
    settle(sent.entry);
    answers.push(answer);
    pump();
  });

  const onAbort = (): void => {
    for (const { entry } of byId.values()) if (!entry.done) settle(entry);
    retryQueue.clear();
    finish();
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });
  // Out of time: what is not settled yet was not probed, which is not the same as silent.
  const deadline = options.deadlineMs == null ? null : setTimeout(() => {
    outOfTime = true;
    for (const entry of [...byIp.values()]) {
      settle(entry);
      options.onUnprobed?.(entry.ip);
    }
    while (nextAddress <= last) options.onUnprobed?.(formatIpv4(nextAddress++));
    retryQueue.clear();
    finish();
  }, options.deadlineMs);
  pump();
  await done;
  clearInterval(heartbeat);
  if (deadline) clearTimeout(deadline);
  if (pumpTimer) clearTimeout(pumpTimer);
  options.signal?.removeEventListener('abort', onAbort);
  socket.close();
  return answers.sort((a, b) => compareIp(a.ip, b.ip));
}

/**
 * Sends one GET to a broadcast address and collects every answer that comes within the window
 * (sent `retries + 1` times, since a broadcast datagram can be lost like any other).
 */
export async function broadcastProbe(address: number, options: SweepOptions): Promise<SweepAnswer[]> {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, () => resolve());
  });
  socket.setBroadcast(true);
  socket.on('error', () => undefined);
  const requestId = (Math.floor(Math.random() * 0x3fffffff) + 1) & 0x3fffffff;
  const answers = new Map<string, SweepAnswer>();
  socket.on('message', (packet, rinfo) => {
    if (answers.has(rinfo.address)) return;
    const answer = answerOf(rinfo.address, packet, (id) => id === requestId);
    if (answer) answers.set(rinfo.address, answer);
  });
  const target = formatIpv4(address);
  for (let attempt = 0; attempt <= options.retries && !options.signal?.aborted; attempt++) {
    socket.send(request(requestId, options), options.port, target);
    await new Promise((resolve) => setTimeout(resolve, options.timeoutMs));
  }
  socket.close();
  return [...answers.values()].sort((a, b) => compareIp(a.ip, b.ip));
}

class Fifo<T> {
  private items: T[] = [];
  private head = 0;
  get length(): number {
    return this.items.length - this.head;
  }
  push(item: T): void {
    this.items.push(item);
  }
  peek(): T | undefined {
    return this.items[this.head];
  }
  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head++];
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
  clear(): void {
    this.items = [];
    this.head = 0;
  }
}

function compareIp(a: string, b: string): number {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  for (let i = 0; i < 4; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return 0;
}
