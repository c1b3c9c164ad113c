import { hostname, platform, release } from 'node:os';
import { join } from 'node:path';
import type { AgentConfig, AgentStatus } from '@pagewatch/contracts/agent-api';
import { type ConfigSealer, keyFileSealer } from './config-file.ts';
import type { DiscoveryOptions } from '../discovery/discover.ts';
import { collect } from './collect.ts';
import type { AgentLog, RunSummary } from './collect.ts';
import { readQueues } from '../queues/read-queues.ts';
import type { PollOptions } from './poll-device.ts';
import type { RttLimits } from '../snmp/rtt-estimator.ts';
import { loadRttTable, saveRttTable } from './rtt-store.ts';
import { Spool } from './spool.ts';
import { AGENT_VERSION } from '../version.ts';
import { startDeviceWebRelay } from '../web/device-web-relay.ts';
import type { AgentInfo, AgentTransport } from './transport.ts';
import { createStatusReporter } from './agent-status.ts';
import { createConfigKeeper, type ConfigKeeper } from './config-keeper.ts';
import { startSpoolSender } from './spool-sender.ts';
import { createWakeableSleep } from './wake-sleep.ts';

export type AgentRunnerOptions = {
  transport: AgentTransport;
  /**
   * Seals the last config kept in the spool (it holds communities and queue passwords): by
   * default a key of the spool's own (`config.key`, mode 600); the built-in agent gives the
   * server's secret box.
   */
  configSealer?: ConfigSealer;
  /** Where readings wait for the server; also keeps the last config and models pack. */
  spoolDir: string;
  info?: Partial<AgentInfo>;
  /** Devices polled at once (default 64). */
  concurrency?: number;
  discovery?: DiscoveryOptions;
  poll?: PollOptions;
  /** Bounds of the per-device waits and what counts as slow (tests, on a network faster than a real one). */
  answerTimes?: RttLimits;
  /** Overrides the server's periodicity (tests, demos). */
  periodMs?: number;
  /** How often the config is re-read between runs (default 60 s). */
  configPollMs?: number;
  /** Backoff while the server cannot be reached (default 1 s doubling to 60 s). */
  retryMinMs?: number;
  retryMaxMs?: number;
  /** How long `stop` waits for the spool to drain (default 10 s). */
  stopFlushMs?: number;
  /** Seal a spool segment this long after its first record (default 2 s). */
  sealAfterMs?: number;
  log?: AgentLog;
  onStatus?: (status: AgentStatus, message?: string) => void;
  /** Each config the server answered with (a check-in): the self-update watches these. */
  onConfig?: (config: AgentConfig) => void;
  /** The device web page relay (issue 55), on whenever the transport carries it; `allowLoopback` for tests only. */
  deviceWeb?: { allowLoopback?: boolean } | false;
};

export type AgentRunner = {
  readonly status: AgentStatus;
  readonly config: AgentConfig | null;
  /** Starts the loop (register, run every period, send); returns at once. */
  start(): void;
  /** Registers if needed and does one run; the readings are spooled (the sender delivers them). */
  runOnce(): Promise<RunSummary>;
  /** Waits until everything spooled is delivered; false when `timeoutMs` passed first. */
  flush(timeoutMs?: number): Promise<boolean>;
  /** STOPPING, finish or cut the current run, drain the spool (bounded), STOPPED. */
  stop(): Promise<void>;
  /** Records on disk not yet acknowledged by the server. */
  pending(): number;
};

const agentInfo = (given: Partial<AgentInfo> | undefined): AgentInfo => ({
  version: given?.version ?? AGENT_VERSION,
  hostname: given?.hostname ?? hostname(),
  platform: given?.platform ?? `${platform()} ${release()}`.slice(0, 100),
});

/** The device web page relay (issue 55), when it is on and the transport carries it. */
function startRelay({ transport, deviceWeb }: AgentRunnerOptions, log: AgentLog, retryMinMs: number): { stop(): Promise<void> } | null {
  const { webRequests, webAnswer, webStream } = transport;
  if (deviceWeb === false || !webRequests || !webAnswer) return null;
  return startDeviceWebRelay({
    transport: { webRequests: webRequests.bind(transport), webAnswer: webAnswer.bind(transport), ...(webStream ? { webStream: webStream.bind(transport) } : {}) },
    log, allowLoopback: deviceWeb ? deviceWeb.allowLoopback : false, retryMinMs,
  });
}

/**
 * Waits for the next period from `started`, re-reading the config now and then (an update may
 * be asked for); changed ranges are scanned at once rather than a period later.
 */
async function waitForNextPeriod(started: number, keeper: ConfigKeeper, options: AgentRunnerOptions, sleep: (ms: number) => Promise<void>, stopping: () => boolean) {
  const period = options.periodMs ?? (keeper.config?.periodicityMinutes ?? 15) * 60_000;
  const scannedRanges = JSON.stringify(keeper.config?.ranges ?? []);
  // With nothing to scan yet (a new install), look for ranges more often.
  const configPoll = keeper.config?.ranges.length ? (options.configPollMs ?? 60_000) : Math.min(options.configPollMs ?? 60_000, 10_000);
  while (!stopping() && Date.now() - started < period) {
    await sleep(Math.min(configPoll, period - (Date.now() - started)));
    if (!stopping() && Date.now() - started < period) await keeper.refresh();
    if (JSON.stringify(keeper.config?.ranges ?? []) !== scannedRanges) break;
  }
}

export function createAgentRunner(options: AgentRunnerOptions): AgentRunner {
  const { transport } = options;
  const log: AgentLog = options.log ?? (() => undefined);
  const info = agentInfo(options.info);
  const retryMin = options.retryMinMs ?? 1000;
  const retryMax = options.retryMaxMs ?? 60_000;
  const rttPath = join(options.spoolDir, 'answer-times.json');

  let stopping = false;
  let loop: Promise<void> | null = null;
  let currentRun: Promise<RunSummary> | null = null;
  const abort = new AbortController();
  const { sleep, wake } = createWakeableSleep();

  const spool = new Spool(options.spoolDir, { sealAfterMs: options.sealAfterMs, onSealed: wake });
  // Each device's answer times, learned run after run and kept on disk (timeouts, slow and
  // unreachable devices): a restart must not turn a printer that went silent into an empty address.
  const rtt = loadRttTable(rttPath, log, options.answerTimes);
  const status = createStatusReporter(transport, log, () => spool.pendingCount(), options.onStatus);
  const setStatus = status.set;
  const keeper = createConfigKeeper({
    transport, spoolDir: options.spoolDir, sealer: options.configSealer ?? keyFileSealer(options.spoolDir), info, log, setStatus, onConfig: options.onConfig,
  });
  const refreshConfig = keeper.refresh;

  // ------------------------------------------------------------ one run

  async function doRun(): Promise<RunSummary> {
    const config = keeper.config;
    if (!config) throw new Error('no config from the server yet');
    setStatus('RUNNING');
    const { concurrency, discovery, poll } = options;
    const summary = await collect(config, { registry: keeper.registry, spool, signal: abort.signal, log, concurrency, discovery, poll, rtt });
    try {
      saveRttTable(rtt, rttPath);
    } catch (error) {
      log('warn', `cannot keep the devices' answer times in ${rttPath}: ${(error as Error).message}`);
    }
    await readQueues(config, { spool, log, signal: abort.signal });
    return summary;
  }

  async function runOnce(): Promise<RunSummary> {
    if (!keeper.registered || !keeper.config) await refreshConfig();
    if (!keeper.config) {
      setStatus('ERROR', 'no config: the server cannot be reached and none is kept from before');
      throw new Error('no config from the server yet');
    }
    currentRun = doRun();
    try {
      const summary = await currentRun;
      const allFailed = summary.ranges.length > 0 && summary.ranges.every((r) => r.error !== null);
      if (!stopping) setStatus(allFailed ? 'ERROR' : 'IDLE', allFailed ? summary.ranges[0]!.error ?? undefined : undefined);
      return summary;
    } finally {
      currentRun = null;
    }
  }

  const sender = startSpoolSender({ transport, spool, log, status, sleep, retryMin, retryMax, idle: () => !currentRun && !stopping });

  // ------------------------------------------------------------ the loop

  async function mainLoop(): Promise<void> {
    setStatus('STARTING');
    let backoff = retryMin;
    while (!stopping && !(await refreshConfig()) && !keeper.config) {
      if (!keeper.needsUpdate) setStatus('ERROR', 'cannot reach the server to register; retrying');
      await sleep(keeper.needsUpdate ? retryMax : backoff);
      backoff = Math.min(backoff * 2, retryMax);
    }
    while (!stopping) {
      const started = Date.now();
      try {
        await runOnce();
      } catch (error) {
        log('error', `run failed: ${(error as Error).message}`);
        if (!stopping) setStatus('ERROR', (error as Error).message);
      }
      await waitForNextPeriod(started, keeper, options, sleep, () => stopping);
      if (!stopping) await refreshConfig();
    }
  }

  /**
   * Waits for the sender to deliver what is spooled. It wakes the sender once (the sealing
   * does): waking it on every check would cut each backoff short and send every 50 ms to a
   * failing server (issue 14: 1,212 requests in 70 s).
   */
  async function flush(timeoutMs = 30_000): Promise<boolean> {
    await spool.flushOpen();
    wake();
    const deadline = Date.now() + timeoutMs;
    while (spool.sealed().length > 0) {
      if (Date.now() >= deadline || sender.finished) return spool.sealed().length === 0;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return true;
  }

  let relay: { stop(): Promise<void> } | null = null;
  let stopped: Promise<void> | null = null;
  async function stop(): Promise<void> {
    stopped ??= (async () => {
      stopping = true;
      setStatus('STOPPING');
      abort.abort();
      wake();
      await currentRun?.catch(() => undefined);
      await loop?.catch(() => undefined);
      // One last try for what waits, without retries: a failing server gets one request, and
      // what it does not take stays in the spool for the next start.
      sender.lastPass();
      const drained = await flush(options.stopFlushMs ?? 10_000);
      if (!drained) log('warn', `${spool.pendingCount()} records stay in the spool for the next start`);
      sender.stop();
      wake();
      await sender.done;
      await relay?.stop();
      setStatus('STOPPED');
      await Promise.race([status.push(), new Promise((resolve) => setTimeout(resolve, 2000))]);
      spool.close();
    })();
    return stopped;
  }

  return {
    get status() {
      return status.status;
    },
    get config() {
      return keeper.config;
    },
    start() {
      loop ??= mainLoop();
      relay ??= startRelay(options, log, retryMin);
    },
    runOnce,
    flush,
    stop,
    pending: () => spool.pendingCount(),
  };
}
