import snmp from 'net-snmp';
import type { Session, User, Varbind as RawVarbind } from 'net-snmp';
import type { RttEstimator } from './rtt-estimator.ts';
import { SnmpError } from './snmp-error.ts';
import { compareOids, isException, isUnder, isValidOid, normaliseOid } from './varbind.ts';
import type { Varbind, VarbindType } from './varbind.ts';

// net-snmp reads a session's `timeout` each time it sends a request, which its published types
// leave out; `request` sets it for each attempt. Declared here, so that every program that
// compiles this file (the agent, the simulator, the benchmarks) sees it.
declare module 'net-snmp' {
  interface Session {
    timeout: number;
  }
}

export type SnmpVersion = '1' | '2c' | '3';
export const AUTH_PROTOCOLS = ['md5', 'sha', 'sha224', 'sha256', 'sha384', 'sha512'] as const;
export const PRIV_PROTOCOLS = ['des', 'aes', 'aes256b', 'aes256r'] as const;

export type SnmpV3Credentials = {
  user: string;
  authProtocol?: (typeof AUTH_PROTOCOLS)[number];
  authKey?: string;
  privProtocol?: (typeof PRIV_PROTOCOLS)[number];
  privKey?: string;
};

export type SnmpTarget = {
  host: string;
  port?: number;
  version?: SnmpVersion;
  community?: string;
  v3?: SnmpV3Credentials;
  /** Per attempt, in milliseconds (when no `rtt` sets it). */
  timeoutMs?: number;
  retries?: number;
  /** The device's answer times: sets each attempt's wait and learns from each answer. */
  rtt?: RttEstimator;
  /** GETBULK max-repetitions. */
  maxRepetitions?: number;
};

export type WalkResult = {
  varbinds: Varbind[];
  /** Set when the walk stopped early; `varbinds` holds what came before. */
  error: SnmpError | null;
};

const TYPE_NAMES: Record<number, VarbindType> = {
  2: 'integer', 4: 'octets', 5: 'null', 6: 'oid', 64: 'ip', 65: 'counter32', 66: 'gauge32',
  67: 'timeticks', 68: 'opaque', 70: 'counter64', 128: 'noSuchObject', 129: 'noSuchInstance',
  130: 'endOfMibView',
};

/** Turns a net-snmp varbind into a typed one; never throws, odd values become 'unknown'. */
export function toVarbind(raw: RawVarbind): Varbind {
  const oid = normaliseOid(String(raw.oid));
  const type = (raw.type === undefined ? undefined : TYPE_NAMES[raw.type]) ?? 'unknown';
  const v = raw.value;
  switch (type) {
    case 'octets':
    case 'opaque':
      return { oid, type, value: v instanceof Uint8Array ? new Uint8Array(v) : new TextEncoder().encode(String(v ?? '')) };
    case 'counter64':
      return { oid, type, value: bytesToBigInt(v) };
    case 'integer':
    case 'counter32':
    case 'gauge32':
    case 'timeticks':
      return typeof v === 'number' ? { oid, type, value: v } : { oid, type: 'unknown', value: null };
    case 'oid':
    case 'ip':
      return { oid, type, value: String(v) };
    default:
      return { oid, type, value: null };
  }
}

function bytesToBigInt(v: unknown): bigint | null {
  if (typeof v === 'number' && Number.isFinite(v)) return BigInt(Math.trunc(v));
  if (typeof v === 'bigint') return v;
  if (!(v instanceof Uint8Array)) return null;
  let n = 0n;
  for (const byte of v) n = (n << 8n) | BigInt(byte);
  return n;
}

function toSnmpError(error: Error, target: SnmpTarget): SnmpError {
  const where = `${target.host}:${target.port ?? 161}`;
  const name = error.name;
  if (name === 'RequestTimedOutError') {
    const hint = target.version === '3' ? 'unreachable, or wrong v3 user or keys' : 'unreachable, or wrong community';
    return new SnmpError('timeout', `no answer from ${where} (${hint})`);
  }
  if (name === 'ResponseInvalidError') {
    // net-snmp's code 5 (EAuthFailure) is any USM report: unknown user, wrong digest, security level.
    const auth = (error as Error & { code?: unknown }).code === 5 || /auth|decrypt|usm|engine|user name|security level/i.test(error.message);
    return new SnmpError(auth ? 'auth' : 'invalid-response', `bad answer from ${where}: ${error.message}`);
  }
  if (name === 'RequestFailedError') return new SnmpError('request-failed', `${where} refused the request: ${error.message}`);
  return new SnmpError('socket', `cannot talk to ${where}: ${error.message}`);
}

/**
 * One SNMP session to one device: GET, GETNEXT and subtree walks (GETBULK for v2c and v3,
 * GETNEXT for v1 or when an agent fails GETBULK). Errors come back as SnmpError.
 */
export class SnmpClient {
  readonly target: SnmpTarget;
  /** Problems the session noticed outside a request (e.g. an undecodable packet). */
  readonly sessionProblems: string[] = [];
  private session: Session;
  private bulkBroken = false;

  constructor(target: SnmpTarget) {
    this.target = target;
    this.session = openSession(target);
    // net-snmp emits 'error' for packets it cannot decode; unhandled, that would crash us.
    this.session.on('error', (error) => {
      if (this.sessionProblems.length < 20) this.sessionProblems.push(`undecodable SNMP packet: ${error?.message ?? 'unknown'}`);
    });
  }

  get version(): SnmpVersion {
    return this.target.version ?? '2c';
  }

  close(): void {
    try {
      this.session.close();
    } catch {
      // already closed
    }
  }

  get(oids: string[]): Promise<Varbind[]> {
    return this.request((cb) => this.session.get(oids, cb)).catch(async (error: unknown) => {
      // A v1 agent answers noSuchName for the whole PDU when one OID is missing: ask one by one.
      if (error instanceof SnmpError && error.kind === 'request-failed' && oids.length > 1) {
        const parts: Varbind[] = [];
        for (const oid of oids) parts.push(...(await this.get([oid]).catch(() => [])));
        return parts;
      }
      if (error instanceof SnmpError && error.kind === 'request-failed') return [];
      throw error;
    });
  }

  getNext(oids: string[]): Promise<Varbind[]> {
    return this.request((cb) => this.session.getNext(oids, cb));
  }

  getBulk(oids: string[], maxRepetitions: number): Promise<Varbind[]> {
    return this.request((cb) => this.session.getBulk(oids, 0, maxRepetitions, cb));
  }

  /** Walks one subtree; stops at its end, at an exception, or at an OID out of order. */
  async walk(root: string, maxRows = 5000): Promise<WalkResult> {
    const base = normaliseOid(root);
    const varbinds: Varbind[] = [];
    let current = base;
    let useNext = false;
    for (;;) {
      let batch: Varbind[];
      try {
        batch = useNext ? await this.getNext([current]) : await this.nextBatch(current);
      } catch (error) {
        // One unencodable value past our subtree can make the agent drop a whole GETBULK
        // answer; GETNEXT from the same point still gets the rows before it.
        if (!useNext && error instanceof SnmpError && error.kind === 'timeout' && this.version !== '1') {
          useNext = true;
          continue;
        }
        if (error instanceof SnmpError && error.kind === 'request-failed') return { varbinds, error: null };
        return { varbinds, error: error instanceof SnmpError ? error : toSnmpError(error as Error, this.target) };
      }
      if (batch.length === 0) return { varbinds, error: null };
      for (const vb of batch) {
        if (isException(vb) || !isUnder(vb.oid, base)) return { varbinds, error: null };
        if (!isValidOid(vb.oid) || compareOids(vb.oid, current) <= 0) {
          return { varbinds, error: new SnmpError('invalid-response', `agent returned OIDs out of order after ${current}`) };
        }
        varbinds.push(vb);
        current = vb.oid;
        if (varbinds.length >= maxRows) {
          return { varbinds, error: new SnmpError('invalid-response', `walk of ${base} cut at ${maxRows} rows`) };
        }
      }
    }
  }

  private async nextBatch(oid: string): Promise<Varbind[]> {
    if (this.version === '1' || this.bulkBroken) return this.getNext([oid]);
    try {
      return await this.getBulk([oid], this.target.maxRepetitions ?? 20);
    } catch (error) {
      // Some agents answer GETBULK with an error or garbage but GETNEXT correctly.
      if (error instanceof SnmpError && (error.kind === 'request-failed' || error.kind === 'invalid-response')) {
        this.bulkBroken = true;
        return this.getNext([oid]);
      }
      throw error;
    }
  }

  /**
   * One request, retried here rather than by net-snmp: each attempt is a new request id with
   * its own wait (from the device's answer times, doubling per attempt), and the time of the
   * answer is exact, so it feeds the estimator.
   */
  private async request(send: (cb: (error: Error | null, raw?: (RawVarbind | RawVarbind[])[]) => void) => void): Promise<Varbind[]> {
    const retries = this.target.retries ?? 1;
    const rtt = this.target.rtt;
    for (let attempt = 0; ; attempt++) {
      this.session.timeout = rtt ? rtt.timeoutMs(attempt) : (this.target.timeoutMs ?? 2000);
      const started = performance.now();
      try {
        const answer = await this.once(send);
        rtt?.sample(performance.now() - started);
        return answer;
      } catch (error) {
        if (!(error instanceof SnmpError) || error.kind !== 'timeout') throw error;
        if (attempt >= retries) {
          rtt?.failed();
          throw error;
        }
      }
    }
  }

  private once(send: (cb: (error: Error | null, raw?: (RawVarbind | RawVarbind[])[]) => void) => void): Promise<Varbind[]> {
    return new Promise((resolve, reject) => {
      try {
        send((error, raw) => {
          if (error) reject(toSnmpError(error, this.target));
          // GETBULK nests the repetitions of each repeated OID in an array.
          else resolve((raw ?? []).flat().map(toVarbind));
        });
      } catch (error) {
        reject(new SnmpError('options', (error as Error).message));
      }
    });
  }
}

function openSession(target: SnmpTarget): Session {
  const options = {
    port: target.port ?? 161,
    // SnmpClient.request retries, with a fresh request id and wait per attempt.
    retries: 0,
    timeout: target.timeoutMs ?? 2000,
    transport: target.host.includes(':') ? ('udp6' as const) : ('udp4' as const),
    backoff: 1,
  };
  try {
    if (target.version === '3') {
      if (!target.v3?.user) throw new Error('SNMPv3 needs a user name');
      return snmp.createV3Session(target.host, v3User(target.v3), { ...options, version: snmp.Version3 });
    }
    const version = target.version === '1' ? snmp.Version1 : snmp.Version2c;
    return snmp.createSession(target.host, target.community ?? 'public', { ...options, version });
  } catch (error) {
    throw new SnmpError('options', (error as Error).message);
  }
}

function v3User(c: SnmpV3Credentials): User {
  const user: User = { name: c.user, level: snmp.SecurityLevel.noAuthNoPriv };
  if (c.authKey) {
    user.level = snmp.SecurityLevel.authNoPriv;
    user.authProtocol = snmp.AuthProtocols[c.authProtocol ?? 'sha'];
    user.authKey = c.authKey;
    if (c.privKey) {
      user.level = snmp.SecurityLevel.authPriv;
      user.privProtocol = snmp.PrivProtocols[c.privProtocol ?? 'aes'];
      user.privKey = c.privKey;
    }
  }
  return user;
}
