import { it } from 'vitest';
import { authorizationMatrix } from '../test/authorization-matrix.ts';

// The matrix again with every caller on a personal API token instead of a session (issue 42): a
// token acts with its user's grants and locations, never more, and is refused on the
// session-only routes. PGlite only, like the cloud run: the rules are the server's code, and the
// session matrix runs on both databases.
if (process.env.PAGEWATCH_TEST_DB === 'postgres') {
  it.skip('API token matrix: PGlite only (the session matrix runs on both databases)');
} else {
  await authorizationMatrix({ cloud: false, viaApiToken: true });
}
