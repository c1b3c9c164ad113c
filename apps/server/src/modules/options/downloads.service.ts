import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { AppError, notFound } from '../../lib/app-error.ts';
import type { Caller } from '../../lib/caller.ts';
import './downloads.messages.ts';

/** The product page shows at most this many files (spec section 9). */
export const DOWNLOADS_MAX = 50;

export type DownloadFile = { name: string; size: number };

/**
 * The product page's downloads (spec section 2): agent installers and documents from one
 * configured folder, for an ADMIN in cloud mode. Only the folder's own regular files are
 * served, by a name from its listing: no path can leave it, and a name outside the listing
 * answers like a missing file (security.md invariant 9).
 */
export class DownloadsService {
  private readonly dir: string | null;
  private readonly cloud: boolean;
  constructor(opts: { dir: string | null; cloud: boolean }) {
    this.dir = opts.dir;
    this.cloud = opts.cloud;
  }

  private allowed(caller: Caller) {
    if (!this.cloud || !caller.roleCodes.includes('ADMIN')) throw new AppError('FORBIDDEN', { key: 'downloads.cloudAdminOnly' });
  }

  async list(caller: Caller): Promise<DownloadFile[]> {
    this.allowed(caller);
    if (!this.dir) return [];
    const entries = await readdir(this.dir, { withFileTypes: true }).catch(() => []);
    const names = entries.filter((e) => e.isFile() && !e.name.startsWith('.')).map((e) => e.name).sort((a, b) => a.localeCompare(b));
    const files: DownloadFile[] = [];
    for (const name of names.slice(0, DOWNLOADS_MAX)) {
      const s = await stat(join(this.dir, name)).catch(() => null);
      if (s?.isFile()) files.push({ name, size: s.size });
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
