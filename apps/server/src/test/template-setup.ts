import type { TestProject } from 'vitest/node';
import { pgliteTemplate, postgresTemplate } from './template-database.ts';

/**
 * Vitest's global set-up of the server projects: makes the migrated template before any test
 * file starts, outside the hooks' timeout (minutes on a loaded machine the first time; a file
 * read or a look-up in pg_database once made).
 */
export default async function setup(project: TestProject) {
  if (project.config.env.PAGEWATCH_TEST_DB === 'postgres') await postgresTemplate(process.env.DATABASE_URL!);
  else await pgliteTemplate();
}
