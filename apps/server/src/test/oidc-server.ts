import { createServer, type Server } from 'node:http';
import Provider from 'oidc-provider';

export type OidcAccount = { sub: string; email: string; name: string; familyName: string; groups: string[] };
export type OidcServer = { issuer: string; close: () => Promise<void> };

/**
 * A real OpenID provider (the npm oidc-provider) on 127.0.0.1 at `port`: one confidential client
 * that must use PKCE, the accounts given (any password signs in; the login names the account),
 * its own quick-start login and consent pages, and a `groups` claim.
 */
export async function startOidcServer(port: number, client: { id: string; secret: string; redirectUris: string[] }, accounts: OidcAccount[]): Promise<OidcServer> {
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    clients: [{ client_id: client.id, client_secret: client.secret, redirect_uris: client.redirectUris, grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'client_secret_basic' }],
    pkce: { required: () => true },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'family_name', 'preferred_username'], groups: ['groups'] },
    cookies: { keys: ['pagewatch-test-oidc-cookie-key'] },
    async findAccount(_ctx, id) {
      const a = accounts.find((x) => x.sub === id);
      if (!a) return undefined;
      return { accountId: id, claims: async () => ({ sub: a.sub, email: a.email, email_verified: true, name: a.name, family_name: a.familyName, preferred_username: a.sub, groups: a.groups }) };
    },
  });
  const server: Server = createServer(provider.callback());
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { issuer, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/**
 * Drives a browser's redirect flow with fetch from `url`: follows every redirect with the cookies
 * each host set, fills the provider's login form (login, any password) and its consent form, and
 * stops at the first address of `stopAt`'s origin that does not redirect further into the API.
 */
export async function followSignIn(url: string, login: string, stopAt: string): Promise<URL> {
  const jar = new Map<string, Map<string, string>>();
  const cookieHeader = (u: URL) => [...(jar.get(u.host) ?? new Map()).entries()].map(([k, v]) => `${k}=${v}`).join('; ');
  const keep = (u: URL, res: Response) => {
    const m = jar.get(u.host) ?? new Map<string, string>();
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const i = pair!.indexOf('=');
      m.set(pair!.slice(0, i), pair!.slice(i + 1));
    }
    jar.set(u.host, m);
  };
  let next = new URL(url);
  let body: string | undefined;
  for (let hop = 0; hop < 20; hop++) {
    const res = await fetch(next, { method: body ? 'POST' : 'GET', redirect: 'manual', headers: { cookie: cookieHeader(next), ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) }, body });
    keep(next, res);
    body = undefined;
    const location = res.headers.get('location');
    if (location) {
      next = new URL(location, next);
      if (next.origin === new URL(stopAt).origin && !next.pathname.startsWith('/api/')) return next;
      continue;
    }
    const html = await res.text();
    const form = /<form[^>]*action="([^"]+)"[^>]*method="post"/.exec(html);
    if (!form) throw new Error(`no redirect and no form at ${next}: ${res.status} ${html.slice(0, 300)}`);
    const prompt = /name="prompt" value="([^"]+)"/.exec(html)?.[1] ?? '';
    body = new URLSearchParams({ prompt, ...(prompt === 'login' ? { login, password: 'any-password' } : {}) }).toString();
    next = new URL(form[1]!.replace(/&amp;/g, '&'), next);
  }
  throw new Error('too many hops');
}
