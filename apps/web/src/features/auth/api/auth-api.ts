import type { DemoRequest, LoginResponse } from '@pagewatch/contracts/auth';
import type { IdpChoice } from '@pagewatch/contracts/identity-providers';
import { api, apiBase, basicAuth } from '../../../lib/api.ts';

type Message = { message: string };

export const authKeys = {
  restoreToken: (token: string) => ['restore-token', token] as const,
};

/** `POST /auth/` with Basic credentials and no body (spec section 7). */
export function login(userName: string, password: string, remember: boolean) {
  return api<LoginResponse>('/auth/', {
    method: 'POST',
    query: new URLSearchParams({ remember: String(remember) }),
    headers: { Authorization: basicAuth(userName, password) },
    public: true,
  });
}

export function forgotPassword(login: string) {
  return api<Message>('/auth/forgot-password', { method: 'POST', body: { login }, public: true });
}

export function checkRestoreToken(token: string) {
  return api<{ valid: boolean }>(`/auth/restore-password/${encodeURIComponent(token)}`, { public: true });
}

export function restorePassword(token: string, password: string, passwordConfirmation: string) {
  return api<Message>(`/auth/restore-password/${encodeURIComponent(token)}`, {
    method: 'POST',
    body: { password, passwordConfirmation },
    public: true,
  });
}

export function requestDemo(request: DemoRequest) {
  return api<Message>('/auth/demo-request', { method: 'POST', body: request, public: true });
}

/** The identity providers the login page offers (issue 55), by name; in cloud mode those of the location `at` only. */
export function listProviders(at: string | null) {
  return api<IdpChoice[]>('/auth/providers', { public: true, ...(at ? { query: new URLSearchParams({ at }) } : {}) });
}

/** The query of a sign-in through a provider: `remember`, and the sign-in address's location (`at`). */
const signInQuery = (remember: boolean, at: string | null) => new URLSearchParams({ remember: String(remember), ...(at ? { at } : {}) });

/** `POST /auth/providers/:id`: the login and password, checked by the directory. */
export function loginWithDirectory(providerId: number, userName: string, password: string, remember: boolean, at: string | null) {
  return api<LoginResponse>(`/auth/providers/${providerId}`, {
    method: 'POST',
    query: signInQuery(remember, at),
    headers: { Authorization: basicAuth(userName, password) },
    public: true,
  });
}

/** Where "Sign in with <provider>" goes for an OpenID provider: the server redirects on to it. */
export const oidcStartUrl = (providerId: number, remember: boolean, at: string | null) => `${apiBase()}/auth/oidc/${providerId}/start?${signInQuery(remember, at)}`;

/** The session of the one-time ticket an OpenID sign-in came back with. */
export function redeemSsoTicket(ticket: string, remember: boolean) {
  return api<LoginResponse>('/auth/sso-ticket', { method: 'POST', query: new URLSearchParams({ remember: String(remember) }), body: { ticket }, public: true });
}

/** The sign-in page's identity providers (issue 55). */
export const SSO_PROVIDERS_KEY = ['sso-providers'] as const;
export const ssoProvidersKey = (at: string | null) => [...SSO_PROVIDERS_KEY, at ?? ''] as const;
