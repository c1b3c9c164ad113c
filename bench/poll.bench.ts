/**
 * Polling benchmark: 1,000 simulated printers (in a child process, so they have a core of their
 * own) discovered and polled by the agent's code, against net-snmp's command-line tools reading
 * the same OIDs (snmpbulkwalk per walked column, snmpget for the scalars) on a sample.
 *
 *   npm run bench:poll                        (BENCH_PRINTERS=1000 BENCH_SAMPLE=100 BENCH_CONCURRENCY=64)
 */
import { spawn, execFile } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { cpus } from 'node:os';
import { promisify } from 'node:util';
import { discoverRange } from '../apps/agent/src/discovery/discover.ts';
import type { DiscoveredDevice } from '../apps/agent/src/discovery/discover.ts';
import { planRequests } from '../apps/agent/src/probe/read-device.ts';
import { createDefaultRegistry } from '../apps/agent/src/profiles/models-pack.loader.ts';
import { mapLimit, pollDevice } from '../apps/agent/src/run/poll-device.ts';

const run = promisify(execFile);
const COUNT = Number(process.env.BENCH_PRINTERS ?? 1000);
const SAMPLE = Math.min(COUNT, Number(process.env.BENCH_SAMPLE ?? 100));
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);
const PORT = 20_000 + Math.floor(Math.random() * 40_000);
const BASE = '127.0.100.1';
const snmp = { version: '2c' as const, community: 'public' };

async function startSimulator(): Promise<{ child: ChildProcess; first: string; last: string }> {
  const child = spawn(process.execPath, [
    'tools/printer-sim/src/cli.ts', '--count', String(COUNT), '--port', String(PORT), '--base', BASE,
    '--seed', '1', '--speed', '0', '--no-random-events', '--control-port', '0',
  ], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(out);
    });
    child.once('exit', (code) => reject(new Error(`simulator exited with ${code}`)));
  });
  const m = /on (\S+)–(\S+) port/.exec(line);
  if (!m) throw new Error(`unexpected simulator output: ${line}`);
  return { child, first: m[1]!, last: m[2]! };
}

/** net-snmp's tools on one device: one snmpbulkwalk per column the agent walks, snmpget for the scalars. */
async function netSnmpRead(device: DiscoveredDevice, registry: ReturnType<typeof createDefaultRegistry>): Promise<number> {
  const plan = planRequests(registry.match(device.sysObjectID, device.sysDescr).profile);
  const common = ['-v2c', '-c', 'public', '-On', '-t', '2', '-r', '1', `${device.ip}:${PORT}`];
  let lines = 0;
  for (const root of plan.walks) {
    const { stdout } = await run('snmpbulkwalk', ['-Cr20', ...common, root]);
    lines += stdout.split('\n').filter(Boolean).length;
  }
  for (let i = 0; i < plan.gets.length; i += 10) {
    const { stdout } = await run('snmpget', [...common, ...plan.gets.slice(i, i + 10)]).catch((e: { stdout?: string }) => ({ stdout: e.stdout ?? '' }));
    lines += stdout.split('\n').filter(Boolean).length;
  }
  return lines;
}

const fmt = (n: number, digits = 1): string => n.toFixed(digits);

async function main(): Promise<void> {
  const registry = createDefaultRegistry();
  const sim = await startSimulator();
  try {
    process.stdout.write(`poll benchmark: ${COUNT} simulated printers ${sim.first}–${sim.last}:${PORT}, ${cpus().length} cores, ${CONCURRENCY} devices at once\n`);

    let t = performance.now();
    const found = await discoverRange({ type: 'RANGE', address: null, mask: null, from: sim.first, to: sim.last, port: PORT, snmp }, registry, { concurrency: 256, timeoutMs: 2000, retries: 1 });
    const discoverySec = (performance.now() - t) / 1000;
    if (found.error) throw new Error(found.error);
    process.stdout.write(`  discovery (${found.scanned} addresses, one socket): ${found.devices.length} printers in ${fmt(discoverySec, 2)} s\n`);

    t = performance.now();
    let failed = 0;
    let supplies = 0;
    await mapLimit(found.devices, CONCURRENCY, async (device) => {
      const reading = await pollDevice(device, null, snmp, registry, null, { timeoutMs: 3000, retries: 1 });
      if (!reading || reading.reading.problems.length > 0) failed++;
      else supplies += reading.reading.supplies.length;
    });
    const pollSec = (performance.now() - t) / 1000;
    const ours = found.devices.length / pollSec;
    process.stdout.write(`  agent poll: ${found.devices.length} printers in ${fmt(pollSec, 2)} s = ${fmt(ours)} devices/s (${failed} incomplete, ${supplies} supplies read)\n`);

    const sample = found.devices.slice(0, SAMPLE);
    const tools = Math.max(2, cpus().length * 4);
    t = performance.now();
    await mapLimit(sample, tools, (d) => netSnmpRead(d, registry));
    const toolSec = (performance.now() - t) / 1000;
    const theirs = sample.length / toolSec;
    process.stdout.write(`  net-snmp snmpbulkwalk/snmpget, same OIDs, ${tools} at once: ${sample.length} printers in ${fmt(toolSec, 2)} s = ${fmt(theirs)} devices/s\n`);
    process.stdout.write(`  ratio agent / snmpbulkwalk: ${fmt(ours / theirs, 1)}x; ${COUNT} printers polled in ${fmt(pollSec, 1)} s (target < 20 s): ${pollSec < 20 ? 'met' : 'NOT met'}\n`);
  } finally {
    sim.child.kill('SIGTERM');
  }
}

await main();
