/**
 * `npm start` and `npm run demo` build the console only when it has no build yet or its sources
 * (the console's, the contracts', index.html, the Vite config) changed since, a pull or an edit;
 * and say which, so a start that takes a minute longer says why.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../../..');
const BUILT = join(ROOT, 'apps/web/dist/index.html');

/** The newest modification time of the files under `path` (0 when there is none). */
function newestChange(path: string): number {
  if (!existsSync(path)) return 0;
  if (statSync(path).isFile()) return statSync(path).mtimeMs;
  return Math.max(0, ...readdirSync(path, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => statSync(join(e.parentPath, e.name)).mtimeMs));
}

/** Why the console must be built again, or null when its build is newer than every source. */
export function staleReason(): string | null {
  if (!existsSync(BUILT)) return 'it has no build yet';
  const sources = ['apps/web/src', 'packages/contracts/src', 'apps/web/index.html', 'apps/web/vite.config.ts', 'apps/web/package.json'];
  const changed = sources.filter((s) => newestChange(join(ROOT, s)) > statSync(BUILT).mtimeMs);
  return changed.length ? `${changed.join(', ')} changed since the last build` : null;
}

const reason = staleReason();
if (reason === null) {
  console.log('The console is built and its sources have not changed since: not building it again.');
} else {
  console.log(`Building the console (${reason}); this takes a minute or two.`);
  const build = spawnSync('npm', ['run', 'build', '--workspace', 'apps/web'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) {
    console.error('The console build failed: see the lines above.');
    process.exit(build.status ?? 1);
  }
}
