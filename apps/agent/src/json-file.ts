import { readFileSync, renameSync, writeFileSync } from 'node:fs';

/** A small state file of the agent (update markers, last run): its value, or null when it is missing or unreadable. */
export function readJsonFile<T>(path: string): T | null {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch {
    return null;
  }
}

/** Written whole or not at all: a process cut short mid-write leaves the previous file. */
export function writeJsonFile(path: string, value: unknown): void {
  writeFileSync(`${path}.partial`, JSON.stringify(value));
  renameSync(`${path}.partial`, path);
}
