import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { forecastAccuracySchema } from '@pagewatch/contracts/consumables';
import { callerOf } from '../../plugins/access.ts';
import type { ConsumablesService } from './consumables.service.ts';
import { serveJsonLists } from '../../plugins/json-lists.ts';
import { CONSUMABLE_LISTS } from './consumables.list.ts';

/** The consumables grid and one device's consumables (spec section 7): read with the devices menu. */
export async function consumablesRoutes(app: FastifyInstance, consumables: ConsumablesService) {
  serveJsonLists(app, CONSUMABLE_LISTS, { access: 'MNU_DEVICES.READ', tags: ['consumables'], page: (caller, def, q) => consumables.list(caller, def, q) });
  app.withTypeProvider<ZodTypeProvider>().get('/api/consumables/forecast-accuracy', {
    config: { access: 'MNU_DEVICES.READ' },
    schema: { tags: ['consumables'], summary: 'How far the forecasts were off: the mean absolute error in days of those made 7, 14 and 30 days before each replacement of the last 90 days, per part type and overall (partCode null)', response: { 200: z.array(forecastAccuracySchema) } },
  }, (req) => consumables.accuracy(callerOf(req)));
}
