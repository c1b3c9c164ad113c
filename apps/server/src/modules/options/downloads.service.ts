import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError, notFound } from '../../lib/app-error.ts';
import type { Caller } from '../../lib/caller.ts';
import './downloads.messages.ts';

/** The product page shows at most this many files (spec section 9). */
export const DOWNLOADS_MAX = 50;

export type DownloadFile = { name: string; size: number; sha256: string | null };

/** The checksums file `npm run build:agent` writes beside the agent builds (sha256sum's format). */
const CHECKSUMS = 'SHA256SUMS';

/**
 * The product page's downloads (spec section 2): agent builds and documents from one configured
 * folder, for an ADMIN in either mode (issue 44: the agent builds of this release are offered
 * on-premises too), each agent build with its SHA-256 from the folder's SHA256SUMS. Only the folder's own regular files are
 * served, by a name from its listing: no path can leave it, and a name outside the listing
 * answers like a missing file (security.md invariant 9).
 */
export class DownloadsService {
  private readonly dir: string | null;
  constructor(opts: { dir: string | null }) {
    this.dir = opts.dir;
  }

  private allowed(caller: Caller) {
    if (!caller.roleCodes.includes('ADMIN')) throw new AppError('FORBIDDEN', { key: 'downloads.adminOnly' });
  }

  /** name -> SHA-256 from SHA256SUMS; none when the folder has no such file. */
  private async checksums(): Promise<Map<string, string>> {
    const text = this.dir ? await readFile(join(this.dir, CHECKSUMS), 'utf8').catch(() => '') : '';
    const sums = new Map<string, string>();
    for (const line of text.split('\n')) {
      const m = /^([0-9a-f]{64}) [ *](.+)$/.exec(line.trim());
      if (m) sums.set(m[2]!, m[1]!);
    }
    return sums;
  }

  async list(caller: Caller): Promise<DownloadFile[]> {
    this.allowed(caller);
    if (!this.dir) return [];
    const entries = await readdir(this.dir, { withFileTypes: true }).catch(() => []);
    const names = entries.filter((e) => e.isFile() && !e.name.startsWith('.')).map((e) => e.name).sort((a, b) => a.localeCompare(b));
    const files: DownloadFile[] = [];
    const sums = await this.checksums();
    for (const name of names.slice(0, DOWNLOADS_MAX)) {
      const s = await stat(join(this.dir, name)).catch(() => null);
      if (s?.isFile()) files.push({ name, size: s.size, sha256: sums.get(name) ?? null });
    }
    return files;
  }

  /** The file of that name from the listing, opened for reading; 404 for anything else. */
  async open(caller: Caller, name: string) {
    const file = (await this.list(caller)).find((f) => f.name === name);
    if (!file || !this.dir) throw notFound();
    return { ...file, stream: createReadStream(join(this.dir, file.name)) };
  }
}
