import dgram from 'node:dgram';
import { PDU, TAG, decodeMessage, encodeMessage } from '@pagewatch/snmp/ber-codec';
import { SYS } from '../reading/printer-mib.ts';
import { formatIpv4 } from './address-range.ts';

export type SweepOptions = {
  port: number;
  community: string;
  /** 0 = SNMPv1, 1 = SNMPv2c. */
  version: 0 | 1;
  /** Requests in flight at once. */
  concurrency: number;
  timeoutMs: number;
  retries: number;
  signal?: AbortSignal;
};

export type SweepAnswer = { ip: string; sysDescr: string | null; sysObjectID: string | null };

const IDENTITY_OIDS = [SYS.descr, SYS.objectId];

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

/**
 * Asks every address in [first, last] for sysDescr and sysObjectID from one UDP socket, with at
 * most `concurrency` requests in flight; an address that stays silent after its retries is
 * skipped. Much lighter than a session per address: one socket, one small datagram each.
 */
export async function sweep(first: number, last: number, options: SweepOptions): Promise<SweepAnswer[]> {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, () => resolve());
  });
  socket.on('error', () => undefined);
  const answers: SweepAnswer[] = [];
  type Pending = { ip: string; attempt: number; timer: NodeJS.Timeout };
  const pending = new Map<number, Pending>();
  let nextAddress = first;
  let nextId = (Math.floor(Math.random() * 0x3fffffff) + 1) & 0x3fffffff;
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });

  const send = (ip: string, attempt: number): void => {
    const id = nextId;
    nextId = (nextId + 1) & 0x3fffffff || 1;
    const timer = setTimeout(() => {
      pending.delete(id);
      if (attempt < options.retries) send(ip, attempt + 1);
      else pump();
    }, options.timeoutMs);
    pending.set(id, { ip, attempt, timer });
    socket.send(request(id, options), options.port, ip, (error) => {
      // An unroutable address fails at once: count it as silent.
      if (error && pending.delete(id)) {
        clearTimeout(timer);
        pump();
      }
    });
  };

  const pump = (): void => {
    while (pending.size < options.concurrency && nextAddress <= last && !options.signal?.aborted) {
      send(formatIpv4(nextAddress), 0);
      nextAddress++;
    }
    if (pending.size === 0 && (nextAddress > last || options.signal?.aborted)) finish();
  };

  socket.on('message', (packet, rinfo) => {
    let matched: number | null = null;
    const answer = answerOf(rinfo.address, packet, (id) => {
      const p = pending.get(id);
      if (p && p.ip === rinfo.address) matched = id;
      return matched !== null;
    });
    if (!answer || matched === null) return;
    clearTimeout(pending.get(matched)!.timer);
    pending.delete(matched);
    answers.push(answer);
    pump();
  });

  const onAbort = (): void => {
    for (const p of pending.values()) clearTimeout(p.timer);
    pending.clear();
    finish();
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });
  pump();
  await done;
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

function compareIp(a: string, b: string): number {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  for (let i = 0; i < 4; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return 0;
}
