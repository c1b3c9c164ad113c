import { cutText } from '@pagewatch/contracts/fields';
import { randomUUID } from 'node:crypto';
import type { AgentReading, DeviceFailureReason, RefusalReason, SnmpCredentials } from '@pagewatch/contracts/agent-api';
import type { DiscoveredDevice } from '../discovery/discover.ts';
import { targetFor } from '../discovery/discover.ts';
import { readDevice } from './read-device.ts';
import type { ProfileRegistry } from '../profiles/profile-registry.ts';
import { SnmpClient } from '../snmp/snmp-client.ts';
import type { SnmpTarget } from '../snmp/snmp-client.ts';
import type { RttTable } from '../snmp/rtt-estimator.ts';
import { failureOf, refusalOf } from '../snmp/snmp-error.ts';
import type { Varbind } from '../snmp/varbind.ts';

/**
 * `forceWalk`: send a full walk even for a known device (asked for in the console). With `rtt`,
 * each request waits as long as the device's answer times say (`timeoutMs` only for a device
 * never heard from) and is sent up to `retries` more times (default 3), each wait doubled.
 */
export type PollOptions = {
  timeoutMs?: number; retries?: number; walkMaxRows?: number; forceWalk?: boolean; rtt?: RttTable;
  /** The device answered but refused (null is returned then too): told apart from silence in the run's summary. */
  onRefused?: (reason: RefusalReason) => void;
  /** Why the device gave no reading (null is returned then), for its outcome in the run (issue 44). */
  onFailed?: (reason: DeviceFailureReason) => void;
};

/** Three retries: with 2% loss, a request is lost for good once in 6 million. */
const POLL_RETRIES = 3;

/** Rows of a full walk are capped: enough to write a profile from, small enough to send. */
const WALK_MAX_ROWS = 20_000;
const WALK_VALUE_MAX = 4096;

/** Runs `fn` over `items` with at most `limit` at once; stops taking new items once aborted. */
export async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>, signal?: AbortSignal): Promise<R[]> {
  const out: R[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length && !signal?.aborted) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return out;
}

/**
 * The devices in the order to poll them: the slowest (by their smoothed answer time) first, so a
 * printer that takes 30 s is polled alongside the rest rather than started last and holding the
 * run up; devices not heard from keep their place after them.
 */
export function slowestFirst<T extends { ip: string; port: number }>(devices: T[], rtt: RttTable | undefined): T[] {
  if (!rtt) return devices;
  const srtt = (d: T): number => rtt.peek(d.ip, d.port)?.srttMs ?? 0;
  return devices.map((d, i) => ({ d, i, ms: srtt(d) })).sort((a, b) => b.ms - a.ms || a.i - b.i).map((x) => x.d);
}

/**
 * Polls every device, `limit` at once, slowest first. `poll` says whether the device was read;
 * one that was not (silent after every retry, or went silent part-way) is asked once more after
 * the rest, when its wait has doubled and the rush is over: `lastTry` tells the second time.
 */
export async function pollInTurn<T extends { ip: string; port: number }>(
  devices: T[],
  limit: number,
  rtt: RttTable | undefined,
  poll: (device: T, lastTry: boolean) => Promise<boolean>,
  signal?: AbortSignal,
): Promise<void> {
  const again: T[] = [];
  await mapLimit(slowestFirst(devices, rtt), limit, async (device) => {
    if (!(await poll(device, false))) again.push(device);
  }, signal);
  if (again.length > 0) await mapLimit(again, limit, (device) => poll(device, true), signal);
}

function walkValue(vb: Varbind): string {
  const v = vb.value;
  if (v instanceof Uint8Array) {
    const text = Buffer.from(v).toString('utf8');
    // Printable text as text; anything else (MACs, bit strings) as hex.
    const printable = !/[\u0000-\u0008\u000e-\u001f\ufffd]/.test(text);
    // Cut between characters: half an emoji is no text, and the server cannot store it.
    return cutText(printable ? text : `0x${Buffer.from(v).toString('hex')}`, WALK_VALUE_MAX);
  }
  return v === null ? '' : cutText(String(v), WALK_VALUE_MAX);
}

/** The whole MIB of a device that matched no profile, as [oid, type, value] rows. */
export async function fullWalk(target: SnmpTarget, maxRows = WALK_MAX_ROWS): Promise<Array<[string, string, string]>> {
  const client = new SnmpClient({ ...target, maxRepetitions: 40 });
  try {
    const { varbinds } = await client.walk('1.3.6.1', maxRows);
    return varbinds.map((vb) => [vb.oid, vb.type, walkValue(vb)]);
  } finally {
    client.close();
  }
}

/**
 * Reads one discovered device into an AgentReading for the spool; null when the device does not
 * answer any more. A device that matched no vendor profile also gets a full walk.
 */
export async function pollDevice(
  device: DiscoveredDevice,
  rangeId: number | null,
  snmp: SnmpCredentials,
  registry: ProfileRegistry,
  runId: string | null,
  options: PollOptions = {},
): Promise<AgentReading | null> {
  const target: SnmpTarget = {
    ...targetFor(device.ip, device.port, snmp, { timeoutMs: options.timeoutMs ?? 2000, retries: options.retries ?? POLL_RETRIES }),
    rtt: options.rtt?.get(device.ip, device.port),
  };
  let reading;
  try {
    reading = await readDevice(target, registry);
  } catch (error) {
    const reason = refusalOf(error);
    if (reason) options.onRefused?.(reason);
    options.onFailed?.(failureOf(error));
    return null;
  }
  const unmatched = reading.profileId === null || registry.match(reading.sysObjectID, reading.sysDescr).matched === false;
  const walk = unmatched || options.forceWalk ? await fullWalk(target, options.walkMaxRows).catch(() => null) : null;
  return { id: randomUUID(), runId, rangeId, ip: device.ip, port: device.port, reading, walk };
}
