import { defineConfig } from 'vitest/config';

// One runner for every workspace. The server project runs once per database: PGlite always,
// PostgreSQL too when DATABASE_URL is set (CI sets it).
const serverDbs = ['pglite', ...(process.env.DATABASE_URL ? ['postgres'] : [])];

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'contracts',
          include: ['packages/contracts/src/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'agent',
          include: ['apps/agent/{src,test}/**/*.test.ts', 'tools/**/src/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      ...serverDbs.map((db) => ({
        test: {
          name: `server-${db}`,
          include: ['apps/server/src/**/*.test.ts'],
          env: { PAGEWATCH_TEST_DB: db },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      })),
    ],
  },
});
