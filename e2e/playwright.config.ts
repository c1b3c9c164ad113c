import { defineConfig } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// The real server on a fresh embedded database, serving the built console.
const port = Number(process.env.E2E_PORT ?? 18181);
export const adminPassword = 'e2e-Admin-pass1';
// e2e/run.ts gives a folder that it removes after the run; a bare `playwright test` gets one in
// the temporary folder. Set once, in the environment, so Playwright's workers reuse it.
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'pagewatch-e2e-'));
const dataDir = process.env.E2E_DATA_DIR;
// The server's request log is thousands of lines: warnings and errors only, unless asked for.
const serverLogLevel = process.env.E2E_SERVER_LOG ? 'info' : 'warn';
// Cloud mode is a start-up setting: the `*.cloud.spec.ts` files get a second server of their own,
// started with PAGEWATCH_CLOUD=true on the next port, on a database of its own. It knows its own
// address (PAGEWATCH_PUBLIC_URL), which single sign-on's redirect URI is made of (sso.cloud.spec.ts).
const cloudPort = Number(process.env.E2E_CLOUD_PORT ?? port + 1);
/** The main server's metrics listener (operations.spec.ts); e2e/run.ts picks a free port. */
export const metricsPort = Number(process.env.E2E_METRICS_PORT ?? port + 2);

const server = (p: number, data: string, extra: Record<string, string>) => ({
  command: 'node ../apps/server/src/main.ts',
  url: `http://127.0.0.1:${p}/config.json`,
  reuseExistingServer: false,
  timeout: 120_000,
  stdout: 'pipe' as const,
  env: {
    PORT: String(p),
    HOST: '127.0.0.1',
    PAGEWATCH_DATA_DIR: data,
    PAGEWATCH_ADMIN_PASSWORD: adminPassword,
    DATABASE_URL: '',
    LOG_LEVEL: serverLogLevel,
    ...extra,
  },
});

export default defineConfig({
  testDir: './tests',
  // e2e/run.ts gives each run a folder of its own, so runs side by side do not delete each other's.
  outputDir: process.env.E2E_OUTPUT_DIR ?? 'test-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  // CI machines have 2 cores; give screens that load data a little more than the 5 s default.
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' },
    trace: 'retain-on-failure',
  },
  projects: [
    { name: 'default', testIgnore: /\.cloud\.spec\.ts$/ },
    { name: 'cloud', testMatch: /\.cloud\.spec\.ts$/, use: { baseURL: `http://127.0.0.1:${cloudPort}` } },
  ],
  webServer: [server(port, dataDir, { PAGEWATCH_METRICS_PORT: String(metricsPort), PAGEWATCH_DEVICE_WEB_ORIGIN: `http://*.localhost:${port}` }), server(cloudPort, `${dataDir}-cloud`, { PAGEWATCH_CLOUD: 'true', PAGEWATCH_PUBLIC_URL: `http://127.0.0.1:${cloudPort}` })],
});
