import { strToU8, zipSync, type ZipOptions } from 'fflate';

export type ZipEntry = { name: string; data: Buffer | string; modified?: Date };

/** A zip of a few files for a download (fflate, deflate); names are UTF-8, and each is kept once. */
export function zip(entries: ZipEntry[]): Buffer {
  const files: Record<string, [Uint8Array, ZipOptions]> = {};
  for (const e of entries) {
    const data = typeof e.data === 'string' ? strToU8(e.data) : e.data;
    files[e.name] = [data, { mtime: e.modified ?? new Date() }];
  }
  return Buffer.from(zipSync(files, { level: 6 }));
}
