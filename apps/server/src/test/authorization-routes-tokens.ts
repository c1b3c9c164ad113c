import { signIn } from './test-app.ts';
import { mintApiToken, type Fixture } from './authorization-world.ts';

/**
 * The authorisation matrix's API token routes (issue 42; see authorization-routes.ts, "ADDING A
 * ROUTE"): every user manages their own tokens, so each is about the caller.
 */
export const API_TOKEN_ROUTES: Record<string, Fixture> = {
  'GET /api/users/me/tokens': { kind: 'self', request: async () => ({ url: '/api/users/me/tokens' }) },
  'POST /api/users/me/tokens': { kind: 'self', request: async () => ({ url: '/api/users/me/tokens', payload: { name: 'matrix', expiresInDays: 1 } }) },
  'DELETE /api/users/me/tokens/:id': {
    kind: 'self',
    ok: 204,
    // Made with a session of the caller's own: the caller may be on an API token in this run.
    request: async (w, c) => ({ url: `/api/users/me/tokens/${(await mintApiToken(w, await signIn(w.app, c.login, c.password))).id}` }),
  },
};
