/**
 * Polling benchmark, three scenarios (`BENCH_SCENARIOS`, default all, comma-separated):
 *
 *   loopback  1,000 simulated printers answering at once; discovery and a poll by the agent's
 *             code, next to net-snmp's snmpbulkwalk/snmpget on a sample. Target: < 20 s.
 *   lossy     10,000 printers, median answer 40 ms, 1% answering after 1 s, 2% of requests lost,
 *             3% never answering: every reachable printer discovered and read completely, the
 *             poll in under 60 s, none lost; snmpbulkwalk on a sample over the same network.
 *   slash16   discovery of a /16 (65,536 addresses) holding 1,000 printers on the same network,
 *             at the default packet cap: under 30 s.
 *
 * The simulator runs in a child process. `BENCH_PRINTERS`, `BENCH_SAMPLE`, `BENCH_CONCURRENCY`
 * size the loopback scenario; `BENCH_LOSSY_PRINTERS`, `BENCH_LOSSY_CONCURRENCY` the lossy one.
 * `BENCH_HOG=1` keeps every core busy while each scenario measures (`stress-ng --cpu N`, else a
 * busy loop a core): a starved agent must still find and read 99% of the printers (issue 53).
 */
import { execFile } from 'node:child_process';
import { cpus } from 'node:os';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { discoverRange } from '../apps/agent/src/discovery/discover.ts';
import type { DiscoveredDevice } from '../apps/agent/src/discovery/discover.ts';
import { DEFAULT_PACKETS_PER_SECOND } from '../apps/agent/src/discovery/snmp-sweep.ts';
import { STOPPED_ANSWERING, planRequests } from '../apps/agent/src/run/read-device.ts';
import { createDefaultRegistry } from '../apps/agent/src/profiles/models-pack.loader.ts';
import { mapLimit, pollDevice, pollInTurn } from '../apps/agent/src/run/poll-device.ts';
import { RttTable } from '../apps/agent/src/snmp/rtt-estimator.ts';
import { startHog } from './lib/hog.ts';
import type { Hog } from './lib/hog.ts';
import { startSimulator } from './lib/sim-child.ts';

const run = promisify(execFile);
const SCENARIOS = (process.env.BENCH_SCENARIOS ?? 'loopback,lossy,slash16').split(',');
const COUNT = Number(process.env.BENCH_PRINTERS ?? 1000);
const SAMPLE = Math.min(COUNT, Number(process.env.BENCH_SAMPLE ?? 100));
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);
const LOSSY_COUNT = Number(process.env.BENCH_LOSSY_PRINTERS ?? 10_000);
const LOSSY_CONCURRENCY = Number(process.env.BENCH_LOSSY_CONCURRENCY ?? 1024);
const HOG = process.env.BENCH_HOG === '1';
const PORT = 20_000 + Math.floor(Math.random() * 40_000);
const snmp = { version: '2c' as const, community: 'public' };
const registry = createDefaultRegistry();
/** The network: median 40 ms, 1% after 1 s, 2% loss, 3% never answering. */
const LOSSY_NETWORK = ['--latency', '40', '--slow', '0.01', '--slow-ms', '1000', '--loss', '0.02', '--silent', '0.03'];

const fmt = (n: number, digits = 1): string => n.toFixed(digits);
const say = (line: string): void => void process.stdout.write(`${line}\n`);
const met = (ok: boolean): string => (ok ? 'met' : 'NOT met');
const load = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const seconds = (since: number): number => (performance.now() - since) / 1000;
const pctOf = (n: number, of: number): string => `${fmt((100 * n) / of, 2)}%`;

/** The CPU hog of `BENCH_HOG=1`, started once the simulator is up (binding it is not measured). */
function hogIfAsked(): Hog | null {
  if (!HOG) return null;
  const hog = startHog();
  say(`  CPU hog: ${hog.what}`);
  return hog;
}

/** net-snmp's tools on one device: one snmpbulkwalk per column the agent walks, snmpget for the scalars. */
async function netSnmpRead(device: DiscoveredDevice, wait: string[]): Promise<number> {
  const plan = planRequests(registry.match(device.sysObjectID, device.sysDescr).profile);
  const common = ['-v2c', '-c', 'public', '-On', ...wait, `${device.ip}:${PORT}`];
  let lines = 0;
  for (const root of plan.walks) {
    const { stdout } = await run('snmpbulkwalk', ['-Cr20', ...common, root]).catch((e: { stdout?: string }) => ({ stdout: e.stdout ?? '' }));
    lines += stdout.split('\n').filter(Boolean).length;
  }
  for (let i = 0; i < plan.gets.length; i += 10) {
    const { stdout } = await run('snmpget', [...common, ...plan.gets.slice(i, i + 10)]).catch((e: { stdout?: string }) => ({ stdout: e.stdout ?? '' }));
    lines += stdout.split('\n').filter(Boolean).length;
  }
  return lines;
}

/** snmpbulkwalk/snmpget on a sample; devices per second. */
async function toolsOn(sample: DiscoveredDevice[], wait: string[]): Promise<number> {
  const tools = Math.max(2, cpus().length * 4);
  const t = performance.now();
  await mapLimit(sample, tools, (d) => netSnmpRead(d, wait));
  const sec = seconds(t);
  say(`  net-snmp snmpbulkwalk/snmpget (${wait.join(' ')}), same OIDs, ${tools} at once: ${sample.length} printers in ${fmt(sec, 2)} s = ${fmt(sample.length / sec)} devices/s`);
  return sample.length / sec;
}

/** Polls every device as the agent's run does; counts complete, incomplete (went silent part-way) and unread readings. */
async function pollAll(devices: DiscoveredDevice[], concurrency: number, options: Parameters<typeof pollDevice>[5]) {
  let complete = 0;
  let incomplete = 0;
  let unread = 0;
  let supplies = 0;
  let secondTries = 0;
  const t = performance.now();
  await pollInTurn(devices, concurrency, options?.rtt, async (device, lastTry) => {
    if (lastTry) secondTries++;
    const polled = await pollDevice(device, null, snmp, registry, null, options);
    const silent = !polled || polled.reading.problems.includes(STOPPED_ANSWERING);
    if (silent && !lastTry) return false;
    if (!polled) unread++;
    else if (polled.reading.problems.length > 0) incomplete++;
    else {
      complete++;
      supplies += polled.reading.supplies.length;
    }
    return true;
  });
  return { sec: seconds(t), complete, incomplete, unread, supplies, secondTries };
}

async function loopback(): Promise<void> {
  const sim = await startSimulator(['--count', String(COUNT), '--port', String(PORT), '--base', '127.0.100.1', '--seed', '1']);
  const hog = hogIfAsked();
  try {
    say(`loopback: ${COUNT} simulated printers ${sim.first}–${sim.last}:${PORT}, answering at once, ${CONCURRENCY} devices at once; load average ${load()}`);
    let t = performance.now();
    const found = await discoverRange({ type: 'RANGE', address: null, mask: null, from: sim.first, to: sim.last, port: PORT, snmp }, registry, { timeoutMs: 2000, retries: 1 });
    if (found.error) throw new Error(found.error);
    say(`  discovery (${found.scanned} addresses, one socket): ${found.devices.length} printers in ${fmt(seconds(t), 2)} s`);
    const poll = await pollAll(found.devices, CONCURRENCY, { timeoutMs: 3000, retries: 1 });
    const ours = found.devices.length / poll.sec;
    say(`  agent poll: ${found.devices.length} printers in ${fmt(poll.sec, 2)} s = ${fmt(ours)} devices/s (${poll.incomplete + poll.unread} incomplete, ${poll.supplies} supplies read)`);
    t = performance.now();
    const theirs = await toolsOn(found.devices.slice(0, SAMPLE), ['-t', '2', '-r', '1']);
    say(`  ratio agent / snmpbulkwalk: ${fmt(ours / theirs, 1)}x; ${COUNT} printers polled in ${fmt(poll.sec, 1)} s (target < 20 s): ${met(poll.sec < 20)}`);
  } finally {
    hog?.stop();
    sim.stop();
  }
}

async function lossy(): Promise<void> {
  const simStart = performance.now();
  let hog: Hog | null = null;
  const sim = await startSimulator(['--count', String(LOSSY_COUNT), '--port', String(PORT), '--base', '127.2.0.1', '--seed', '1', ...LOSSY_NETWORK]);
  try {
    const reachable = LOSSY_COUNT - (sim.network.silent ?? 0);
    say(`lossy: ${LOSSY_COUNT} printers ${sim.first}–${sim.last}:${PORT} (bound in ${fmt(seconds(simStart))} s): ${JSON.stringify(sim.network)}; ` +
      `median 40 ms, 2% loss; ${LOSSY_CONCURRENCY} devices at once; load average ${load()}`);
    hog = hogIfAsked();
    const rtt = new RttTable();
    // A fresh agent first, then its next run, which knows the printers' answer times.
    let found!: Awaited<ReturnType<typeof discoverRange>>;
    let discoverySec = 0;
    for (const pass of ['first run (nothing known)', 'next run']) {
      const t = performance.now();
      found = await discoverRange({ type: 'RANGE', address: null, mask: null, from: sim.first, to: sim.last, port: PORT, snmp }, registry, { rtt });
      if (found.error) throw new Error(found.error);
      discoverySec = seconds(t);
      say(`  discovery, ${pass} (${found.scanned} addresses, ${DEFAULT_PACKETS_PER_SECOND} packets/s): ${found.devices.length} of ${reachable} reachable printers (${pctOf(found.devices.length, reachable)}) ` +
        `in ${fmt(discoverySec, 2)} s, ${found.unprobed.length} addresses not probed in time; load average ${load()}`);
    }
    const poll = await pollAll(found.devices, LOSSY_CONCURRENCY, { rtt });
    const slow = found.devices.filter((d) => rtt.get(d.ip, d.port).slow).length;
    const lost = reachable - poll.complete;
    say(`  agent poll: ${found.devices.length} printers in ${fmt(poll.sec, 2)} s = ${fmt(found.devices.length / poll.sec)} devices/s: ${poll.complete} complete, ${poll.incomplete} incomplete, ${poll.unread} unread, ${slow} slow, ${poll.secondTries} asked again after the rest; ${poll.supplies} supplies read`);
    say(`  every reachable printer polled in ${fmt(poll.sec, 1)} s (target < 60 s): ${met(poll.sec < 60 && lost === 0)}; discovery and poll together ${fmt(discoverySec + poll.sec, 1)} s; ` +
      `reachable printers not read completely: ${lost} (target 0); load average ${load()}`);
    say(`  found and read completely: ${poll.complete} of ${reachable} (${pctOf(poll.complete, reachable)}; target 99% with a CPU hog): ${met(poll.complete >= 0.99 * reachable)}${HOG ? ' (hog running)' : ''}`);
    const sample = found.devices.slice(0, SAMPLE);
    const ours = await pollAll(sample, LOSSY_CONCURRENCY, { rtt });
    say(`  agent on the same sample of ${sample.length}: ${fmt(ours.sec, 2)} s = ${fmt(sample.length / ours.sec)} devices/s`);
    const theirs = await toolsOn(sample, ['-t', '1', '-r', '3']);
    say(`  ratio agent / snmpbulkwalk on the sample: ${fmt(sample.length / ours.sec / theirs, 1)}x`);
  } finally {
    hog?.stop();
    sim.stop();
  }
}

async function slash16(): Promise<void> {
  let hog: Hog | null = null;
  const sim = await startSimulator(['--count', '1000', '--stride', '65', '--port', String(PORT), '--base', '127.3.0.1', '--seed', '2', ...LOSSY_NETWORK]);
  try {
    const reachable = 1000 - (sim.network.silent ?? 0);
    say(`slash16: 127.3.0.0/16 with 1,000 printers ${sim.first}–${sim.last} (every 65th address), same network; load average ${load()}`);
    hog = hogIfAsked();
    const t = performance.now();
    const found = await discoverRange({ type: 'NETMASK', address: '127.3.0.0', mask: '/16', from: null, to: null, port: PORT, snmp }, registry, {});
    if (found.error) throw new Error(found.error);
    const sec = seconds(t);
    say(`  discovery at the default cap of ${DEFAULT_PACKETS_PER_SECOND} packets/s: ${found.scanned} addresses, ${found.devices.length} of ${reachable} reachable printers in ${fmt(sec, 2)} s ` +
      `(target < 30 s): ${met(sec < 30)}; missed ${reachable - found.devices.length}, ${found.unprobed.length} addresses not probed in time; load average ${load()}`);
  } finally {
    hog?.stop();
    sim.stop();
  }
}

const scenarios: Record<string, () => Promise<void>> = { loopback, lossy, slash16 };
say(`poll benchmark on ${cpus().length} cores, port ${PORT}`);
for (const name of SCENARIOS) {
  const scenario = scenarios[name];
  if (!scenario) throw new Error(`unknown scenario ${name}`);
  await scenario();
}
say(`load average at the end ${load()}`);
