import { createHash, sign, verify } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { agentReleaseManifestSchema } from '@pagewatch/contracts/agent-api';
import type { AgentReleaseFile, AgentReleaseManifest, AgentReleasePlatform } from '@pagewatch/contracts/agent-api';

export type ReleasePlatform = AgentReleasePlatform;
export type ReleaseFile = AgentReleaseFile;

/** The release manifest beside the builds (scripts/build-agent.ts), which the server offers as an update. */
export const RELEASE_FILE = 'pagewatch-agent-release.json';

/**
 * The manifest as signed text (the signature covers these exact bytes, as with licenses) and its
 * Ed25519 signature, base64; null without a release key (such a release is never installed as an update).
 */
export function signRelease(manifest: AgentReleaseManifest, privateKey: KeyObject | null): ReleaseFile {
  const text = JSON.stringify(manifest);
  return { manifest: text, signature: privateKey ? sign(null, Buffer.from(text, 'utf8'), privateKey).toString('base64') : null };
}

export type VerifiedRelease = { ok: true; manifest: AgentReleaseManifest } | { ok: false; reason: string };

/** Whether the manifest is signed by the holder of the release key, and well formed. */
export function verifyRelease(file: ReleaseFile, publicKey: KeyObject | null): VerifiedRelease {
  if (!publicKey) return { ok: false, reason: 'this agent was built without a release key' };
  if (!file.signature) return { ok: false, reason: 'the release is not signed' };
  let good = false;
  try {
    good = verify(null, Buffer.from(file.manifest, 'utf8'), publicKey, Buffer.from(file.signature, 'base64'));
  } catch {
    good = false;
  }
  if (!good) return { ok: false, reason: 'the release signature does not match the release key' };
  let parsed;
  try {
    parsed = agentReleaseManifestSchema.safeParse(JSON.parse(file.manifest));
  } catch {
    return { ok: false, reason: 'the release manifest is not JSON' };
  }
  return parsed.success ? { ok: true, manifest: parsed.data } : { ok: false, reason: 'the release manifest is not well formed' };
}

export const sha256 = (data: Uint8Array): string => createHash('sha256').update(data).digest('hex');
