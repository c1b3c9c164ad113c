import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  demoRequestSchema,
  forgotPasswordSchema,
  loginQuerySchema,
  loginResponseSchema,
  messageResponseSchema,
  restorePasswordSchema,
} from '@pagewatch/contracts/auth';
import { meSchema } from '@pagewatch/contracts/users';
import { bearerToken, callerOf, hashToken } from '../../plugins/access.ts';
import { parseBasic, type AuthService } from './auth.service.ts';
import { deviceCookie, deviceTokens } from './device-cookie.ts';
import { namedLang } from '../../i18n/messages.ts';

const tokenParams = z.object({ token: z.string().min(10).max(200) });

export async function authRoutes(root: FastifyInstance, auth: AuthService) {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.post('/api/auth/', {
    config: { access: 'public' },
    schema: { tags: ['auth'], summary: 'Sign in with Basic credentials', querystring: loginQuerySchema, response: { 200: loginResponseSchema } },
  }, async (req, reply) => {
    const { devices, ...session } = await auth.login(parseBasic(req.headers.authorization), req.query.remember === 'true', req.ip, deviceTokens(req.headers.cookie), namedLang(req.headers['accept-language']));
    reply.header('set-cookie', deviceCookie(devices, req.protocol === 'https'));
    return session;
  });

  app.post('/api/auth/logout', {
    config: { access: 'user' },
    schema: { tags: ['auth'], summary: 'Revoke the current token' },
  }, async (req, reply) => {
    await auth.logout(callerOf(req), hashToken(bearerToken(req) ?? ''));
    return reply.status(204).send();
  });

  app.post('/api/auth/forgot-password', {
    config: { access: 'public' },
    schema: { tags: ['auth'], body: forgotPasswordSchema, response: { 200: messageResponseSchema } },
  }, (req) => auth.forgotPassword(req.body.login, req.lang, req.ip));

  app.get('/api/auth/restore-password/:token', {
    config: { access: 'public' },
    schema: { tags: ['auth'], params: tokenParams, response: { 200: z.object({ valid: z.boolean() }) } },
  }, (req) => auth.checkRestoreToken(req.params.token));

  app.post('/api/auth/restore-password/:token', {
    config: { access: 'public' },
    schema: { tags: ['auth'], params: tokenParams, body: restorePasswordSchema, response: { 200: messageResponseSchema } },
  }, (req) => auth.restorePassword(req.params.token, req.body.password, req.lang));

  app.post('/api/auth/demo-request', {
    config: { access: 'public' },
    schema: { tags: ['auth'], body: demoRequestSchema, response: { 200: messageResponseSchema } },
  }, (req) => auth.demoRequest(req.body, req.lang, req.ip));

  app.get('/api/users/me', {
    config: { access: 'user' },
    schema: { tags: ['users'], summary: 'The signed-in user with resolved grants', response: { 200: meSchema } },
  }, (req) => auth.me(callerOf(req)));
}
