import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import { discover, ProviderRefused, redeemCode } from './oidc-client.ts';

/**
 * The id token's checks (issue 55): what the real provider of oidc-sign-in.test.ts always signs
 * right, a token endpoint on 127.0.0.1 signs wrong here, one way at a time: another key, another
 * issuer, another audience, expired, another nonce. Each is refused.
 */
let server: Server;
let issuer: string;
let key: CryptoKey;
let stranger: CryptoKey;
let next: { claims: JWTPayload; signWith?: CryptoKey } = { claims: {} };

beforeAll(async () => {
  const pair = await generateKeyPair('RS256');
  key = pair.privateKey;
  ({ privateKey: stranger } = await generateKeyPair('RS256'));
  const own = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  server = createServer(async (req, res) => {
    const send = (body: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.url === '/.well-known/openid-configuration') return send({ issuer, authorization_endpoint: `${issuer}/auth`, token_endpoint: `${issuer}/token`, jwks_uri: `${issuer}/jwks` });
    if (req.url === '/jwks') return send({ keys: [own] });
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({ iss: issuer, aud: 'pagewatch', sub: 'anna', nonce: 'the-nonce', iat: now, exp: now + 300, ...next.claims })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .sign(next.signWith ?? key);
    send({ id_token: token, token_type: 'Bearer' });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  issuer = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const settings = (allowInternal = true) => ({ issuer, clientId: 'pagewatch', scopes: 'openid', groupsClaim: 'groups', loginClaim: 'preferred_username', allowInternal });
const redeem = async () => redeemCode(await discover(settings()), settings(), 'secret', 'http://127.0.0.1/cb', 'code', { nonce: 'the-nonce', verifier: 'v' });

describe('the id token', () => {
  it('is taken when it is signed by the provider\'s key, for this client, in time, with this nonce', async () => {
    next = { claims: {} };
    expect((await redeem()).sub).toBe('anna');
  });

  for (const [what, change] of [
    ['signed by another key', { claims: {}, signWith: 'stranger' }],
    ['of another issuer', { claims: { iss: 'http://evil.test' } }],
    ['for another client', { claims: { aud: 'someone-else' } }],
    ['expired', { claims: { exp: Math.floor(Date.now() / 1000) - 600, iat: Math.floor(Date.now() / 1000) - 1200 } }],
    ['of another sign-in (nonce)', { claims: { nonce: 'replayed' } }],
  ] as const) {
    it(`is refused when ${what}`, async () => {
      next = { claims: change.claims, signWith: 'signWith' in change ? stranger : undefined };
      await expect(redeem()).rejects.toBeInstanceOf(ProviderRefused);
    });
  }
});

describe('the provider\'s address', () => {
  it('is refused at loopback unless internal addresses are allowed, at every request (SSRF)', async () => {
    await expect(discover(settings(false))).rejects.toThrow(/loopback or link-local/);
    expect((await discover(settings(true))).jwks_uri).toBe(`${issuer}/jwks`);
  });
});

