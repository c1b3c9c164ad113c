import { authorizationMatrix } from '../test/authorization-matrix.ts';

// The matrix itself (what it checks, and how) is in test/authorization-matrix.ts; cloud mode
// runs it again in authorization-matrix-cloud.test.ts.
await authorizationMatrix({ cloud: false });
