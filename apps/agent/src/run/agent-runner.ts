import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, platform, release } from 'node:os';
import { join } from 'node:path';
import type { AgentConfig, AgentStatus } from '@pagewatch/contracts/agent-api';
import { agentConfigSchema } from '@pagewatch/contracts/agent-api';
import { parseModelsPack } from '@pagewatch/contracts/models-pack';
import { type ConfigSealer, keyFileSealer, readConfigFile, writeConfigFile } from './config-file.ts';
import type { DiscoveryOptions } from '../discovery/discover.ts';
import { loadDefaultModelsPack } from '@pagewatch/snmp/models-pack';
import { ProfileRegistry } from '../profiles/profile-registry.ts';
import { collect } from './collect.ts';
import type { AgentLog, RunSummary } from './collect.ts';
import { deliver } from './deliver.ts';
import { readQueues } from '../queues/read-queues.ts';
import type { PollOptions } from './poll-device.ts';
import type { RttLimits } from '../snmp/rtt-estimator.ts';
import { loadRttTable, saveRttTable } from './rtt-store.ts';
import { Spool } from './spool.ts';
import { TransportError } from './transport.ts';
import { AGENT_VERSION } from '../version.ts';
import { startDeviceWebRelay } from '../web/device-web-relay.ts';
import type { AgentInfo, AgentTransport } from './transport.ts';

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

const isUpdateRequired = (error: unknown): error is TransportError => error instanceof TransportError && error.kind === 'updateRequired';
/** The server's own words (in its language) say which versions it takes; the line says what to do. */
const updateRequiredLine = (message: string) => `UPDATE REQUIRED: the server no longer takes this agent's version; install the agent of the server's release. Readings wait in the spool; asking again every few minutes. (${message})`;

export function createAgentRunner(options: AgentRunnerOptions): AgentRunner {
  const { transport } = options;
  const log: AgentLog = options.log ?? (() => undefined);
  const info: AgentInfo = {
    version: options.info?.version ?? AGENT_VERSION,
    hostname: options.info?.hostname ?? hostname(),
    platform: options.info?.platform ?? `${platform()} ${release()}`.slice(0, 100),
  };
  const retryMin = options.retryMinMs ?? 1000;
  const retryMax = options.retryMaxMs ?? 60_000;
  const configPath = join(options.spoolDir, 'config.json');
  const packPath = join(options.spoolDir, 'models-pack.json');
  const rttPath = join(options.spoolDir, 'answer-times.json');

  let status: AgentStatus = 'IDLE';
  let config: AgentConfig | null = null;
  let registered = false;
  let registry = new ProfileRegistry(loadDefaultModelsPack());
  let seenConfigVersion: number | undefined;
  let stopping = false;
  let loop: Promise<void> | null = null;
  let currentRun: Promise<RunSummary> | null = null;
  const abort = new AbortController();
  const wakers = new Set<() => void>();

  /** A sleep that `wake()` (new segment, stop) cuts short. */
  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        wakers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      wakers.add(done);
    });
  const wake = (): void => {
    for (const w of [...wakers]) w();
  };

  const spool = new Spool(options.spoolDir, { sealAfterMs: options.sealAfterMs, onSealed: wake });
  // Each device's answer times, learned run after run and kept on disk (timeouts, slow and
  // unreachable devices): a restart must not turn a printer that went silent into an empty address.
  const rtt = loadRttTable(rttPath, log, options.answerTimes);

  // A pack left by an earlier run is used until the server says otherwise.
  if (existsSync(packPath)) {
    const cached = parseModelsPack(readFileSync(packPath, 'utf8'));
    if (cached.ok) registry = new ProfileRegistry(cached.pack);
  }
  const sealer = options.configSealer ?? keyFileSealer(options.spoolDir);
  const kept = readConfigFile(configPath, sealer);
  const cached = kept ? agentConfigSchema.safeParse(kept.config) : null;
  if (cached?.success) {
    config = cached.data;
    // An older release kept it in clear: sealed from now on.
    if (kept!.clear) writeConfigFile(configPath, config, sealer);
  }

  // ------------------------------------------------------------ status

  let statusToSend: { status: AgentStatus; message?: string } | null = null;
  let statusSending: Promise<void> | null = null;
  const setStatus = (next: AgentStatus, message?: string): void => {
    if (next !== status) log(next === 'ERROR' ? 'error' : 'info', `status ${next}${message ? `: ${message}` : ''}`);
    status = next;
    options.onStatus?.(next, message);
    statusToSend = { status: next, message };
    void pushStatus();
  };
  /** Best effort: the latest status goes out when the server can be reached. */
  function pushStatus(): Promise<void> {
    if (statusSending) return statusSending;
    if (!statusToSend) return Promise.resolve();
    statusSending = (async () => {
      await Promise.resolve(); // so the assignment above happens before the finally below
      try {
        while (statusToSend) {
          const s: { status: AgentStatus; message?: string } = statusToSend;
          await transport.status(s.status, s.message, spool.pendingCount());
          if (statusToSend === s) statusToSend = null;
        }
      } catch {
        // kept in statusToSend; the sender retries after its next success
      } finally {
        statusSending = null;
      }
    })();
    return statusSending;
  }

  // ------------------------------------------------------------ config and models pack

  async function applyConfig(next: AgentConfig): Promise<void> {
    const versionChanged = next.configVersion !== undefined && next.configVersion !== seenConfigVersion;
    const packChanged = next.modelsVersion !== null && next.modelsVersion !== registry.version;
    config = next;
    seenConfigVersion = next.configVersion;
    writeConfigFile(configPath, next, sealer);
    if (packChanged || next.updateRequested || versionChanged) {
      try {
        const parsed = parseModelsPack(await transport.modelsPack());
        if (parsed.ok) {
          registry = new ProfileRegistry(parsed.pack);
          writeFileSync(packPath, JSON.stringify(parsed.pack));
          log('info', `models pack version ${parsed.pack.version}`);
        } else {
          log('warn', `the server's models pack is invalid, keeping version ${registry.version}: ${parsed.problems[0]}`);
        }
      } catch (error) {
        log('warn', `cannot fetch the models pack: ${(error as Error).message}`);
      }
    }
  }

  /** The server answered "update required" (426) to the last config read. */
  let needsUpdate = false;
  /** Registers (or re-reads the config); falls back to the last config kept on disk. */
  async function refreshConfig(): Promise<boolean> {
    try {
      const next = registered ? await transport.config() : await transport.register(info);
      await applyConfig(next);
      registered = true;
      needsUpdate = false;
      options.onConfig?.(next);
      return true;
    } catch (error) {
      const message = (error as Error).message;
      if (isUpdateRequired(error)) {
        needsUpdate = true;
        setStatus('ERROR', message);
        log('error', updateRequiredLine(message));
        return false;
      }
      if (error instanceof TransportError && error.kind === 'unauthorized') setStatus('ERROR', message);
      log('warn', config ? `${message}; using the last config` : message);
      return false;
    }
  }

  // ------------------------------------------------------------ one run

  async function doRun(): Promise<RunSummary> {
    if (!config) throw new Error('no config from the server yet');
    setStatus('RUNNING');
    const { concurrency, discovery, poll } = options;
    const summary = await collect(config, { registry, spool, signal: abort.signal, log, concurrency, discovery, poll, rtt });
    try {
      saveRttTable(rtt, rttPath);
    } catch (error) {
      log('warn', `cannot keep the devices' answer times in ${rttPath}: ${(error as Error).message}`);
    }
    await readQueues(config, { spool, log, signal: abort.signal });
    return summary;
  }

  async function runOnce(): Promise<RunSummary> {
    if (!registered || !config) await refreshConfig();
    if (!config) {
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

  // ------------------------------------------------------------ sender

  let senderStop = false;
  /** Set by stop: what is sealed is tried once more, with no retries, then the sender ends. */
  let lastPass = false;
  async function sendLoop(): Promise<void> {
    let backoff = retryMin;
    while (!senderStop) {
      const segment = spool.sealed()[0];
      if (!segment) {
        if (lastPass) break;
        await sleep(1000);
        continue;
      }
      let failed = false;
      for (const message of spool.messages(segment)) {
        try {
          await deliver(transport, spool, log, segment, message);
        } catch (error) {
          if (error instanceof TransportError && error.kind === 'rejected') {
            // Retrying cannot make the server take it: set it aside and carry on.
            log('warn', `the server refused a message (kept in ${spool.dir}/rejected): ${error.message}`);
            spool.reject(segment, message, error.message);
          } else if (isUpdateRequired(error)) {
            // Kept in the spool for the updated agent; asked again at the slowest pace.
            setStatus('ERROR', error.message);
            log('error', updateRequiredLine(error.message));
            backoff = retryMax;
            failed = true;
            break;
          } else {
            if (error instanceof TransportError && error.kind === 'unauthorized') setStatus('ERROR', error.message);
            log('warn', `cannot deliver (${spool.pendingCount()} records wait, next try in ${Math.round(backoff / 1000)} s): ${(error as Error).message}`);
            failed = true;
            break;
          }
        }
        spool.ack(segment, message.firstLine + message.lines);
        backoff = retryMin;
      }
      if (failed) {
        if (senderStop || lastPass) break;
        await sleep(backoff);
        backoff = Math.min(backoff * 2, retryMax);
        continue;
      }
      spool.remove(segment);
      if (status === 'ERROR' && !currentRun && !stopping) setStatus('IDLE');
      void pushStatus();
    }
  }
  let senderDone = false;
  const sender = sendLoop().finally(() => {
    senderDone = true;
  });

  // ------------------------------------------------------------ the loop

  async function mainLoop(): Promise<void> {
    setStatus('STARTING');
    let backoff = retryMin;
    while (!stopping && !(await refreshConfig()) && !config) {
      if (!needsUpdate) setStatus('ERROR', 'cannot reach the server to register; retrying');
      await sleep(needsUpdate ? retryMax : backoff);
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
      const period = options.periodMs ?? (config?.periodicityMinutes ?? 15) * 60_000;
      // Wait for the next period, re-reading the config now and then (an update may be asked
      // for); changed ranges are scanned at once rather than a period later.
      const scannedRanges = JSON.stringify(config?.ranges ?? []);
      // With nothing to scan yet (a new install), look for ranges more often.
      const configPoll = config?.ranges.length ? (options.configPollMs ?? 60_000) : Math.min(options.configPollMs ?? 60_000, 10_000);
      while (!stopping && Date.now() - started < period) {
        await sleep(Math.min(configPoll, period - (Date.now() - started)));
        if (!stopping && Date.now() - started < period) await refreshConfig();
        if (JSON.stringify(config?.ranges ?? []) !== scannedRanges) break;
      }
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
      if (Date.now() >= deadline || senderDone) return spool.sealed().length === 0;
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
      lastPass = true;
      const drained = await flush(options.stopFlushMs ?? 10_000);
      if (!drained) log('warn', `${spool.pendingCount()} records stay in the spool for the next start`);
      senderStop = true;
      wake();
      await sender;
      await relay?.stop();
      setStatus('STOPPED');
      await Promise.race([pushStatus(), new Promise((resolve) => setTimeout(resolve, 2000))]);
      spool.close();
    })();
    return stopped;
  }

  return {
    get status() {
      return status;
    },
    get config() {
      return config;
    },
    start() {
      loop ??= mainLoop();
      const { webRequests, webAnswer } = transport;
      if (!relay && options.deviceWeb !== false && webRequests && webAnswer) {
        relay = startDeviceWebRelay({
          transport: { webRequests: webRequests.bind(transport), webAnswer: webAnswer.bind(transport) },
          log, allowLoopback: options.deviceWeb ? options.deviceWeb.allowLoopback : false, retryMinMs: retryMin,
        });
      }
    },
    runOnce,
    flush,
    stop,
    pending: () => spool.pendingCount(),
  };
}
