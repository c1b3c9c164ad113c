// Runs Playwright with every temporary file of the run (the server's embedded database,
// Playwright's caches, Chromium's profiles) in one folder that is removed afterwards, so a run
// leaves nothing behind in the system's temporary folder.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const runDir = mkdtempSync(join(tmpdir(), 'pagewatch-e2e-'));
const child = spawn('npx', ['playwright', 'test', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, TMPDIR: runDir, E2E_DATA_DIR: join(runDir, 'data') },
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => {
  rmSync(runDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  process.exit(code ?? (signal ? 1 : 0));
});
