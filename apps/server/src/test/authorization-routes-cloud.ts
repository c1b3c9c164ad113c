import type { Fixture } from './authorization-routes.ts';

/**
 * The matrix's fixtures that differ in cloud mode (`authorization-matrix-cloud.test.ts`): what
 * cloud mode keeps at the DEFAULT location (spec section 6: MNU_SETTINGS, MNU_QUEUES) is refused
 * to a customer's users whatever their grants, like the default administrator's own routes.
 */
export const CLOUD_ROUTES: Record<string, Fixture> = {
  'GET /api/settings/': { kind: 'instance', request: () => ({ url: '/api/settings/' }) },
};
