import { queueAt, queuePayload, type Fixture } from './authorization-world.ts';

/**
 * The matrix's fixtures that differ in cloud mode (`authorization-matrix-cloud.test.ts`): what
 * cloud mode keeps at the DEFAULT location (spec section 6: MNU_SETTINGS, MNU_QUEUES) is refused
 * to a customer's users whatever their grants, like the default administrator's own routes; a
 * queue of the customer's own agent included.
 */
export const CLOUD_ROUTES: Record<string, Fixture> = {
  'GET /api/settings/': { kind: 'instance', request: () => ({ url: '/api/settings/' }) },
  // Print queues: the operators' at DEFAULT; a customer's ADMIN is refused even its own agent's.
  ...Object.fromEntries(
    ['/api/queues', '/api/queues/page', '/api/queues-v', '/api/queues-v/page', '/api/queue-jobs/page'].map((url) => [`GET ${url}`, { kind: 'instance', request: () => ({ url }) } satisfies Fixture]),
  ),
  'GET /api/queues/:id': { kind: 'instance', request: async (w) => ({ url: `/api/queues/${await queueAt(w, w.loc.IN)}` }) },
  'POST /api/queues': { kind: 'instance', request: async (w) => ({ url: '/api/queues', payload: await queuePayload(w, w.loc.IN) }) },
  'PUT /api/queues/:id': { kind: 'instance', request: async (w) => ({ url: `/api/queues/${await queueAt(w, w.loc.IN)}`, payload: await queuePayload(w, w.loc.IN) }) },
  'POST /api/queues/:id/reset': { kind: 'instance', request: async (w) => ({ url: `/api/queues/${await queueAt(w, w.loc.IN)}/reset` }) },
  'DELETE /api/queues/:id': { kind: 'instance', ok: 204, request: async (w) => ({ url: `/api/queues/${await queueAt(w, w.loc.IN)}` }) },
};
