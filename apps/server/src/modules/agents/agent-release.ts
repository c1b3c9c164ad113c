import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { agentReleaseFileSchema, agentReleaseManifestSchema } from '@pagewatch/contracts/agent-api';
import type { AgentReleaseFile, AgentReleaseManifest, AgentReleasePlatform } from '@pagewatch/contracts/agent-api';

/** The release manifest `npm run build:agent` writes beside the builds (apps/agent/src/update/release.ts). */
export const RELEASE_FILE = 'pagewatch-agent-release.json';

export type AgentRelease = AgentReleaseFile & { manifest: string; parsed: AgentReleaseManifest };

/**
 * The agent release this server carries (issue 44): the single-file builds and their signed
 * manifest in the downloads folder. Read again when the manifest file changes, so a new release
 * dropped in the folder is offered without a restart. The server does not check the signature:
 * the agents do, with the key compiled into them; it only needs the version and checksums.
 */
export class AgentReleaseSource {
  private readonly dir: string | null;
  private cached: { mtimeMs: number; release: AgentRelease | null } | null = null;
  constructor(dir: string | null) {
    this.dir = dir;
  }

  current(): AgentRelease | null {
    if (!this.dir) return null;
    const path = join(this.dir, RELEASE_FILE);
    let mtimeMs: number;
    try {
      mtimeMs = statSync(path).mtimeMs;
    } catch {
      return null;
    }
    if (this.cached?.mtimeMs !== mtimeMs) this.cached = { mtimeMs, release: this.read(path) };
    return this.cached.release;
  }

  private read(path: string): AgentRelease | null {
    try {
      const file = agentReleaseFileSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
      return { ...file, parsed: agentReleaseManifestSchema.parse(JSON.parse(file.manifest)) };
    } catch {
      return null; // a half-copied or foreign file: no release rather than a broken offer
    }
  }

  /** The executable of a platform, when the release has one and it is in the folder with the size the manifest says. */
  file(platform: AgentReleasePlatform): { path: string; size: number; sha256: string } | null {
    const release = this.current();
    const entry = release?.parsed.files.find((f) => f.platform === platform);
    // The manifest's schema holds names to plain file names: the path stays in the folder.
    if (!entry || !this.dir) return null;
    const path = join(this.dir, entry.name);
    try {
      return statSync(path).size === entry.size ? { path, size: entry.size, sha256: entry.sha256 } : null;
    } catch {
      return null;
    }
  }
}

/** The build an agent runs, from the platform it registered with ("linux 6.1.0", "win32 10.0.19045"); x64 only is built. */
export function platformOf(platform: string | null): AgentReleasePlatform | null {
  if (platform?.startsWith('linux')) return 'linux-x64';
  if (platform?.startsWith('win32')) return 'win-x64';
  return null;
}
