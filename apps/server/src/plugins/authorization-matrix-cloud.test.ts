import { it } from 'vitest';
import { authorizationMatrix } from '../test/authorization-matrix.ts';

// Cloud mode (PAGEWATCH_CLOUD): the same matrix with IN and OUT as two customers, so no
// customer reads or changes another's users, devices, agents, logs, reports, notifications
// or licenses (security.md: every rule holds in both modes).
if (process.env.PAGEWATCH_TEST_DB === 'postgres') {
  it.skip('cloud matrix: PGlite only, since the rules are the server code and the normal matrix runs on both databases (saves 2.5 min of CI)');
} else {
  await authorizationMatrix({ cloud: true });
}
