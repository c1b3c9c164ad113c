import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  // Core tables in db/tables.ts; each domain may add modules/<domain>/<domain>.tables.ts.
  schema: ['./src/db/tables.ts', './src/modules/*/*.tables.ts', './src/jobs/*.tables.ts'],
  out: './drizzle',
});
