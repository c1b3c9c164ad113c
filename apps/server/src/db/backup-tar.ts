import { createReadStream, createWriteStream, mkdirSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';

/**
 * A gzipped tar (ustar) of a folder and back: the embedded database's backup file, readable
 * with `tar tzf` too. Only folders and regular files are kept, names relative to the folder.
 */
const BLOCK = 512;

function header(name: string, size: number, dir: boolean, mtime: number): Buffer {
  if (Buffer.byteLength(name) > 99) throw new Error(`a name too long for the backup: ${name}`);
  const h = Buffer.alloc(BLOCK);
  const put = (text: string, at: number, len: number) => h.write(text, at, len, 'utf8');
  const octal = (n: number, at: number, len: number) => put(n.toString(8).padStart(len - 1, '0'), at, len - 1);
  put(name, 0, 100);
  octal(dir ? 0o700 : 0o600, 100, 8);
  octal(0, 108, 8);
  octal(0, 116, 8);
  octal(size, 124, 12);
  octal(Math.floor(mtime / 1000), 136, 12);
  put(' '.repeat(8), 148, 8);
  put(dir ? '5' : '0', 156, 1);
  put('ustar\u000000', 257, 8);
  let sum = 0;
  for (const b of h) sum += b;
  put(`${sum.toString(8).padStart(6, '0')}\u0000 `, 148, 8);
  return h;
}

/** The folder's entries (parents before their contents) that `keep` takes, by relative path. */
function walk(root: string, keep: (path: string, dir: boolean) => boolean, under = ''): { path: string; dir: boolean }[] {
  const found: { path: string; dir: boolean }[] = [];
  for (const entry of readdirSync(join(root, under), { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = under ? `${under}/${entry.name}` : entry.name;
    if (!(entry.isDirectory() || entry.isFile()) || !keep(path, entry.isDirectory())) continue;
    found.push({ path, dir: entry.isDirectory() });
    if (entry.isDirectory()) found.push(...walk(root, keep, path));
  }
  return found;
}

async function* tarOf(root: string, keep: (path: string, dir: boolean) => boolean): AsyncGenerator<Buffer> {
  for (const e of walk(root, keep)) {
    const full = join(root, e.path);
    const st = statSync(full);
    yield header(e.dir ? `${e.path}/` : e.path, e.dir ? 0 : st.size, e.dir, st.mtimeMs);
    if (e.dir) continue;
    let written = 0;
    for await (const chunk of createReadStream(full)) {
      written += (chunk as Buffer).length;
      yield chunk as Buffer;
    }
    if (written !== st.size) throw new Error(`${full} changed while it was backed up`);
    if (written % BLOCK) yield Buffer.alloc(BLOCK - (written % BLOCK));
  }
  yield Buffer.alloc(BLOCK * 2);
}

/** Writes the gzipped tar of `root`'s entries that `keep` takes to `out`. */
export async function writeTarGz(root: string, keep: (path: string, dir: boolean) => boolean, out: Writable): Promise<void> {
  await pipeline(Readable.from(tarOf(root, keep)), createGzip(), out);
}

/** Unpacks a gzipped tar from `input` into the folder `into`, refusing names that leave it. */
export async function extractTarGz(input: Readable, into: string): Promise<void> {
  const root = resolve(into);
  let pending = Buffer.alloc(0);
  let file: { out: ReturnType<typeof createWriteStream>; left: number; pad: number } | null = null;
  let ended = false;
  const target = (name: string) => {
    const full = resolve(root, name);
    if (full !== root && !full.startsWith(root + sep)) throw new Error(`the backup names a file outside the folder: ${name}`);
    return full;
  };
  const finish = (out: ReturnType<typeof createWriteStream>) => new Promise<void>((ok, fail) => out.end((err?: Error | null) => (err ? fail(err) : ok())));
  await pipeline(input, createGunzip(), async function (chunks: AsyncIterable<Buffer>) {
    for await (const chunk of chunks) {
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        if (file) {
          const take = Math.min(file.left, pending.length);
          if (take > 0 && !file.out.write(pending.subarray(0, take))) await new Promise<void>((r) => file!.out.once('drain', () => r()));
          file.left -= take;
          pending = pending.subarray(take);
          if (file.left > 0) break;
          if (pending.length < file.pad) break;
          pending = pending.subarray(file.pad);
          await finish(file.out);
          file = null;
        }
        if (ended || pending.length < BLOCK) break;
        const h = pending.subarray(0, BLOCK);
        pending = pending.subarray(BLOCK);
        if (h.every((b) => b === 0)) {
          ended = true;
          break;
        }
        const text = (at: number, len: number) => h.toString('utf8', at, at + len).replace(/\0.*$/s, '');
        const prefix = text(257, 6) === 'ustar' ? text(345, 155) : '';
        const name = prefix ? `${prefix}/${text(0, 100)}` : text(0, 100);
        const size = parseInt(text(124, 12).trim() || '0', 8);
        const type = text(156, 1) || '0';
        if (type === '5') {
          mkdirSync(target(name), { recursive: true, mode: 0o700 });
        } else if (type === '0') {
          const full = target(name);
          mkdirSync(dirname(full), { recursive: true, mode: 0o700 });
          file = { out: createWriteStream(full, { mode: 0o600 }), left: size, pad: (BLOCK - (size % BLOCK)) % BLOCK };
        } else {
          throw new Error(`the backup holds an entry of a kind it should not (${type}): ${name}`);
        }
      }
    }
  });
  if (file || !ended) throw new Error('the backup file ends too early: it is incomplete');
}
