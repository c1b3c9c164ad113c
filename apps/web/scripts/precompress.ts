/**
 * Every text file of the console's build also as brotli (`.br`) and gzip (`.gz`) beside it, made
 * once at build time at the highest levels, so that the server sends them as they are to a
 * browser that accepts them instead of compressing per request (issue 53).
 */
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';

const TEXT = /\.(js|mjs|css|html|svg|json|txt|webmanifest|map)$/;
const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** Writes `f.br` and `f.gz` for each text file `f` under `dir`, each only where it is smaller than the file. */
export async function precompressFolder(dir: string): Promise<{ files: number; bytes: number; br: number; gzip: number }> {
  const names = (await readdir(dir, { recursive: true })).filter((n) => TEXT.test(n));
  const totals = { files: 0, bytes: 0, br: 0, gzip: 0 };
  await Promise.all(
    names.map(async (name) => {
      const file = join(dir, name);
      if (!(await stat(file)).isFile()) return;
      const data = await readFile(file);
      const [b, z] = await Promise.all([
        brotli(data, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } }),
        gz(data, { level: constants.Z_BEST_COMPRESSION }),
      ]);
      totals.files++;
      totals.bytes += data.length;
      totals.br += Math.min(b.length, data.length);
      totals.gzip += Math.min(z.length, data.length);
      if (b.length < data.length) await writeFile(`${file}.br`, b);
      if (z.length < data.length) await writeFile(`${file}.gz`, z);
    }),
  );
  return totals;
}

/** The Vite plugin: after the build has written its files (public/ ones too), compresses them. */
export function precompress(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'pagewatch-precompress',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    async closeBundle() {
      const t = await precompressFolder(resolve(config.root, config.build.outDir));
      const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
      config.logger.info(`precompressed ${t.files} files: ${kib(t.bytes)}, brotli ${kib(t.br)}, gzip ${kib(t.gzip)}`);
    },
  };
}
