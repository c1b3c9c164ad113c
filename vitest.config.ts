import { configDefaults, defineConfig } from 'vitest/config';

// One runner for every workspace. The server project runs once per database: PGlite always,
// PostgreSQL too when DATABASE_URL is set (CI sets it).
const serverDbs = ['pglite', ...(process.env.DATABASE_URL ? ['postgres'] : [])];

// Two test files at a time: most of a file's time is imports, PGlite's own CPU or waits on
// sockets, so two workers on two cores halve the suite. The files below hold a wall-clock bound
// (a health answer under a second while an export runs, an SNMP answer timed as slow or not,
// a short statement not queued behind slow ones): they run after the rest, one at a time, so
// that another file's work never decides them.
const TIMED = {
  agent: [
    'apps/agent/src/discovery/sweep-timing.test.ts',
    'apps/agent/src/queues/read-queues.test.ts',
    'apps/agent/src/run/lossy-poll.test.ts',
    'apps/agent/test/agent-runner.test.ts',
    // Counts a printer as slow or not by its answer times: at load 27 a normal one was slow.
    'apps/agent/test/run-summary.integration.test.ts',
  ],
  server: [
    'apps/server/src/db/backup.test.ts',
    'apps/server/src/db/pipelined-pool.test.ts',
    'apps/server/src/jobs/history-housekeeping.test.ts',
    'apps/server/src/modules/agents/agent-run-flood.test.ts',
    'apps/server/src/modules/locations/locations.plan-load.test.ts',
    'apps/server/src/modules/notifications/outbox.kill.test.ts',
    'apps/server/src/modules/reports/reports.exports.test.ts',
    'apps/server/src/plugins/health.test.ts',
  ],
};

/** A project's files in two projects: the parallel one, and its timed files alone (`:timed`). */
function split(name: string, include: string[], timed: string[], test: Record<string, unknown> = {}) {
  return [
    { test: { ...test, name, include, exclude: [...configDefaults.exclude, ...timed] } },
    { test: { ...test, name: `${name}:timed`, include: timed, maxWorkers: 1 } },
  ];
}

export default defineConfig({
  test: {
    maxWorkers: 2,
    projects: [
      // Their tests compute, but a test that imports every module of a package (list.test.ts)
      // spent 5.2 s on imports at load 27: Vitest's default 5 s is a bound of the machine's load,
      // not of the code's speed.
      {
        test: {
          name: 'contracts',
          include: ['packages/contracts/src/**/*.test.ts'],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'snmp',
          include: ['packages/snmp/src/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.ts'],
          testTimeout: 30_000,
        },
      },
      ...split('agent', ['apps/agent/{src,test}/**/*.test.ts', 'tools/**/src/**/*.test.ts'], TIMED.agent, {
        testTimeout: 60_000,
        hookTimeout: 120_000,
      }),
      ...serverDbs.flatMap((db) => split(`server-${db}`, ['apps/server/src/**/*.test.ts'], TIMED.server, {
        env: { PAGEWATCH_TEST_DB: db },
        // Each test file's database is a copy of one migrated before the files start.
        globalSetup: ['apps/server/src/test/template-setup.ts'],
        testTimeout: 30_000,
        hookTimeout: 60_000,
      })),
    ],
  },
});
