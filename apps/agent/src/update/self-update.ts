import { execFile } from 'node:child_process';
import { createPublicKey } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import type { AgentUpdateOffer } from '@pagewatch/contracts/agent-api';
import { sha256, verifyRelease } from './release.ts';

/** Set by the single-file build: the release key's public half (PEM), empty when built without one. */
declare const PAGEWATCH_RELEASE_PUBLIC_KEY: string | undefined;

/** The key a release must be signed with; null for an agent run from source or built without a key (it never updates itself). */
export function compiledReleaseKey(): KeyObject | null {
  const pem = typeof PAGEWATCH_RELEASE_PUBLIC_KEY === 'string' ? PAGEWATCH_RELEASE_PUBLIC_KEY : '';
  return pem ? createPublicKey(pem) : null;
}

/** How long the new executable has to answer `version` before it replaces the running one. */
const SELF_TEST_MS = 15_000;

export type UpdatePaths = {
  /** The running executable, replaced in place. */
  executable: string;
  /** Where the marker of an update not yet confirmed by a check-in is kept (the spool folder). */
  stateDir: string;
};

export const previousPath = (executable: string): string => `${executable}.previous`;
const newPath = (executable: string): string => `${executable}.new`;
export const pendingMarker = (stateDir: string): string => `${stateDir}/update-pending.json`;
/** Left by a roll-back for the version put back: it tells the server and does not take that release again. */
export const rolledBackMarker = (stateDir: string): string => `${stateDir}/update-rolled-back.json`;

export type PendingUpdate = { from: string; to: string; at: string };

/** Why an offered update was not installed (refused releases are kept from being tried again at every check-in). */
export class UpdateRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UpdateRefused';
  }
}

/** Runs the candidate with `version` and checks that it answers with the offered version: a file that cannot start never replaces the agent. */
function selfTest(file: string, version: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(file, ['version'], { timeout: SELF_TEST_MS }, (error, stdout) => {
      if (error) reject(new UpdateRefused(`the new agent does not start: ${error.message.split('\n')[0]}`));
      else if (stdout.trim() !== version) reject(new UpdateRefused(`the new agent reports version "${stdout.trim().slice(0, 50)}", not ${version}`));
      else resolve();
    });
  });
}

/**
 * Installs an offered release: checks its signature with the compiled-in key, downloads the
 * executable from the agent's own server (`download` writes it to the given path), checks its
 * size and SHA-256 against the signed manifest, makes sure it starts, keeps the running file as
 * `.previous` and puts the new one in its place with one rename. The caller restarts. Throws
 * UpdateRefused when the release must not be installed; the running agent is untouched then.
 */
export async function installUpdate(
  offer: AgentUpdateOffer, paths: UpdatePaths, currentVersion: string,
  download: (dest: string) => Promise<void>, key: KeyObject | null = compiledReleaseKey(),
): Promise<void> {
  const verified = verifyRelease(offer, key);
  if (!verified.ok) throw new UpdateRefused(verified.reason);
  const entry = verified.manifest.files.find((f) => f.platform === offer.platform);
  if (verified.manifest.version !== offer.version || !entry || entry.sha256 !== offer.sha256 || entry.size !== offer.size) {
    throw new UpdateRefused('the offer does not match its signed release');
  }
  const candidate = newPath(paths.executable);
  rmSync(candidate, { force: true });
  try {
    await download(candidate);
    const data = readFileSync(candidate);
    if (data.length !== entry.size || sha256(data) !== entry.sha256) throw new UpdateRefused('the downloaded file does not match the signed checksum');
    chmodSync(candidate, 0o755);
    await selfTest(candidate, verified.manifest.version);
    const previous = previousPath(paths.executable);
    writeFileSync(pendingMarker(paths.stateDir), JSON.stringify({ from: currentVersion, to: verified.manifest.version, at: new Date().toISOString() } satisfies PendingUpdate));
    if (process.platform === 'win32') {
      // A running .exe cannot be overwritten, but it can be renamed.
      rmSync(previous, { force: true });
      renameSync(paths.executable, previous);
    } else {
      copyFileSync(paths.executable, previous);
    }
    renameSync(candidate, paths.executable);
  } finally {
    rmSync(candidate, { force: true });
  }
}

/** The update this start is the first run of, if any: confirmed by the first check-in, rolled back when none comes in time. */
export function pendingUpdate(stateDir: string): PendingUpdate | null {
  try {
    return JSON.parse(readFileSync(pendingMarker(stateDir), 'utf8')) as PendingUpdate;
  } catch {
    return null;
  }
}

export function confirmUpdate(stateDir: string): void {
  rmSync(pendingMarker(stateDir), { force: true });
}

/** Puts `.previous` back in place of the executable (the new one did not check in). False when there is none. */
export function rollBack(paths: UpdatePaths): boolean {
  const previous = previousPath(paths.executable);
  if (!existsSync(previous)) return false;
  if (process.platform === 'win32') {
    rmSync(`${paths.executable}.failed`, { force: true });
    renameSync(paths.executable, `${paths.executable}.failed`);
    renameSync(previous, paths.executable);
  } else {
    renameSync(previous, paths.executable);
  }
  const pending = pendingUpdate(paths.stateDir);
  if (pending) writeFileSync(rolledBackMarker(paths.stateDir), JSON.stringify(pending));
  confirmUpdate(paths.stateDir);
  return true;
}

/** The update a roll-back undid before this start, if any (read once). */
export function takeRolledBack(stateDir: string): PendingUpdate | null {
  try {
    const undone = JSON.parse(readFileSync(rolledBackMarker(stateDir), 'utf8')) as PendingUpdate;
    rmSync(rolledBackMarker(stateDir), { force: true });
    return undone;
  } catch {
    return null;
  }
}
