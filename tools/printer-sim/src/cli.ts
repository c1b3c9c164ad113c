#!/usr/bin/env node
import { commandArgs } from '@pagewatch/agent/cli-args';
import { startControlServer } from './control-server.ts';
import { startFleet } from './fleet.ts';

const HELP = `usage: sim --count N [--port 1161] [--seed S] [--base 127.0.1.1] [--speed X]
           [--community public] [--v3-user simuser] [--location TEXT] [--no-random-events] [--control-port 8161]
           [--stride 1] [--latency MS] [--latency-sigma 0.5] [--slow FRACTION] [--slow-ms 1000] [--loss FRACTION]
           [--asleep FRACTION] [--wake-ms 5000] [--silent FRACTION]
Serves N simulated printers over SNMP v1/v2c (and v3 noAuthNoPriv) on loopback addresses --stride apart, and a
control API on http://127.0.0.1:<control-port> to force events (see control-server.ts).
The network (default: perfect): each printer answers after its own time, drawn log-normal around --latency
(spread --latency-sigma); a --slow fraction answers only after --slow-ms more; each request is lost with
probability --loss; an --asleep fraction drops everything until --wake-ms after its first request; a --silent
fraction never answers. Which printers, and every loss, follow from --seed.
`;

function int(value: string | undefined, name: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < min || n > max) throw new Error(`--${name} must be a number from ${min} to ${max}`);
  return n;
}

const SIM_OPTIONS = {
  count: { type: 'string' }, port: { type: 'string' }, seed: { type: 'string' }, base: { type: 'string' },
  speed: { type: 'string' }, community: { type: 'string' }, 'v3-user': { type: 'string' }, location: { type: 'string' },
  'no-random-events': { type: 'boolean', default: false }, 'control-port': { type: 'string' },
  stride: { type: 'string' }, latency: { type: 'string' }, 'latency-sigma': { type: 'string' }, slow: { type: 'string' },
  'slow-ms': { type: 'string' }, loss: { type: 'string' }, asleep: { type: 'string' }, 'wake-ms': { type: 'string' },
  silent: { type: 'string' },
} as const;

export async function main(argv: string[]): Promise<number> {
  const values = commandArgs({ name: 'sim', help: HELP }, argv, SIM_OPTIONS, (line) => line.values);
  if (typeof values === 'number') return values;
  try {
    const count = int(values.count, 'count', 10, 1, 60_000);
    const base = values.base ?? '127.0.1.1';
    if (!/^127\.\d+\.\d+\.\d+$/.test(base)) throw new Error('--base must be a loopback address (127.x.y.z)');
    const fleet = await startFleet({
      count, base,
      port: int(values.port, 'port', 1161, 1, 65535),
      seed: int(values.seed, 'seed', 1, 0, 2 ** 31),
      speed: int(values.speed, 'speed', 1, 0, 1_000_000),
      community: values.community,
      v3Users: values['v3-user'] ? [values['v3-user']] : undefined,
      location: values.location,
      randomEvents: !values['no-random-events'],
      stride: int(values.stride, 'stride', 1, 1, 256),
      network: {
        latencyMs: int(values.latency, 'latency', 0, 0, 60_000),
        latencySigma: int(values['latency-sigma'], 'latency-sigma', 0.5, 0, 3),
        slow: int(values.slow, 'slow', 0, 0, 1),
        slowMs: int(values['slow-ms'], 'slow-ms', 1000, 0, 60_000),
        loss: int(values.loss, 'loss', 0, 0, 1),
        asleep: int(values.asleep, 'asleep', 0, 0, 1),
        wakeMs: int(values['wake-ms'], 'wake-ms', 5000, 0, 600_000),
        silent: int(values.silent, 'silent', 0, 0, 1),
      },
    });
    const control = await startControlServer(fleet, int(values['control-port'], 'control-port', 8161, 0, 65535));
    const list = fleet.list();
    process.stdout.write(
      `printer-sim: ${count} printers on ${list[0]!.ip}–${list[list.length - 1]!.ip} port ${fleet.port} ` +
        `(seed ${fleet.seed}, community "${fleet.community}"); control API ${control.url}\n` +
        `network: ${['normal', 'slow', 'asleep', 'silent'].map((k) => `${list.filter((p) => p.network === k).length} ${k}`).join(', ')}\n`,
    );
    const stop = (): void => {
      void Promise.all([fleet.stop(), control.close()]).then(() => process.exit(0));
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    return 0;
  } catch (error) {
    process.stderr.write(`sim: ${(error as Error).message}\n`);
    return 2;
  }
}

if (import.meta.main) {
  const code = await main(process.argv.slice(2));
  if (code !== 0) process.exit(code);
}
