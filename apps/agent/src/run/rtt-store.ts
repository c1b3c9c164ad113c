import { closeSync, fsyncSync, openSync, readFileSync, renameSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { RttTable } from '../snmp/rtt-estimator.ts';
import type { RttLimits } from '../snmp/rtt-estimator.ts';
import type { AgentLog } from './collect.ts';

/**
 * What the agent learned of each device's answers, kept in its spool directory across restarts:
 * without it, a device that answered last week and is silent today would be counted as an empty
 * address after every restart instead of "unreachable", and every printer would start again at
 * the 1 s wait of a device never heard from.
 */
const FORMAT = 'pagewatch-agent-rtt';
const VERSION = 1;
/** Newest devices kept: a /16 full of printers fits; the file stays a few megabytes. */
export const MAX_STORED_DEVICES = 100_000;
/** A file larger than this was not written by us (100,000 entries take about 5 MB). */
const MAX_FILE_BYTES = 16 * 1024 * 1024;
/** Answer times above this are not real (the estimator's waits stop at seconds). */
const MAX_MS = 600_000;
const KEY = /^(\d{1,3}\.){3}\d{1,3}:\d{1,5}$/;

type Stored = [key: string, srttMs: number, rttvarMs: number, rtoMs: number];

/** Devices heard from, newest last, at most MAX_STORED_DEVICES; written to a temporary file, synced, then renamed over the old one. */
export function saveRttTable(table: RttTable, path: string): void {
  const heard: Stored[] = [];
  for (const [key, e] of table.entriesInOrder()) {
    const s = e.snapshot();
    if (s.srttMs !== null) heard.push([key, round(s.srttMs), round(s.rttvarMs), s.rtoMs]);
  }
  const devices = heard.slice(-MAX_STORED_DEVICES);
  const body = JSON.stringify({ format: FORMAT, version: VERSION, savedAt: new Date().toISOString(), devices });
  const tmp = `${path}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    writeSync(fd, body);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
  try {
    const dir = openSync(dirname(path), 'r');
    fsyncSync(dir);
    closeSync(dir);
  } catch {
    // some file systems cannot fsync a directory; the rename still happened
  }
}

/**
 * The table kept at `path`, or an empty one: a missing file is a first start; a file that cannot
 * be read, is too large, of another format or version, gives a warning and an empty table, never
 * an error (losing answer times costs one slower run, refusing to start costs every reading).
 * Entries that make no sense are skipped one by one.
 */
export function loadRttTable(path: string, log: AgentLog, limits?: RttLimits): RttTable {
  const table = new RttTable(limits);
  let text: string;
  try {
    if (statSync(path).size > MAX_FILE_BYTES) {
      log('warn', `${path} is larger than ${MAX_FILE_BYTES} bytes; the devices' answer times start afresh`);
      return table;
    }
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') log('warn', `cannot read ${path} (${(error as Error).message}); the devices' answer times start afresh`);
    return table;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    log('warn', `${path} is not valid JSON (cut short?); the devices' answer times start afresh`);
    return table;
  }
  const doc = parsed as { format?: unknown; version?: unknown; devices?: unknown };
  if (typeof doc !== 'object' || doc === null || doc.format !== FORMAT || doc.version !== VERSION || !Array.isArray(doc.devices)) {
    log('warn', `${path} is not version ${VERSION} of the answer times file; the devices' answer times start afresh`);
    return table;
  }
  let skipped = 0;
  for (const entry of doc.devices.slice(-MAX_STORED_DEVICES)) {
    if (!validEntry(entry)) {
      skipped++;
      continue;
    }
    const [key, srttMs, rttvarMs, rtoMs] = entry;
    const [ip, port] = key.split(':');
    table.get(ip!, Number(port)).restore({ srttMs, rttvarMs, rtoMs });
  }
  if (skipped > 0) log('warn', `${path}: ${skipped} entries that make no sense were skipped`);
  return table;
}

function validEntry(entry: unknown): entry is Stored {
  if (!Array.isArray(entry) || entry.length !== 4) return false;
  const [key, srtt, rttvar, rto] = entry as unknown[];
  const ms = (v: unknown, min: number): boolean => typeof v === 'number' && Number.isFinite(v) && v >= min && v <= MAX_MS;
  if (typeof key !== 'string' || !KEY.test(key)) return false;
  const [ip, port] = key.split(':');
  if (ip!.split('.').some((o) => Number(o) > 255) || Number(port) < 1 || Number(port) > 65_535) return false;
  return ms(srtt, 0) && ms(rttvar, 0) && ms(rto, 1);
}

const round = (ms: number): number => Math.round(ms * 10) / 10;
