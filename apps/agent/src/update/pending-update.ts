import { existsSync, renameSync, rmSync } from 'node:fs';
import { readJsonFile, writeJsonFile } from '../json-file.ts';

/**
 * The markers of a self-update (issue 44) and the roll-back they lead to. Only files here: the
 * start guard (start-guard.ts) runs this before the rest of a new build is loaded.
 */
export type UpdatePaths = {
  /** The running executable, replaced in place. */
  executable: string;
  /** Where the marker of an update not yet confirmed by a check-in is kept (the spool folder). */
  stateDir: string;
};

/** `starts`: how often the new version has started without checking in (absent in markers of older agents). */
export type PendingUpdate = { from: string; to: string; at: string; starts?: number };
/** `reason`: what the server is told (absent in markers of older agents). */
export type UndoneUpdate = PendingUpdate & { reason?: string };

/** The start of an unconfirmed version that rolls back at once: the two before it stopped before any check-in. */
export const MAX_UNCONFIRMED_STARTS = 3;

export const previousPath = (executable: string): string => `${executable}.previous`;
export const pendingMarker = (stateDir: string): string => `${stateDir}/update-pending.json`;
/** Left by a roll-back for the version put back: it tells the server and does not take that release again. */
export const rolledBackMarker = (stateDir: string): string => `${stateDir}/update-rolled-back.json`;

/** Written whole (writeJsonFile): a start cut short mid-write must not lose the count. */
export function markPending(stateDir: string, update: PendingUpdate): void {
  writeJsonFile(pendingMarker(stateDir), update);
}

/** The update this start is a run of, if any: confirmed by the first check-in, rolled back when none comes. */
export function pendingUpdate(stateDir: string): PendingUpdate | null {
  return readJsonFile<PendingUpdate>(pendingMarker(stateDir));
}

export function confirmUpdate(stateDir: string): void {
  rmSync(pendingMarker(stateDir), { force: true });
}

/** Puts `.previous` back in place of the executable (the new one did not check in); `reason` is what the server is told. False when there is none. */
export function rollBack(paths: UpdatePaths, reason: string): boolean {
  const previous = previousPath(paths.executable);
  if (!existsSync(previous)) return false;
  if (process.platform === 'win32') {
    // A running .exe cannot be overwritten or removed, but it can be renamed.
    rmSync(`${paths.executable}.failed`, { force: true });
    renameSync(paths.executable, `${paths.executable}.failed`);
  }
  renameSync(previous, paths.executable);
  const pending = pendingUpdate(paths.stateDir);
  if (pending) writeJsonFile(rolledBackMarker(paths.stateDir), { ...pending, reason } satisfies UndoneUpdate);
  confirmUpdate(paths.stateDir);
  return true;
}

/**
 * Counts a start of `version` while its update is unconfirmed, and rolls back at the
 * MAX_UNCONFIRMED_STARTS-th: a build that answers `version` but stops before its first check-in
 * (a crash the service manager restarts) never runs the health watchdog, which lives in it. True
 * when the previous executable is back in place and must be started instead of this one.
 */
export function countStart(paths: UpdatePaths, version: string): boolean {
  const pending = pendingUpdate(paths.stateDir);
  if (!pending || pending.to !== version) return false;
  const starts = (pending.starts ?? 0) + 1;
  if (starts < MAX_UNCONFIRMED_STARTS) {
    markPending(paths.stateDir, { ...pending, starts });
    return false;
  }
  return rollBack(paths, `version ${pending.to} stopped ${starts - 1} times before reaching the server after the update; ${pending.from} was put back`);
}

/** The update a roll-back undid before this start, if any (read once). */
export function takeRolledBack(stateDir: string): UndoneUpdate | null {
  const undone = readJsonFile<UndoneUpdate>(rolledBackMarker(stateDir));
  rmSync(rolledBackMarker(stateDir), { force: true });
  return undone;
}
