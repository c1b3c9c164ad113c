import { createHash, randomBytes } from 'node:crypto';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet, type JWTPayload } from 'jose';
import type { OidcSettings } from '@pagewatch/contracts/identity-providers';
import { OutboundRefused, requestTo, resolveOutbound } from '../../lib/outbound.ts';
import { ProviderUnreachable, refusalKey, refusalText } from './provider-address.ts';

/** The provider could not be asked (down, not an OpenID provider, a network error). */
export class ProviderUnavailable extends ProviderUnreachable {}
/** The provider's answer is not one to trust (a bad code, a token that does not check out). */
export class ProviderRefused extends Error {}

type Discovery = { issuer: string; authorization_endpoint: string; token_endpoint: string; jwks_uri: string; userinfo_endpoint?: string };
/** Where the provider is asked, and whether its addresses may be internal (the provider's setting). */
export type OidcTarget = OidcSettings & { allowInternal: boolean };

/** A discovery document, a key set or a token answer is far below this. */
const JSON_MAX = 1024 * 1024;

/**
 * A JSON answer from the provider. Every address is checked as a notification channel's is
 * (lib/outbound: SSRF), the issuer's and every endpoint its discovery document names alike, and
 * the request goes to the address checked: DNS may answer otherwise than at save.
 */
async function getJson(url: string, allowInternal: boolean, init: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string } = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  let answer: { status: number; body: string };
  try {
    const target = await resolveOutbound(url, allowInternal);
    answer = await requestTo(target, { method: init.method ?? 'GET', headers: init.headers, body: init.body, max: JSON_MAX });
  } catch (err) {
    if (err instanceof OutboundRefused) throw new ProviderUnavailable(`${url}: ${refusalText(err)}`, refusalKey(err), err.params);
    throw new ProviderUnavailable(`${url}: ${(err as Error).message}`, 'idp.test.unreachable', {});
  }
  let body: unknown = null;
  try {
    body = JSON.parse(answer.body);
  } catch {
    body = null;
  }
  if (!body || typeof body !== 'object') throw new ProviderUnavailable(`${url}: HTTP ${answer.status}, not JSON`, 'idp.test.notJson', { url, status: answer.status });
  return { status: answer.status, body: body as Record<string, unknown> };
}

/** The provider's discovery document, whose issuer must be the one configured (OpenID Connect Discovery, 4.3). */
export async function discover(s: OidcTarget): Promise<Discovery> {
  const issuer = s.issuer.replace(/\/+$/, '');
  const { status, body } = await getJson(`${issuer}/.well-known/openid-configuration`, s.allowInternal);
  const doc = body as Partial<Discovery>;
  if (status !== 200 || !doc.authorization_endpoint || !doc.token_endpoint || !doc.jwks_uri) throw new ProviderUnavailable(`${issuer}: no discovery document`, 'idp.test.noDiscovery', { status });
  if (doc.issuer !== s.issuer && doc.issuer !== issuer) throw new ProviderUnavailable(`${issuer}: the discovery document names the issuer ${doc.issuer}`, 'idp.test.otherIssuer', { issuer: String(doc.issuer) });
  return doc as Discovery;
}

/** The provider's signing keys, read at each sign-in (one small request: a rotated key is never missed). */
export async function keysOf(doc: Discovery, s: OidcTarget): Promise<JSONWebKeySet> {
  const { status, body } = await getJson(doc.jwks_uri, s.allowInternal);
  if (status !== 200 || !Array.isArray(body.keys)) throw new ProviderUnavailable(`${doc.jwks_uri}: HTTP ${status}, no key set`, 'idp.test.noKeys', { status });
  return { keys: body.keys };
}

/** A sign-in's own values: state, nonce and the PKCE verifier (RFC 7636, S256). */
export function newAttempt() {
  return { state: randomBytes(24).toString('base64url'), nonce: randomBytes(24).toString('base64url'), verifier: randomBytes(32).toString('base64url') };
}

export function authorizationUrl(doc: Discovery, s: OidcSettings, redirectUri: string, a: { state: string; nonce: string; verifier: string }): string {
  const url = new URL(doc.authorization_endpoint);
  const params = {
    response_type: 'code',
    client_id: s.clientId,
    redirect_uri: redirectUri,
    scope: s.scopes,
    state: a.state,
    nonce: a.nonce,
    code_challenge: createHash('sha256').update(a.verifier).digest('base64url'),
    code_challenge_method: 'S256',
  };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
}

/**
 * Trades the code for tokens (the client authenticated with its secret, HTTP Basic) and checks
 * the id token: signed by a key of the provider's set, by the configured issuer, for this client,
 * not expired, with this sign-in's nonce. The claims: the id token's, with the userinfo's beside.
 */
export async function redeemCode(doc: Discovery, s: OidcTarget, secret: string, redirectUri: string, code: string, a: { nonce: string; verifier: string }): Promise<JWTPayload> {
  const basic = Buffer.from(`${encodeURIComponent(s.clientId)}:${encodeURIComponent(secret)}`).toString('base64');
  const { status, body } = await getJson(doc.token_endpoint, s.allowInternal, {
    method: 'POST',
    headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: a.verifier }).toString(),
  });
  if (status !== 200 || typeof body.id_token !== 'string') throw new ProviderRefused(`token endpoint: HTTP ${status} ${String(body.error ?? '')}`);
  const keys = createLocalJWKSet(await keysOf(doc, s));
  let claims: JWTPayload;
  try {
    ({ payload: claims } = await jwtVerify(body.id_token, keys, { issuer: doc.issuer, audience: s.clientId, requiredClaims: ['sub', 'exp', 'iat'] }));
  } catch (err) {
    throw new ProviderRefused(`id token: ${(err as Error).message}`);
  }
  if (claims.nonce !== a.nonce) throw new ProviderRefused('id token: another nonce');
  if (Array.isArray(claims.aud) && claims.aud.length > 1 && claims.azp !== s.clientId) throw new ProviderRefused('id token: another authorized party');
  if (doc.userinfo_endpoint && typeof body.access_token === 'string') {
    const info = await getJson(doc.userinfo_endpoint, s.allowInternal, { headers: { authorization: `Bearer ${body.access_token}`, accept: 'application/json' } });
    // The userinfo's subject must be the id token's (OpenID Connect Core, 5.3.2).
    if (info.status === 200 && info.body.sub === claims.sub) claims = { ...info.body, ...claims };
  }
  return claims;
}
