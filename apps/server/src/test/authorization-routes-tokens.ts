import { bearer, signIn } from './test-app.ts';
import type { Fixture, World } from './authorization-world.ts';

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

/** An API token of the user whose session is `session`. */
export async function mintApiToken(w: World, session: string): Promise<{ id: number; token: string }> {
  const res = await w.app.inject({ method: 'POST', url: '/api/users/me/tokens', headers: bearer(session), payload: { name: 'matrix', expiresInDays: 1 } });
  if (res.statusCode !== 200) throw new Error(`API token failed: ${res.statusCode} ${res.body}`);
  return res.json();
}
