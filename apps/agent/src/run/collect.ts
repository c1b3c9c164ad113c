import { randomUUID } from 'node:crypto';
import type { AgentConfig } from '@pagewatch/contracts/agent-api';
import { agentReadingSchema } from '@pagewatch/contracts/agent-api';
import { parseIpv4, planScan } from '../discovery/address-range.ts';
import { discoverRange } from '../discovery/discover.ts';
import { answersV3 } from '../discovery/v3-probe.ts';
import { MAX_RUN_DEVICE_OUTCOMES, MAX_SUMMARY_REFUSALS } from '@pagewatch/contracts/agent-api';
import type { DeviceFailureReason, DeviceOutcome, RefusalReason } from '@pagewatch/contracts/agent-api';
import { refusalFailure } from '../snmp/snmp-error.ts';
import { STOPPED_ANSWERING } from './read-device.ts';
import { RttTable } from '../snmp/rtt-estimator.ts';
import type { DiscoveryOptions } from '../discovery/discover.ts';
import type { ProfileRegistry } from '../profiles/profile-registry.ts';
import { fitAgentReading } from './fit-reading.ts';
import { pollDevice, pollInTurn } from './poll-device.ts';
import type { PollOptions } from './poll-device.ts';
import type { RangeResult, RangeSummary, Spool } from './spool.ts';

export type AgentLog = (level: 'info' | 'warn' | 'error', message: string) => void;

export type RunSummary = { runId: string; startedAt: string; finishedAt: string; readings: number; ranges: RangeResult[] };

export type CollectOptions = {
  registry: ProfileRegistry;
  spool: Spool;
  /** Stop: ranges not begun are reported as skipped, the one under way as cut. */
  signal: AbortSignal;
  log: AgentLog;
  /** Devices polled at once (default 64). */
  concurrency?: number;
  discovery?: DiscoveryOptions;
  poll?: PollOptions;
  /** Answer times per device, kept by the runner across runs (a fresh table when absent). */
  rtt?: RttTable;
};

/** Devices heard from in an earlier run that are in the range but did not answer this time, as `ip:port`. */
function unreachable(range: AgentConfig['ranges'][number], rtt: RttTable, answered: Set<string>): string[] {
  let plan;
  try {
    plan = planScan(range);
  } catch {
    return [];
  }
  const [first, last] = plan.kind === 'broadcast' ? plan.hosts : [plan.first, plan.last];
  const out: string[] = [];
  for (const key of rtt.answered()) {
    const [ip, port] = key.split(':');
    if (Number(port) !== range.port || answered.has(key)) continue;
    const at = parseIpv4(ip!);
    if (at >= first && at <= last) out.push(key);
  }
  return out;
}

/**
 * Of the devices silent since an earlier run, those whose SNMP engine still answers (v3 engine
 * discovery): with v1/v2c they were heard with this community before, so it is now refused.
 */
async function refusingCommunity(range: AgentConfig['ranges'][number], silent: string[], timeoutMs: number, signal: AbortSignal): Promise<Set<string>> {
  if (range.snmp.version === '3' || silent.length === 0 || signal.aborted) return new Set();
  return answersV3(silent.map((k) => k.split(':')[0]!), range.port, timeoutMs, 2, signal);
}

/** A reading's own verdict: no printer behind the SNMP agent, or the profile failed to decode it (build-reading.ts). */
function readingFailure(reading: { isPrinter: boolean; problems: string[] }): DeviceFailureReason | null {
  if (reading.problems.some((p) => p.startsWith('internal error while decoding'))) return 'PROFILE_ERROR';
  return reading.isPrinter ? null : 'NO_PRINTER_MIB';
}

/**
 * One run: discovers each range of the config, polls the printers found (and devices no
 * profile knows, with a walk) and spools the readings, fitted to the contract's limits, between
 * a run-start and a run-finish record with each range's result.
 */
export async function collect(cfg: AgentConfig, opts: CollectOptions): Promise<RunSummary> {
  const { spool, signal, log, registry } = opts;
  const rtt = opts.rtt ?? new RttTable();
  const runId = randomUUID();
  const startedAt = new Date().toISOString();
  const ranges: RangeResult[] = [];
  let readings = 0;
  const seen = new Set<string>();
  const walkAsked = new Set((cfg.walkRequests ?? []).map((w) => `${w.ip}:${w.port}`));
  /** Outcomes the run may still report (the contract's bound over all ranges). */
  let outcomeBudget = MAX_RUN_DEVICE_OUTCOMES;
  await spool.append({ kind: 'run-start', runId, startedAt });
  for (const range of cfg.ranges) {
    if (signal.aborted) {
      ranges.push({ rangeId: range.id, scanned: 0, found: 0, durationMs: 0, error: 'the agent stopped before this range was scanned' });
      continue;
    }
    const started = Date.now();
    const found = await discoverRange(range, registry, { ...opts.discovery, rtt, signal });
    if (found.error) await spool.append({ kind: 'problem', runId, rangeId: range.id, level: 'E', message: found.error });
    // Printers, and devices no profile knows (sent with a walk); a vendor's non-printers are left out.
    const devices = found.devices.filter((d) => (d.isPrinter || !d.matched) && !seen.has(`${d.ip}:${d.port}`));
    for (const d of devices) seen.add(`${d.ip}:${d.port}`);
    let read = 0;
    const summary: RangeSummary = { answered: 0, slow: 0, timedOut: 0, unreachable: 0, refused: 0, refusals: [], unprobed: found.unprobed.length };
    const refused = new Map<string, RefusalReason>(found.refused.map((r) => [r.ip, r.reason]));
    // Each device's outcome (issue 44): read, or why not, and how long its poll took (0: not polled).
    const outcomes = new Map<string, DeviceOutcome>();
    const outcome = (ip: string, reason: DeviceFailureReason | null, ms: number) => void outcomes.set(ip, { ip, reason, ms });
    for (const d of found.devices) if (d.matched && !d.isPrinter) outcome(d.ip, 'NO_PRINTER_MIB', 0);
    // Workers take the next device as each finishes, slowest first: a slow device holds up only
    // its own worker, and starts early enough not to hold up the run.
    await pollInTurn(devices, opts.concurrency ?? 64, rtt, async (device, lastTry) => {
      const forceWalk = walkAsked.has(`${device.ip}:${device.port}`);
      let refusal: RefusalReason | null = null;
      let failure: DeviceFailureReason = 'TIMEOUT';
      const onRefused = (reason: RefusalReason): void => {
        refusal = reason;
      };
      const onFailed = (reason: DeviceFailureReason): void => {
        failure = reason;
      };
      const began = Date.now();
      const polled = await pollDevice(device, range.id, range.snmp, registry, runId, { ...opts.poll, rtt, forceWalk, onRefused, onFailed });
      const ms = Date.now() - began;
      // A refusal is the device's answer: asking again after the rest would get the same.
      if (refusal) {
        refused.set(device.ip, refusal);
        outcome(device.ip, refusalFailure(refusal), ms);
        return true;
      }
      const silent = !polled || polled.reading.problems.includes(STOPPED_ANSWERING);
      if (silent && !lastTry && !signal.aborted) return false;
      if (silent) summary.timedOut++;
      else if (rtt.get(device.ip, device.port).slow) summary.slow++;
      else summary.answered++;
      if (!polled) {
        outcome(device.ip, failure, ms);
        return true;
      }
      outcome(device.ip, silent ? 'TIMEOUT' : readingFailure(polled.reading), ms);
      // Fitted to the contract's limits, so one over-long value never holds the queue up.
      const reading = fitAgentReading(polled);
      if (reading.reading.trimmed?.length) log('warn', `${device.ip}: fitted to the limits: ${reading.reading.trimmed.map((t) => `${t.field} ${t.action}`).join(', ')}`);
      const checked = agentReadingSchema.safeParse(reading);
      if (!checked.success) {
        const issue = checked.error.issues[0];
        await spool.append({ kind: 'problem', runId, rangeId: range.id, level: 'W', message: `${device.ip}: reading not sent (${issue?.path.join('.')}: ${issue?.message})` });
        outcome(device.ip, 'PROFILE_ERROR', ms);
        return true;
      }
      await spool.append({ kind: 'reading', reading });
      read++;
      return true;
    }, signal);
    readings += read;
    // An address not probed in time is not known to be silent: not counted unreachable.
    const answeredNow = new Set([...found.devices, ...found.unprobed.map((ip) => ({ ip, port: range.port }))].map((d) => `${d.ip}:${d.port}`));
    for (const ip of refused.keys()) answeredNow.add(`${ip}:${range.port}`);
    const silent = unreachable(range, rtt, answeredNow);
    const community = await refusingCommunity(range, silent, opts.discovery?.timeoutMs ?? 1000, signal);
    for (const ip of community) refused.set(ip, 'community');
    summary.unreachable = silent.length - community.size;
    for (const [ip, reason] of refused) if (!outcomes.has(ip)) outcome(ip, refusalFailure(reason), 0);
    for (const key of silent) {
      const ip = key.split(':')[0]!;
      if (!outcomes.has(ip)) outcome(ip, 'TIMEOUT', 0);
    }
    const devicesOut = [...outcomes.values()].sort((a, b) => parseIpv4(a.ip) - parseIpv4(b.ip)).slice(0, outcomeBudget);
    outcomeBudget -= devicesOut.length;
    summary.refused = refused.size;
    summary.refusals = [...refused].sort(([a], [b]) => parseIpv4(a) - parseIpv4(b)).slice(0, MAX_SUMMARY_REFUSALS).map(([ip, reason]) => ({ ip, reason }));
    const cut = signal.aborted && read < devices.length;
    ranges.push({
      rangeId: range.id,
      scanned: found.scanned,
      found: read,
      durationMs: Date.now() - started,
      error: found.error ?? (cut ? 'the agent stopped during this range' : null),
      summary,
      devices: devicesOut,
    });
  }
  const finishedAt = new Date().toISOString();
  await spool.append({ kind: 'run-finish', runId, finishedAt, rangeResults: ranges });
  log('info', `run ${runId}: ${readings} readings from ${ranges.length} ranges`);
  for (const r of ranges) {
    if (!r.summary) continue;
    const unprobed = r.summary.unprobed > 0 ? `, ${r.summary.unprobed} not probed in time (the agent was too busy)` : '';
    log(r.summary.unprobed > 0 ? 'warn' : 'info', `range ${r.rangeId}: ${r.summary.answered} answered, ${r.summary.slow} slow, ${r.summary.refused} refused, ${r.summary.timedOut} timed out, ${r.summary.unreachable} unreachable${unprobed}`);
  }
  return { runId, startedAt, finishedAt, readings, ranges };
}
