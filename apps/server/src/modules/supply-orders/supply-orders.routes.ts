import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { idParams } from '@pagewatch/contracts/fields';
import { supplyOrderInputSchema, supplyOrderSchema, supplyOrderSettingsInputSchema, supplyOrderSettingsSchema, supplyOrdersQuerySchema, supplySuggestionSchema, supplySuggestionsQuerySchema } from '@pagewatch/contracts/supply-orders';
import { routeTable } from '../../plugins/route-table.ts';
import { sendFile } from '../../plugins/file-reply.ts';
import type { SupplyOrdersService } from './supply-orders.service.ts';

const formatParams = z.object({ format: z.enum(['csv', 'xlsx', 'CSV', 'XLSX'], 'general.badValue') });

/**
 * Supplies to order (issue 45): the what-to-order list and its file, the orders and their
 * life, and each location's lead time, margin and supplier; MNU_CONSUMABLES.READ to see,
 * MNU_CONSUMABLES.EDIT to change; always within the caller's locations.
 */
export async function supplyOrdersRoutes(root: FastifyInstance, supplyOrders: SupplyOrdersService) {
  const tags = ['supply-orders'];
  const r = routeTable(root, tags);
  const read = 'MNU_CONSUMABLES.READ';
  const edit = 'MNU_CONSUMABLES.EDIT';
  const svc = supplyOrders;

  r.get('/api/supply-orders/suggestions', read, {
    summary: 'What to order: per location and part model, the supplies forecast to run out within the lead time plus margin, or already low, without an open order',
    querystring: supplySuggestionsQuerySchema,
    reply: z.array(supplySuggestionSchema),
  }, async (req, caller, reply) => reply.type('application/json; charset=utf-8').send((await svc.suggestionsJson(caller, req.query.location)) as never));
  r.get('/api/supply-orders/suggestions/:format', read, { summary: 'The what-to-order list as a CSV or XLSX file in the caller\'s language', params: formatParams, querystring: supplySuggestionsQuerySchema },
    async (req, caller, reply) => {
      const file = await svc.file(caller, req.params.format.toUpperCase() as 'CSV' | 'XLSX', req.lang, req.query.location);
      return sendFile(reply, file, `supplies.${req.params.format.toLowerCase()}`);
    });

  r.get('/api/supply-orders', read, { summary: 'Supply orders: the open ones (default), or the latest 500 of any state with open=false', querystring: supplyOrdersQuerySchema, reply: z.array(supplyOrderSchema) },
    (req, caller) => svc.orders(caller, { location: req.query.location, device: req.query.device, open: req.query.open !== 'false' }));
  r.post('/api/supply-orders', edit, { summary: 'Orders supplies, one order each; a supply with an open order is skipped, and a 409 when every one has', body: supplyOrderInputSchema, reply: z.array(supplyOrderSchema) },
    (req, caller) => svc.order(caller, req.body, req.lang));
  r.post('/api/supply-orders/:id/ship', edit, { summary: 'Marks an ordered supply shipped', params: idParams, reply: supplyOrderSchema },
    (req, caller) => svc.ship(caller, req.params.id));
  r.post('/api/supply-orders/:id/cancel', edit, { summary: 'Cancels an open order', params: idParams, reply: supplyOrderSchema },
    (req, caller) => svc.cancel(caller, req.params.id));

  r.get('/api/supply-orders/settings', read, { summary: 'Each location\'s lead time and margin (days) and supplier e-mail', reply: z.array(supplyOrderSettingsSchema) },
    (_req, caller) => svc.settings(caller));
  // Session only (issue 52): the supplier's address is where orders are mailed.
  routeTable(root, tags, { sessionOnly: true }).put('/api/supply-orders/settings/:id', edit, {
    summary: 'Sets a location\'s lead time, margin and supplier e-mail (empty: its parent\'s)', params: idParams, body: supplyOrderSettingsInputSchema, reply: supplyOrderSettingsSchema,
  }, (req, caller) => svc.saveSettings(caller, req.params.id, req.body));
}
