import type { FastifyInstance } from 'fastify';
import { idParams } from '@pagewatch/contracts/fields';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { listQuerySchema, pageResponseSchema } from '@pagewatch/contracts/list';
import { networkRangeInputSchema, networkRangeListRowSchema, networkRangeSchema } from '@pagewatch/contracts/network-ranges';
import { callerOf } from '../../plugins/access.ts';
import type { AppContext } from '../../app-context.ts';


/** Network ranges (grants MNU_NETWORK_RANGES). */
export async function networkRangesRoutes(root: FastifyInstance, ctx: AppContext) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const tags = ['network ranges'];
  const page = { tags, querystring: listQuerySchema, response: { 200: pageResponseSchema(networkRangeListRowSchema) } };

  for (const url of ['/api/network-ranges', '/api/network-ranges/page', '/api/network-ranges-v', '/api/network-ranges-v/page']) {
    app.get(url, { config: { access: 'MNU_NETWORK_RANGES.READ' }, schema: page }, (req) => ctx.networkRanges.list(callerOf(req), req.query));
  }

  app.get('/api/network-ranges/:id', {
    config: { access: 'MNU_NETWORK_RANGES.READ' },
    schema: { tags, params: idParams, response: { 200: networkRangeSchema } },
  }, (req) => ctx.networkRanges.get(callerOf(req), req.params.id));

  app.post('/api/network-ranges', {
    config: { access: 'MNU_NETWORK_RANGES.EDIT' },
    schema: { tags, body: networkRangeInputSchema, response: { 200: networkRangeSchema } },
  }, (req) => ctx.networkRanges.create(callerOf(req), req.body));

  app.put('/api/network-ranges/:id', {
    config: { access: 'MNU_NETWORK_RANGES.EDIT' },
    schema: { tags, params: idParams, body: networkRangeInputSchema, response: { 200: networkRangeSchema } },
  }, (req) => ctx.networkRanges.update(callerOf(req), req.params.id, req.body));

  app.delete('/api/network-ranges/:id', {
    config: { access: 'MNU_NETWORK_RANGES.EDIT' },
    schema: { tags, params: idParams },
  }, async (req, reply) => {
    await ctx.networkRanges.remove(callerOf(req), req.params.id);
    return reply.status(204).send();
  });
}
