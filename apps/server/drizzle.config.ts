import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  // Core tables in db/schema.ts; each domain may add modules/<domain>/<domain>.schema.ts.
  schema: ['./src/db/schema.ts', './src/modules/*/*.schema.ts', './src/jobs/*.schema.ts'],
  out: './drizzle',
});
