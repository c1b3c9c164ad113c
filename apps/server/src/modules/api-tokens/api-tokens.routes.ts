import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParams } from '@pagewatch/contracts/fields';
import { apiTokenInputSchema, apiTokenSchema, apiTokenWithSecretSchema } from '@pagewatch/contracts/api-tokens';
import { callerOf } from '../../plugins/access.ts';
import type { AppContext } from '../../app-context.ts';

/**
 * The signed-in user's own API tokens. Session only: a token cannot list, mint or revoke tokens,
 * so a leaked one cannot make itself a successor.
 */
export async function apiTokensRoutes(root: FastifyInstance, ctx: AppContext) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const tags = ['api-tokens'];
  const config = { access: 'user', sessionOnly: true } as const;

  app.get('/api/users/me/tokens', {
    config,
    schema: { tags, summary: 'My API tokens (never the tokens themselves)', response: { 200: z.array(apiTokenSchema) } },
  }, (req) => ctx.apiTokens.list(callerOf(req)));

  app.post('/api/users/me/tokens', {
    config,
    schema: { tags, summary: 'Make an API token: the answer holds it, this once', body: apiTokenInputSchema, response: { 200: apiTokenWithSecretSchema } },
  }, (req) => ctx.apiTokens.create(callerOf(req), req.body));

  app.delete('/api/users/me/tokens/:id', {
    config,
    schema: { tags, summary: 'Revoke one of my API tokens', params: idParams },
  }, async (req, reply) => {
    await ctx.apiTokens.revoke(callerOf(req), req.params.id);
    return reply.status(204).send();
  });
}
