import { readFileSync } from 'node:fs';
import { readServiceConfig, writeLastRun } from '../service/service-layout.ts';
import { commandArgs } from '../cli-args.ts';
import type { CliCommand } from '../cli-command.ts';
import { createAgentRunner } from './agent-runner.ts';
import type { AgentLog } from './collect.ts';
import { createHttpTransport } from './transport.ts';
import { deviceWebLoopbackAllowed } from '../web/device-web-relay.ts';
import { isSea } from 'node:sea';
import { AGENT_VERSION } from '../version.ts';
import { DEFAULT_SPOOL_DIR, execInPlace } from '../update/start-guard.ts';
import { createUpdater } from '../update/updater.ts';
import type { Updater } from '../update/updater.ts';

const HELP = `usage: run --server <url> --token <token> [--spool-dir DIR] [--once]
       run --config FILE   (an installed service: server, token file and spool from FILE)
           [--concurrency 64] [--timeout 2000] [--period-seconds N]
Registers with the server, takes its network ranges, periodicity and models pack, and polls
every printer each period. Readings wait in the spool (default ./agent-spool) until the server
acknowledges them. The token may also come from PAGEWATCH_AGENT_TOKEN.
--once: one run, deliver the spool, exit (1 when readings are left in the spool).
`;

const RUN_OPTIONS = {
  server: { type: 'string' }, token: { type: 'string' }, 'spool-dir': { type: 'string' }, config: { type: 'string' },
  once: { type: 'boolean', default: false }, concurrency: { type: 'string' }, timeout: { type: 'string' },
  'period-seconds': { type: 'string' },
} as const;

const logLine: AgentLog = (level, message) => {
  process.stderr.write(`${new Date().toISOString()} ${level.toUpperCase().padEnd(5)} ${message}\n`);
};

export const runCommand: CliCommand = {
  name: 'run',
  summary: 'run the agent: discover, poll and send readings to the server',
  async run(args) {
    const values = commandArgs({ name: 'run', help: HELP }, args, RUN_OPTIONS, (line) => line.values);
    if (typeof values === 'number') return values;
    if (values.config) {
      try {
        const file = readServiceConfig(values.config);
        values.server ??= file.server;
        values['spool-dir'] ??= file.spoolDir;
        values.token ??= readFileSync(file.tokenFile, 'utf8').trim();
      } catch (error) {
        process.stderr.write(`run: cannot read ${values.config}: ${(error as Error).message.split('\n')[0]}\n`);
        return 2;
      }
    }
    const token = values.token ?? process.env.PAGEWATCH_AGENT_TOKEN;
    if (!values.server || !token) {
      process.stderr.write(`run: --server and --token are required\n${HELP}`);
      return 2;
    }
    const num = (v: string | undefined, name: string): number | undefined => {
      if (v === undefined) return undefined;
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer`);
      return n;
    };
    let concurrency: number | undefined, timeout: number | undefined, period: number | undefined;
    try {
      concurrency = num(values.concurrency, 'concurrency');
      timeout = num(values.timeout, 'timeout');
      period = num(values['period-seconds'], 'period-seconds');
    } catch (error) {
      process.stderr.write(`run: ${(error as Error).message}\n`);
      return 2;
    }
    const transport = createHttpTransport({ serverUrl: values.server, token });
    const spoolDir = values['spool-dir'] ?? DEFAULT_SPOOL_DIR;
    let updater: Updater | null = null;
    let lastStatus = '';
    const runner = createAgentRunner({
      transport,
      spoolDir,
      // The device web page relay; PAGEWATCH_AGENT_DEVICE_WEB_LOOPBACK=1 lets tests reach 127.0.x.y (refused in production).
      deviceWeb: { allowLoopback: deviceWebLoopbackAllowed(process.env, 'PAGEWATCH_AGENT_DEVICE_WEB_LOOPBACK') },
      onStatus: (next) => {
        // What `status` shows as the last successful run.
        if (next === 'IDLE' && lastStatus === 'RUNNING') {
          try {
            writeLastRun(spoolDir, { finishedAt: new Date().toISOString(), version: AGENT_VERSION });
          } catch {
            // the spool folder is the runner's to report on
          }
        }
        lastStatus = next;
      },
      onConfig: (config) => {
        updater?.checkedIn();
        if (config.update) updater?.offered(config.update);
      },
      concurrency,
      poll: timeout ? { timeoutMs: timeout } : undefined,
      periodMs: period ? period * 1000 : undefined,
      log: logLine,
    });
    // Only a single-file agent replaces itself; one run from source is updated with its sources.
    if (isSea() && !values.once) {
      updater = createUpdater({
        executable: process.execPath, stateDir: spoolDir, version: AGENT_VERSION, log: logLine,
        // How long a new version has to reach the server before the previous file is put back (tests shorten it).
        healthMs: Number(process.env.PAGEWATCH_AGENT_UPDATE_HEALTH_SECONDS || 60) * 1000,
        download: (offer, dest) => transport.downloadUpdate(offer.platform, dest),
        report: (version, error) => void transport.updateRefused(version, error).catch(() => undefined),
        restart: async () => {
          updater?.close();
          await runner.stop();
          execInPlace();
        },
      });
    }
    let signalled = false;
    const onSignal = (): void => {
      if (signalled) process.exit(130); // a second Ctrl-C: leave now, the spool keeps the rest
      signalled = true;
      void runner.stop();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    if (values.once) {
      try {
        const summary = await runner.runOnce();
        const delivered = await runner.flush(60_000);
        await runner.stop();
        logLine('info', `${summary.readings} readings; ${delivered ? 'all delivered' : `${runner.pending()} records left in the spool`}`);
        return delivered ? 0 : 1;
      } catch (error) {
        logLine('error', (error as Error).message);
        await runner.stop();
        return 1;
      }
    }
    runner.start();
    await new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (runner.status === 'STOPPED') {
          clearInterval(check);
          resolve();
        }
      }, 200);
    });
    return 0;
  },
};
