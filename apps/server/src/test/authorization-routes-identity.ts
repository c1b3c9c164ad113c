import { unique, type Fixture, type World } from './authorization-world.ts';

/** An LDAP provider's body at the location, mapping a group to OPERATOR there (a role every holder may hand out). */
const providerPayload = (w: World, locationId: number) => ({
  kind: 'LDAP',
  name: unique('idp'),
  locationId,
  enabled: true,
  allowInternal: true,
  secret: 'matrix-bind-password',
  mappings: [{ group: 'matrix', roleId: w.roleIds.OPERATOR, locationId }],
  ldap: { url: 'ldap://127.0.0.1:9', bindDn: 'cn=reader,dc=matrix', userBase: 'ou=people,dc=matrix', groupBase: 'ou=groups,dc=matrix' },
});
const providerAt = async (w: World, locationId: number): Promise<number> => (await w.asRoot('POST', '/api/identity-providers', providerPayload(w, locationId))).id;

/** The authorisation matrix's identity providers (issue 55; see authorization-routes.ts, "ADDING A ROUTE"). */
export const IDENTITY_PROVIDER_ROUTES: Record<string, Fixture> = {
  // Signing in through them: anyone (ldap-sign-in.test.ts and oidc-sign-in.test.ts).
  'GET /api/auth/providers': { kind: 'public' },
  'POST /api/auth/providers/:id': { kind: 'public' },
  // Public too, but they answer with redirects to the provider or the login page, not JSON.
  'GET /api/auth/oidc/:id/start': { kind: 'skip', reason: 'public; a redirect, not JSON (oidc-sign-in.test.ts)' },
  'GET /api/auth/oidc/:id/callback': { kind: 'skip', reason: 'public; a redirect, not JSON (oidc-sign-in.test.ts)' },
  'POST /api/auth/sso-ticket': { kind: 'public' },
  'GET /api/identity-providers': {
    kind: 'list',
    seed: async (w) => ({ inside: [await providerAt(w, w.loc.IN_CHILD)], outside: [await providerAt(w, w.loc.OUT)] }),
    request: () => ({ url: '/api/identity-providers' }),
    rows: (b: { id: number }[]) => b.map((p) => p.id),
  },
  'GET /api/identity-providers/:id': { kind: 'item', request: async (w, at) => ({ url: `/api/identity-providers/${await providerAt(w, at)}` }) },
  'POST /api/identity-providers': { kind: 'item', request: async (w, at) => ({ url: '/api/identity-providers', payload: providerPayload(w, at) }) },
  'PUT /api/identity-providers/:id': { kind: 'item', request: async (w, at) => ({ url: `/api/identity-providers/${await providerAt(w, at)}`, payload: providerPayload(w, at) }) },
  // Tested against the real slapd and oidc-provider in ldap-sign-in.test.ts and oidc-sign-in.test.ts;
  // here the matrix's address answers nothing, which is a 200 saying so.
  'POST /api/identity-providers/test': { kind: 'item', request: async (w, at) => ({ url: '/api/identity-providers/test', payload: providerPayload(w, at) }) },
  'POST /api/identity-providers/:id/test': { kind: 'item', request: async (w, at) => ({ url: `/api/identity-providers/${await providerAt(w, at)}/test`, payload: providerPayload(w, at) }) },
  'DELETE /api/identity-providers/:id': { kind: 'item', ok: 204, request: async (w, at) => ({ url: `/api/identity-providers/${await providerAt(w, at)}` }) },
};
