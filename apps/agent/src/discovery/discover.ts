import type { AgentRange, RefusalReason, SnmpCredentials } from '@pagewatch/contracts/agent-api';
import type { ProfileRegistry } from '../profiles/profile-registry.ts';
import { SYS } from '../reading/printer-mib.ts';
import { SnmpClient } from '../snmp/snmp-client.ts';
import type { SnmpTarget } from '../snmp/snmp-client.ts';
import { refusalOf } from '../snmp/snmp-error.ts';
import { formatIpv4, parseIpv4, planScan } from './address-range.ts';
import type { RttTable } from '../snmp/rtt-estimator.ts';
import { DEFAULT_PACKETS_PER_SECOND, broadcastProbe, sweep } from './snmp-sweep.ts';
import type { SweepAnswer, SweepOptions } from './snmp-sweep.ts';

export type DiscoveryOptions = {
  /** SNMPv3 sessions at once (default 64); a v1/v2c sweep is paced by `packetsPerSecond` instead. */
  concurrency?: number;
  /** First wait for an address not heard from before (default 1000 ms); each retry doubles it. */
  timeoutMs?: number;
  /** Default: 2 for a sweep of up to 16,384 addresses, else 1 (a device heard from before gets 2 more). */
  retries?: number;
  /** Cap on requests a second when the range sets none (default DEFAULT_PACKETS_PER_SECOND). */
  packetsPerSecond?: number;
  /** Answer times learned per device, kept across runs. */
  rtt?: RttTable;
  /**
   * How long a v1/v2c sweep may take before the addresses it has not settled are reported as
   * not probed (default `sweepDeadlineMs`: four times the sweep at its cap, at least a minute).
   */
  deadlineMs?: number;
  signal?: AbortSignal;
};

/** Addresses a sweep keeps in flight: enough for the packet cap times the longest wait. */
const SWEEP_IN_FLIGHT = 32_768;
/**
 * Up to this many addresses, an address never heard from is asked three times (2% loss then
 * misses one printer in 125,000); above, twice, since each extra try of a silent address costs
 * the packet budget: a /16 asked three times would take 40 s at the default cap.
 */
const THREE_TRIES_UP_TO = 16_384;

/**
 * Four times what a sweep of `count` addresses takes at its cap (each address asked `retries + 1`
 * times, the last listened to for 8 first waits), and never under a minute: a busy agent sweeps
 * slower than its cap, and what is left at the end is reported as not probed.
 */
export function sweepDeadlineMs(count: number, retries: number, packetsPerSecond: number, timeoutMs: number): number {
  return Math.max(60_000, 4 * ((count * (retries + 1) * 1000) / packetsPerSecond + 8 * timeoutMs));
}

export type DiscoveredDevice = {
  ip: string;
  port: number;
  sysObjectID: string | null;
  sysDescr: string | null;
  /** The profile that matched, or the generic one. */
  profileId: string;
  vendor: string | null;
  /** A vendor profile matched (not the generic fallback). */
  matched: boolean;
  /** A printer by its profile: matched and not one of the vendor's non-printers (scanners, projectors). */
  isPrinter: boolean;
};

export type DiscoveryResult = {
  rangeId: number | null;
  /** Addresses asked (for a broadcast: the hosts the subnet holds). */
  scanned: number;
  devices: DiscoveredDevice[];
  /** Addresses that answered but refused (a v3 user or key, a report, not SNMP), in address order. */
  refused: Array<{ ip: string; reason: RefusalReason }>;
  /**
   * Addresses the sweep could not probe in time (a starved agent past its deadline), in address
   * order: not known to be empty, so neither found nor silent.
   */
  unprobed: string[];
  durationMs: number;
  /** Set when the range could not be scanned at all (bad range, socket error). */
  error: string | null;
  note: string | null;
};

type ScannableRange = Pick<AgentRange, 'type' | 'address' | 'mask' | 'from' | 'to' | 'port' | 'snmp'> & { id?: number | null; packetsPerSecond?: number | null };

/** The SNMP target for one address of a range, with the range's credentials. */
export function targetFor(ip: string, port: number, snmp: SnmpCredentials, options: DiscoveryOptions = {}): SnmpTarget {
  const base = { host: ip, port, timeoutMs: options.timeoutMs ?? 1000, retries: options.retries ?? 1 };
  if (snmp.version === '3') {
    return {
      ...base,
      version: '3',
      v3: {
        user: snmp.user,
        authProtocol: snmp.authProtocol ?? undefined,
        authKey: snmp.level === 'noAuthNoPriv' ? undefined : (snmp.authKey ?? undefined),
        privProtocol: snmp.privProtocol ?? undefined,
        privKey: snmp.level === 'authPriv' ? (snmp.privKey ?? undefined) : undefined,
      },
    };
  }
  return { ...base, version: snmp.version, community: snmp.community };
}

type Refused = (ip: string, reason: RefusalReason) => void;

/** SNMPv3 needs an engine handshake per device, so v3 ranges go through a session per address. */
async function sweepV3(first: number, last: number, range: ScannableRange, options: DiscoveryOptions, onRefused: Refused): Promise<SweepAnswer[]> {
  const answers: SweepAnswer[] = [];
  let next = first;
  const worker = async (): Promise<void> => {
    while (next <= last && !options.signal?.aborted) {
      const ip = formatIpv4(next++);
      const client = new SnmpClient(targetFor(ip, range.port, range.snmp, options));
      try {
        const vbs = await client.get([SYS.descr, SYS.objectId]);
        const descr = vbs.find((v) => v.oid === SYS.descr);
        const oid = vbs.find((v) => v.oid === SYS.objectId);
        answers.push({
          ip,
          sysDescr: descr?.value instanceof Uint8Array ? Buffer.from(descr.value).toString('utf8').trim() : null,
          sysObjectID: typeof oid?.value === 'string' ? oid.value : null,
        });
      } catch (error) {
        // Silent: nothing there for us. Refused: a device is there, and the summary says why.
        const reason = refusalOf(error);
        if (reason) onRefused(ip, reason);
      } finally {
        client.close();
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 64, last - first + 1) }, worker));
  return answers.sort((a, b) => a.ip.localeCompare(b.ip, 'en', { numeric: true }));
}

/**
 * Finds the SNMP devices of one network range (broadcast, netmask or IP range) and tells which
 * are printers by the models pack. Never throws: a range that cannot be scanned comes back with
 * `error` set.
 */
export async function discoverRange(range: ScannableRange, registry: ProfileRegistry, options: DiscoveryOptions = {}): Promise<DiscoveryResult> {
  const started = Date.now();
  const refused: DiscoveryResult['refused'] = [];
  const onRefused: Refused = (ip, reason) => refused.push({ ip, reason });
  const unprobed: string[] = [];
  const result = (devices: DiscoveredDevice[], scanned: number, error: string | null, note: string | null = null): DiscoveryResult => ({
    rangeId: range.id ?? null, scanned, devices, refused: refused.sort((a, b) => parseIpv4(a.ip) - parseIpv4(b.ip)),
    unprobed: unprobed.sort((a, b) => parseIpv4(a) - parseIpv4(b)), durationMs: Date.now() - started, error, note,
  });
  try {
    const plan = planScan(range);
    const count = plan.kind === 'sweep' ? plan.count : 0;
    const timeoutMs = options.timeoutMs ?? 1000;
    const retries = options.retries ?? (count <= THREE_TRIES_UP_TO ? 2 : 1);
    const packetsPerSecond = range.packetsPerSecond ?? options.packetsPerSecond ?? DEFAULT_PACKETS_PER_SECOND;
    const sweepOptions: SweepOptions = {
      port: range.port,
      community: range.snmp.version === '3' ? '' : range.snmp.community,
      version: range.snmp.version === '1' ? 0 : 1,
      concurrency: SWEEP_IN_FLIGHT,
      timeoutMs,
      retries,
      packetsPerSecond,
      rtt: options.rtt,
      onRefused,
      deadlineMs: options.deadlineMs ?? sweepDeadlineMs(count, retries, packetsPerSecond, timeoutMs),
      onUnprobed: (ip) => unprobed.push(ip),
      signal: options.signal,
    };
    let answers: SweepAnswer[];
    let scanned: number;
    if (plan.kind === 'broadcast') {
      scanned = plan.hosts[1] - plan.hosts[0] + 1;
      answers = range.snmp.version === '3'
        ? await sweepV3(plan.hosts[0], plan.hosts[1], range, options, onRefused)
        : (await broadcastProbe(plan.address, sweepOptions)).filter((a) => inHosts(a.ip, plan.hosts));
    } else {
      scanned = plan.count;
      answers = range.snmp.version === '3'
        ? await sweepV3(plan.first, plan.last, range, options, onRefused)
        : await sweep(plan.first, plan.last, sweepOptions);
    }
    const devices = answers.map((a) => classify(a, range.port, registry));
    return result(devices, scanned, null, plan.kind === 'sweep' ? (plan.note ?? null) : null);
  } catch (error) {
    return result([], 0, (error as Error).message);
  }
}

function inHosts(ip: string, [first, last]: [number, number]): boolean {
  const n = parseIpv4(ip);
  return n >= first && n <= last;
}

export function classify(answer: SweepAnswer, port: number, registry: ProfileRegistry): DiscoveredDevice {
  const { profile, matched } = registry.match(answer.sysObjectID, answer.sysDescr);
  const notPrinter = profile.notPrinterPattern?.test(answer.sysDescr ?? '') ?? false;
  return {
    ip: answer.ip,
    port,
    sysObjectID: answer.sysObjectID,
    sysDescr: answer.sysDescr,
    profileId: profile.id,
    vendor: profile.vendor,
    matched,
    isPrinter: matched && !notPrinter,
  };
}
