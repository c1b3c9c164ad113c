import { authorizationMatrix } from '../test/authorization-matrix.ts';

// Cloud mode (PAGEWATCH_CLOUD): the same matrix with IN and OUT as two customers, so no
// customer reads or changes another's users, devices, agents, logs, reports, notifications
// or licenses (security.md: every rule holds in both modes).
await authorizationMatrix({ cloud: true });
