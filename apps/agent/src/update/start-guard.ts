import { parseArgs } from 'node:util';
import { readJsonFile } from '../json-file.ts';
import { countStart } from './pending-update.ts';

/** Where `run` keeps its spool (and the update markers) when neither --spool-dir nor the configuration names a folder. */
export const DEFAULT_SPOOL_DIR = 'agent-spool';

/** The spool folder of a `run` that updates itself (not --once), from its arguments or its --config file; null for anything else. */
export function runSpoolDir(args: string[]): string | null {
  if (args[0] !== 'run') return null;
  try {
    const { values } = parseArgs({
      args: args.slice(1), strict: false,
      options: { 'spool-dir': { type: 'string' }, config: { type: 'string' }, once: { type: 'boolean' } },
    });
    if (values.once) return null;
    if (typeof values['spool-dir'] === 'string') return values['spool-dir'];
    // Only the spool is taken from the configuration here: run validates the rest, and the guard loads no more than it needs.
    if (typeof values.config === 'string') {
      const spoolDir = readJsonFile<{ spoolDir?: unknown }>(values.config)?.spoolDir;
      return typeof spoolDir === 'string' && spoolDir !== '' ? spoolDir : null;
    }
    return DEFAULT_SPOOL_DIR;
  } catch {
    return null; // run itself reports bad arguments and configuration
  }
}

/**
 * The first thing a single-file agent does, before the rest of it is loaded: a start of a
 * version whose update is not confirmed yet is counted, and the third one puts the previous
 * executable back (pending-update.ts). True when that executable must be started instead.
 */
export function guardStart(args: string[], executable: string, version: string): boolean {
  const stateDir = runSpoolDir(args);
  return stateDir !== null && countStart({ executable, stateDir }, version);
}

/**
 * Runs the executable now in place in the same process (the pid a service manager watches stays
 * the same). Windows has no execve: the exit code makes the service manager start it again.
 */
export function execInPlace(): void {
  if (process.platform === 'win32') process.exit(75);
  process.execve!(process.execPath, [process.execPath, ...process.argv.slice(2)], process.env);
}
