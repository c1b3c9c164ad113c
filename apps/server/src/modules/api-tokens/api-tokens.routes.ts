import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { idParams } from '@pagewatch/contracts/fields';
import { apiTokenInputSchema, apiTokenSchema, apiTokenWithSecretSchema } from '@pagewatch/contracts/api-tokens';
import { routeTable } from '../../plugins/route-table.ts';
import type { ApiTokensService } from './api-tokens.service.ts';

/**
 * The signed-in user's own API tokens. Session only: a token cannot list, mint or revoke tokens,
 * so a leaked one cannot make itself a successor.
 */
export async function apiTokensRoutes(root: FastifyInstance, apiTokens: ApiTokensService) {
  const r = routeTable(root, ['api-tokens'], { sessionOnly: true });

  r.get('/api/users/me/tokens', 'user', { summary: 'My API tokens (never the tokens themselves)', reply: z.array(apiTokenSchema) }, (_req, caller) => apiTokens.list(caller));
  r.post('/api/users/me/tokens', 'user', { summary: 'Make an API token: the answer holds it, this once', body: apiTokenInputSchema, reply: apiTokenWithSecretSchema },
    (req, caller) => apiTokens.create(caller, req.body));
  r.delete('/api/users/me/tokens/:id', 'user', { summary: 'Revoke one of my API tokens', params: idParams }, (req, caller) => apiTokens.revoke(caller, req.params.id));
}
