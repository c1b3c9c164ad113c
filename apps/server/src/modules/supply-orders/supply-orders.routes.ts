import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParams } from '@pagewatch/contracts/fields';
import { supplyOrderInputSchema, supplyOrderSchema, supplyOrderSettingsInputSchema, supplyOrderSettingsSchema, supplyOrdersQuerySchema, supplySuggestionSchema, supplySuggestionsQuerySchema } from '@pagewatch/contracts/supply-orders';
import { callerOf } from '../../plugins/access.ts';
import type { AppContext } from '../../app-context.ts';

const formatParams = z.object({ format: z.enum(['csv', 'xlsx', 'CSV', 'XLSX'], 'general.badValue') });

/**
 * Supplies to order (issue 45): the what-to-order list and its file, the orders and their
 * life, and each location's lead time, margin and supplier; MNU_CONSUMABLES.READ to see,
 * MNU_CONSUMABLES.EDIT to change; always within the caller's locations.
 */
export async function supplyOrdersRoutes(root: FastifyInstance, ctx: AppContext) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const tags = ['supply-orders'];
  const read = { access: 'MNU_CONSUMABLES.READ' } as const;
  const edit = { access: 'MNU_CONSUMABLES.EDIT' } as const;

  app.get('/api/supply-orders/suggestions', {
    config: read,
    schema: { tags, summary: 'What to order: per location and part model, the supplies forecast to run out within the lead time plus margin, or already low, without an open order', querystring: supplySuggestionsQuerySchema, response: { 200: z.array(supplySuggestionSchema) } },
  }, async (req, reply) => reply.type('application/json; charset=utf-8').send((await ctx.supplyOrders.suggestionsJson(callerOf(req), req.query.location)) as never));

  app.get('/api/supply-orders/suggestions/:format', {
    config: read,
    schema: { tags, summary: 'The what-to-order list as a CSV or XLSX file in the caller\'s language', params: formatParams, querystring: supplySuggestionsQuerySchema },
  }, async (req, reply) => {
    const file = await ctx.supplyOrders.file(callerOf(req), req.params.format.toUpperCase() as 'CSV' | 'XLSX', req.lang, req.query.location);
    return reply
      .header('content-type', file.contentType)
      .header('content-disposition', `attachment; filename="supplies.${req.params.format.toLowerCase()}"; filename*=UTF-8''${encodeURIComponent(file.filename)}`)
      .header('access-control-expose-headers', 'Content-Disposition')
      .send(file.body);
  });

  app.get('/api/supply-orders', {
    config: read,
    schema: { tags, summary: 'Supply orders: the open ones (default), or the latest 500 of any state with open=false', querystring: supplyOrdersQuerySchema, response: { 200: z.array(supplyOrderSchema) } },
  }, (req) => ctx.supplyOrders.orders(callerOf(req), { location: req.query.location, device: req.query.device, open: req.query.open !== 'false' }));

  app.post('/api/supply-orders', {
    config: edit,
    schema: { tags, summary: 'Orders supplies, one order each; a supply with an open order is skipped, and a 409 when every one has', body: supplyOrderInputSchema, response: { 200: z.array(supplyOrderSchema) } },
  }, (req) => ctx.supplyOrders.order(callerOf(req), req.body, req.lang));

  app.post('/api/supply-orders/:id/ship', {
    config: edit,
    schema: { tags, summary: 'Marks an ordered supply shipped', params: idParams, response: { 200: supplyOrderSchema } },
  }, (req) => ctx.supplyOrders.ship(callerOf(req), req.params.id));

  app.post('/api/supply-orders/:id/cancel', {
    config: edit,
    schema: { tags, summary: 'Cancels an open order', params: idParams, response: { 200: supplyOrderSchema } },
  }, (req) => ctx.supplyOrders.cancel(callerOf(req), req.params.id));

  app.get('/api/supply-orders/settings', {
    config: read,
    schema: { tags, summary: 'Each location\'s lead time and margin (days) and supplier e-mail', response: { 200: z.array(supplyOrderSettingsSchema) } },
  }, (req) => ctx.supplyOrders.settings(callerOf(req)));

  // Session only (issue 52): the supplier's address is where orders are mailed.
  app.put('/api/supply-orders/settings/:id', {
    config: { ...edit, sessionOnly: true },
    schema: { tags, summary: 'Sets a location\'s lead time, margin and supplier e-mail (empty: its parent\'s)', params: idParams, body: supplyOrderSettingsInputSchema, response: { 200: supplyOrderSettingsSchema } },
  }, (req) => ctx.supplyOrders.saveSettings(callerOf(req), req.params.id, req.body));
}
