import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  // The database's shared schema: one file of tables per domain.
  schema: ['./src/db/schema/*.ts'],
  out: './drizzle',
});
