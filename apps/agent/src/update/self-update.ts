import { execFile } from 'node:child_process';
import { createPublicKey } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { chmodSync, copyFileSync, readFileSync, renameSync, rmSync } from 'node:fs';
import type { AgentUpdateOffer } from '@pagewatch/contracts/agent-api';
import { markPending, previousPath } from './pending-update.ts';
import type { UpdatePaths } from './pending-update.ts';
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

const newPath = (executable: string): string => `${executable}.new`;

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
    markPending(paths.stateDir, { from: currentVersion, to: verified.manifest.version, at: new Date().toISOString() });
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
