import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParams } from '@pagewatch/contracts/fields';
import { loginQuerySchema, loginResponseSchema } from '@pagewatch/contracts/auth';
import { idpChoiceSchema, idpInputSchema, idpSchema, idpTestResultSchema, signInAtSchema, ssoTicketSchema } from '@pagewatch/contracts/identity-providers';
import { routeTable } from '../../plugins/route-table.ts';
import type { AppContext } from '../../app-context.ts';
import { namedLang, pickLang } from '../../i18n/messages.ts';
import { parseBasic } from '../auth/index.ts';
import { ATTEMPT_COOKIE, SsoRefused } from './sso.service.ts';

const callbackQuery = z.object({
  code: z.string().max(2000).optional(),
  state: z.string().max(200).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(2000).optional(),
  iss: z.string().max(500).optional(),
});

/** In cloud mode a provider is signed in with from its location's sign-in address only (`at`). */
const signInQuery = loginQuerySchema.extend(signInAtSchema.shape);

const cookieOf = (header: string | undefined, name: string) => {
  for (const part of (header ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
};

/**
 * Identity providers (issue 55): kept in the console with MNU_IDENTITY_PROVIDERS within the
 * caller's locations; signed in with by anyone, through a directory's password or an OpenID
 * provider's redirects. The OpenID routes answer with redirects, never an error page: the
 * console's login page says what went wrong, in the user's language.
 */
export async function identityProvidersRoutes(root: FastifyInstance, ctx: Pick<AppContext, 'identityProviders' | 'sso'>) {
  // Session only, as the settings: a provider decides who signs in, and holds a secret.
  const r = routeTable(root, ['identity-providers'], { sessionOnly: true });
  const svc = ctx.identityProviders;
  const [READ, EDIT] = ['MNU_IDENTITY_PROVIDERS.READ', 'MNU_IDENTITY_PROVIDERS.EDIT'] as const;
  const base = '/api/identity-providers';
  r.get(base, READ, { summary: 'Identity providers of the caller\'s locations (secrets say only whether they are set)', reply: z.array(idpSchema) }, (_req, caller) => svc.list(caller));
  r.get(`${base}/:id`, READ, { params: idParams, reply: idpSchema }, (req, caller) => svc.get(caller, req.params.id));
  r.post(base, EDIT, { body: idpInputSchema, reply: idpSchema }, (req, caller) => svc.create(caller, req.body));
  r.put(`${base}/:id`, EDIT, { params: idParams, body: idpInputSchema, reply: idpSchema }, (req, caller) => svc.update(caller, req.params.id, req.body));
  const testSummary = 'Tests the form\'s values: a directory\'s service bind and searches, or an OpenID provider\'s discovery document and keys (nothing is saved)';
  r.post(`${base}/test`, EDIT, { summary: testSummary, body: idpInputSchema, reply: idpTestResultSchema }, (req, caller) => svc.test(caller, null, req.body, pickLang(req.headers['accept-language'])));
  r.post(`${base}/:id/test`, EDIT, { summary: `${testSummary}; the stored secret when none is typed`, params: idParams, body: idpInputSchema, reply: idpTestResultSchema },
    (req, caller) => svc.test(caller, req.params.id, req.body, pickLang(req.headers['accept-language'])));
  r.delete(`${base}/:id`, EDIT, { params: idParams }, (req, caller) => svc.remove(caller, req.params.id));

  const app = root.withTypeProvider<ZodTypeProvider>();
  const sso = ctx.sso;
  app.get('/api/auth/providers', {
    config: { access: 'public' },
    schema: { tags: ['auth'], summary: 'The identity providers the login page offers (in cloud mode, those of the location `at` only)', querystring: signInAtSchema, response: { 200: z.array(idpChoiceSchema) } },
  }, (req) => svc.choices(req.query.at));

  app.post('/api/auth/providers/:id', {
    config: { access: 'public' },
    schema: { tags: ['auth'], summary: 'Sign in with Basic credentials checked by a directory (LDAP)', params: idParams, querystring: signInQuery, response: { 200: loginResponseSchema } },
  }, (req) => sso.ldapSignIn(req.params.id, req.query.at, parseBasic(req.headers.authorization), req.query.remember === 'true', req.ip, namedLang(req.headers['accept-language'])));

  app.get('/api/auth/oidc/:id/start', {
    config: { access: 'public' },
    schema: { tags: ['auth'], summary: 'Redirects to the OpenID provider (authorization code with PKCE)', params: idParams, querystring: signInQuery },
  }, async (req, reply) => {
    try {
      const { location, attempt } = await sso.oidcStart(req.params.id, req.query.at, req.query.remember === 'true');
      // Lax: the provider sends the browser back with a top-level GET from its own site.
      reply.header('set-cookie', `${ATTEMPT_COOKIE}=${attempt}; Max-Age=600; HttpOnly; SameSite=Lax${req.protocol === 'https' ? '; Secure' : ''}`);
      return reply.redirect(location, 302);
    } catch (err) {
      if (!(err instanceof SsoRefused)) throw err;
      return reply.redirect(sso.loginUrl({ 'sso-error': err.reason }), 302);
    }
  });

  app.get('/api/auth/oidc/:id/callback', {
    config: { access: 'public' },
    schema: { tags: ['auth'], summary: 'Where the OpenID provider sends the browser back', params: idParams, querystring: callbackQuery },
  }, async (req, reply) => {
    reply.header('set-cookie', `${ATTEMPT_COOKIE}=; Max-Age=0; HttpOnly; SameSite=Lax`);
    try {
      return reply.redirect(await sso.oidcCallback(req.params.id, req.query, cookieOf(req.headers.cookie, ATTEMPT_COOKIE), req.ip), 302);
    } catch (err) {
      if (!(err instanceof SsoRefused)) throw err;
      return reply.redirect(sso.loginUrl({ 'sso-error': err.reason }), 302);
    }
  });

  app.post('/api/auth/sso-ticket', {
    config: { access: 'public' },
    schema: { tags: ['auth'], summary: 'A session for the one-time ticket an OpenID sign-in came back with', querystring: loginQuerySchema, body: ssoTicketSchema, response: { 200: loginResponseSchema } },
  }, (req) => sso.redeemTicket(req.body.ticket, req.query.remember === 'true', req.ip, namedLang(req.headers['accept-language'])));
}
