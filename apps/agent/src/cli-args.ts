import { parseArgs } from 'node:util';
import type { ParseArgsOptionsConfig } from 'node:util';

/**
 * What the subcommands' command lines share (probe, scan, run, and the simulator's): strict
 * parsing with -h/--help, a usage error printed with the command's help, and the SNMP options.
 */

/** A command line the user got wrong: printed with the command's help, exit code 2. */
export class UsageError extends Error {}

/** An integer option from `min` to `max`; `fallback` where it is not given. */
export function intOption(value: string | undefined, name: string, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`--${name} must be an integer from ${min} to ${max}`);
  return n;
}

/** One of a closed set of words, in any case; undefined where it is not given. */
export function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], name: string): T | undefined {
  if (value === undefined) return undefined;
  const lower = value.toLowerCase() as T;
  if (!allowed.includes(lower)) throw new UsageError(`--${name} must be one of ${allowed.join(', ')}`);
  return lower;
}

/** The options of the commands that ask a device over SNMP (probe, scan): where and how to ask it. */
export const SNMP_OPTIONS = {
  port: { type: 'string' },
  community: { type: 'string' },
  'snmp-version': { type: 'string' },
  user: { type: 'string' },
  'auth-protocol': { type: 'string' },
  'auth-key': { type: 'string' },
  'priv-protocol': { type: 'string' },
  'priv-key': { type: 'string' },
  timeout: { type: 'string' },
  retries: { type: 'string' },
} as const satisfies ParseArgsOptionsConfig;

const HELP_OPTION = { help: { type: 'boolean', short: 'h', default: false } } as const;

export type CommandLine<T extends ParseArgsOptionsConfig> = ReturnType<
  typeof parseArgs<{ args: string[]; options: T & typeof HELP_OPTION; strict: true; allowPositionals: boolean }>
>;

export type CommandSpec = {
  /** The name its messages start with. */
  name: string;
  /** Printed for --help, and after a usage error. */
  help: string;
  /** Whether it takes arguments besides its options (a host, a range). */
  positionals?: boolean;
};

/**
 * Parses a command's arguments (with -h/--help) and reads them with `read`: its result, or the
 * exit code where the command has nothing more to do: 0 once the help it was asked for is printed,
 * 2 once a parse error or an error thrown by `read` is printed with the help.
 */
export function commandArgs<const T extends ParseArgsOptionsConfig, R extends object>(
  spec: CommandSpec,
  args: string[],
  options: T,
  read: (line: CommandLine<T>) => R,
): R | number {
  const usage = (error: unknown): number => {
    process.stderr.write(`${spec.name}: ${(error as Error).message}\n${spec.help}`);
    return 2;
  };
  let line: CommandLine<T>;
  try {
    line = parseArgs({ args, options: { ...options, ...HELP_OPTION }, strict: true, allowPositionals: spec.positionals ?? false });
  } catch (error) {
    return usage(error);
  }
  if ((line.values as { help?: boolean }).help) {
    process.stdout.write(spec.help);
    return 0;
  }
  try {
    return read(line);
  } catch (error) {
    return usage(error);
  }
}
