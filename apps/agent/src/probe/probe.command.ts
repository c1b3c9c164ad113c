import { commandArgs, intOption, oneOf, SNMP_OPTIONS, UsageError } from '../cli-args.ts';
import type { CommandLine } from '../cli-args.ts';
import type { CliCommand } from '../cli-command.ts';
import { loadModelsPackFile } from '@pagewatch/snmp/models-pack';
import { createDefaultRegistry } from '../profiles/models-pack.loader.ts';
import { ProfileRegistry } from '../profiles/profile-registry.ts';
import { AUTH_PROTOCOLS, PRIV_PROTOCOLS } from '../snmp/snmp-client.ts';
import type { SnmpTarget, SnmpVersion } from '../snmp/snmp-client.ts';
import { SnmpError } from '../snmp/snmp-error.ts';
import { readDevice } from '../run/read-device.ts';
import { formatReading } from './reading-table.ts';

const HELP = `usage: probe <host> [--port 161] [--community public] [--snmp-version 1|2c|3]
             [--user U --auth-protocol sha --auth-key K --priv-protocol aes --priv-key K]
             [--timeout 2000] [--retries 1] [--models-pack FILE] [--json]
Reads one device over SNMP and prints its reading (identity, counters, supplies, trays).
Exit code 2 when the device cannot be read.
`;

const PROBE = { name: 'probe', help: HELP, positionals: true };
const PROBE_OPTIONS = { ...SNMP_OPTIONS, 'models-pack': { type: 'string' }, json: { type: 'boolean', default: false } } as const;

/** The device to read and how to print it, from the probe's command line. */
export function readProbeArgs({ values, positionals }: CommandLine<typeof PROBE_OPTIONS>): { target: SnmpTarget; json: boolean; modelsPack?: string } {
  if (positionals.length !== 1) throw new UsageError('give exactly one host');
  const version = oneOf(values['snmp-version'], ['1', '2c', '3'] as const satisfies readonly SnmpVersion[], 'snmp-version') ?? '2c';
  const target: SnmpTarget = {
    host: positionals[0] as string,
    port: intOption(values.port, 'port', 1, 65535, 161),
    version,
    community: values.community ?? 'public',
    timeoutMs: intOption(values.timeout, 'timeout', 50, 60000, 2000),
    retries: intOption(values.retries, 'retries', 0, 10, 1),
  };
  if (version === '3') {
    if (!values.user) throw new UsageError('--snmp-version 3 needs --user');
    if (values['priv-key'] && !values['auth-key']) throw new UsageError('--priv-key needs --auth-key');
    target.v3 = {
      user: values.user,
      authProtocol: oneOf(values['auth-protocol'], AUTH_PROTOCOLS, 'auth-protocol'),
      authKey: values['auth-key'],
      privProtocol: oneOf(values['priv-protocol'], PRIV_PROTOCOLS, 'priv-protocol'),
      privKey: values['priv-key'],
    };
  }
  return { target, json: values.json ?? false, modelsPack: values['models-pack'] };
}

export const probeCommand: CliCommand = {
  name: 'probe',
  summary: 'read one device over SNMP and print its reading',
  async run(args) {
    const parsed = commandArgs(PROBE, args, PROBE_OPTIONS, readProbeArgs);
    if (typeof parsed === 'number') return parsed;
    let registry: ProfileRegistry;
    try {
      registry = parsed.modelsPack ? new ProfileRegistry(loadModelsPackFile(parsed.modelsPack)) : createDefaultRegistry();
    } catch (error) {
      process.stderr.write(`probe: ${(error as Error).message.split('\n')[0]}\n`);
      return 2;
    }
    try {
      const reading = await readDevice(parsed.target, registry);
      if (reading.sysDescr === null && reading.sysObjectID === null && reading.supplies.length === 0) {
        const why = reading.problems[0] ? `: ${reading.problems[0]}` : '';
        process.stderr.write(`probe: ${parsed.target.host} answered but gave no usable SNMP data${why}\n`);
        return 2;
      }
      process.stdout.write(parsed.json ? `${JSON.stringify(reading, null, 2)}\n` : formatReading(reading));
      return 0;
    } catch (error) {
      if (error instanceof SnmpError) {
        process.stderr.write(`probe: ${error.message}\n`);
        return 2;
      }
      throw error;
    }
  },
};
