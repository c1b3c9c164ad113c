// Builds the console and runs Playwright against it on a free port (or E2E_PORT). Every file of
// the run (the build, the server's embedded database, Playwright's caches, Chromium's profiles)
// goes to one folder that is removed afterwards: a run leaves nothing behind, and two runs side
// by side share neither a port nor a build.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A TCP port on 127.0.0.1 that nothing listens on now, so two runs side by side do not meet. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const port = process.env.E2E_PORT ?? String(await freePort());
// The cloud-mode server of the `*.cloud.spec.ts` files (playwright.config.ts).
const cloudPort = process.env.E2E_CLOUD_PORT ?? String(await freePort());
// The main server's Prometheus listener, which operations.spec.ts scrapes.
const metricsPort = process.env.E2E_METRICS_PORT ?? String(await freePort());
const runDir = mkdtempSync(join(tmpdir(), 'pagewatch-e2e-'));
const env = { ...process.env, E2E_PORT: port, E2E_CLOUD_PORT: cloudPort, E2E_METRICS_PORT: metricsPort, TMPDIR: runDir, E2E_DATA_DIR: join(runDir, 'data'), E2E_OUTPUT_DIR: join(runDir, 'results'), PAGEWATCH_WEB_DIST: join(runDir, 'web') };
const removeRunDir = () => rmSync(runDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });

const build = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', env.PAGEWATCH_WEB_DIST, '--emptyOutDir'], { cwd: join(import.meta.dirname, '../apps/web'), stdio: 'inherit', env });
if (build.status !== 0) {
  removeRunDir();
  process.exit(build.status ?? 1);
}
// The console's weight is part of the suite: the chunks are listed, and a start past its budget fails (issue 22).
const sizes = spawnSync(process.execPath, [join(import.meta.dirname, '../apps/web/scripts/chunk-sizes.ts'), env.PAGEWATCH_WEB_DIST], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
console.log(sizes.stdout.split('\n').filter((l) => l.startsWith('*')).join('\n'));
if (sizes.status !== 0) {
  removeRunDir();
  process.exit(sizes.status ?? 1);
}
const child = spawn('npx', ['playwright', 'test', ...process.argv.slice(2)], { stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => {
  // A failed run keeps its traces where Playwright's report looks for them; E2E_KEEP=1 keeps a
  // passing run's screenshots too, to look at the screens.
  if ((code !== 0 || process.env.E2E_KEEP) && existsSync(env.E2E_OUTPUT_DIR)) {
    const kept = join(import.meta.dirname, 'test-results');
    rmSync(kept, { recursive: true, force: true });
    cpSync(env.E2E_OUTPUT_DIR, kept, { recursive: true });
    console.error(`The tests' output (screenshots, failed tests' traces) is in ${kept} (npx playwright show-trace <trace.zip>).`);
  }
  removeRunDir();
  process.exit(code ?? (signal ? 1 : 0));
});
