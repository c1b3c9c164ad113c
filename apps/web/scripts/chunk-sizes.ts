/**
 * The console's chunks after a build (issue 22): every script with its size and gzip size, and
 * what the browser loads before the login form appears (the entry script and the chunks
 * index.html preloads). Fails when that start is past the budget, so a change that makes the
 * shell heavy is seen in `npm test` (e2e/run.ts runs this on its build).
 *
 *   node apps/web/scripts/chunk-sizes.ts [dist folder, default apps/web/dist]
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * Gzip KB of JavaScript before the login form, the target of issue 22 (about 189 in session 14).
 * The start's texts (both languages) are in it, the screens' texts load after. What remains is
 * React DOM (about 62 KB), Mantine's core (40), i18next, the router and React Query; Floating UI
 * comes with the screens whose popovers need it (the shell's hints are its own HintLayer).
 */
export const START_BUDGET_KB = 200;
/** No screen's chunk may grow past this (the rich-text editor's is the largest, about 150). */
export const CHUNK_BUDGET_KB = 200;

const dist = resolve(process.argv[2] ?? join(import.meta.dirname, '../dist'));
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const start = new Set([...html.matchAll(/(?:src|href)="\/?(assets\/[^"]+\.js)"/g)].map((m) => m[1]!));
const kb = (n: number) => n / 1024;
const rows = readdirSync(join(dist, 'assets'))
  .filter((f) => f.endsWith('.js'))
  .map((f) => {
    const data = readFileSync(join(dist, 'assets', f));
    return { file: `assets/${f}`, size: statSync(join(dist, 'assets', f)).size, gzip: gzipSync(data).length };
  })
  .sort((a, b) => b.gzip - a.gzip);

for (const r of rows) console.log(`${start.has(r.file) ? '*' : ' '} ${r.file.padEnd(52)} ${kb(r.size).toFixed(1).padStart(8)} KB  ${kb(r.gzip).toFixed(1).padStart(7)} KB gzip`);
const startGzip = kb(rows.filter((r) => start.has(r.file)).reduce((n, r) => n + r.gzip, 0));
const heavy = rows.filter((r) => kb(r.gzip) > CHUNK_BUDGET_KB);
console.log(`\n* before the login form: ${startGzip.toFixed(1)} KB gzip in ${start.size} scripts (budget ${START_BUDGET_KB} KB); ${rows.length} chunks in all`);
if (startGzip > START_BUDGET_KB || heavy.length) {
  for (const r of heavy) console.error(`${r.file}: ${kb(r.gzip).toFixed(1)} KB gzip, past the ${CHUNK_BUDGET_KB} KB of a chunk`);
  if (startGzip > START_BUDGET_KB) console.error(`the start is ${startGzip.toFixed(1)} KB gzip, past its budget of ${START_BUDGET_KB} KB`);
  process.exit(1);
}
