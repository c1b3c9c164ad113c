import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  // Each domain's tables are in modules/<domain>/<domain>.tables.ts; the jobs' in jobs/.
  schema: ['./src/modules/*/*.tables.ts', './src/jobs/*.tables.ts'],
  out: './drizzle',
});
