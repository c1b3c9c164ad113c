import type { SnmpCredentials } from '@pagewatch/contracts/agent-api';
import { PACKETS_PER_SECOND } from '@pagewatch/contracts/network-ranges';
import { commandArgs, intOption, SNMP_OPTIONS, UsageError } from '../cli-args.ts';
import type { CliCommand } from '../cli-command.ts';
import { createDefaultRegistry } from '../profiles/models-pack.loader.ts';
import { parseRangeText } from './address-range.ts';
import { discoverRange } from './discover.ts';

const HELP = `usage: scan <range> [--broadcast] [--port 161] [--community public] [--snmp-version 1|2c|3]
            [--user U --auth-protocol sha --auth-key K --priv-protocol aes --priv-key K]
            [--timeout 1000] [--retries 1] [--concurrency 64] [--packets-per-second 5000] [--json]
<range> is a.b.c.d/24, a.b.c.d/255.255.255.0 or a.b.c.d-e.f.g.h (at most 65,536 addresses);
--broadcast asks the subnet's broadcast address once instead of every address.
--packets-per-second caps the requests of a sweep (retries included); --concurrency is for SNMPv3 sessions.
Lists the SNMP devices found and which of them are printers.
`;

const SCAN = { name: 'scan', help: HELP, positionals: true };
const SCAN_OPTIONS = {
  ...SNMP_OPTIONS, broadcast: { type: 'boolean', default: false }, concurrency: { type: 'string' },
  'packets-per-second': { type: 'string' }, json: { type: 'boolean', default: false },
} as const;

function credentials(v: Record<string, string | boolean | undefined>): SnmpCredentials {
  const version = (v['snmp-version'] as string | undefined) ?? '2c';
  if (version === '1' || version === '2c') return { version, community: (v.community as string | undefined) ?? 'public' };
  if (version !== '3') throw new UsageError('--snmp-version must be 1, 2c or 3');
  if (!v.user) throw new UsageError('--snmp-version 3 needs --user');
  const authKey = (v['auth-key'] as string | undefined) ?? null;
  const privKey = (v['priv-key'] as string | undefined) ?? null;
  return {
    version: '3',
    user: v.user as string,
    level: privKey ? 'authPriv' : authKey ? 'authNoPriv' : 'noAuthNoPriv',
    authProtocol: ((v['auth-protocol'] as string | undefined) ?? (authKey ? 'sha' : null)) as 'sha' | null,
    authKey,
    privProtocol: ((v['priv-protocol'] as string | undefined) ?? (privKey ? 'aes' : null)) as 'aes' | null,
    privKey,
  };
}

export const scanCommand: CliCommand = {
  name: 'scan',
  summary: 'find the SNMP devices and printers of one network range',
  async run(args) {
    const parsed = commandArgs(SCAN, args, SCAN_OPTIONS, ({ values, positionals }) => {
      if (positionals.length !== 1) throw new UsageError('give exactly one range');
      return {
        range: { ...parseRangeText(positionals[0]!, values.broadcast), port: intOption(values.port, 'port', 1, 65535, 161), snmp: credentials(values) },
        options: {
          timeoutMs: intOption(values.timeout, 'timeout', 50, 60000, 1000),
          retries: intOption(values.retries, 'retries', 0, 10, 1),
          concurrency: intOption(values.concurrency, 'concurrency', 1, 1024, 64),
          packetsPerSecond: intOption(values['packets-per-second'], 'packets-per-second', PACKETS_PER_SECOND.min, PACKETS_PER_SECOND.max, PACKETS_PER_SECOND.default),
        },
        json: values.json ?? false,
      };
    });
    if (typeof parsed === 'number') return parsed;
    const result = await discoverRange(parsed.range, createDefaultRegistry(), parsed.options);
    if (result.error) {
      process.stderr.write(`scan: ${result.error}\n`);
      return 2;
    }
    if (parsed.json) {
      process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      return 0;
    }
    const printers = result.devices.filter((d) => d.isPrinter).length;
    for (const d of result.devices) {
      const what = d.isPrinter ? (d.vendor ?? 'printer') : d.matched ? `${d.vendor} (not a printer)` : 'unknown (no profile)';
      process.stdout.write(`${d.ip.padEnd(16)} ${what.padEnd(24)} ${(d.sysDescr ?? '').slice(0, 80)}\n`);
    }
    for (const r of result.refused) process.stdout.write(`${r.ip.padEnd(16)} refused: ${r.reason}\n`);
    const note = result.note ? ` (${result.note})` : '';
    const unprobed = result.unprobed.length > 0 ? `, ${result.unprobed.length} not probed in time (the agent was too busy)` : '';
    process.stdout.write(`${result.scanned} addresses scanned in ${(result.durationMs / 1000).toFixed(1)} s${note}: ${result.devices.length} SNMP devices, ${printers} printers, ${result.refused.length} refused${unprobed}\n`);
    return 0;
  },
};
