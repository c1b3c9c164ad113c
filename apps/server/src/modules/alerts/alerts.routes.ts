import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParams } from '@pagewatch/contracts/fields';
import { alertSchema, alertsQuerySchema } from '@pagewatch/contracts/alerts';
import { callerOf } from '../../plugins/access.ts';
import type { AppContext } from '../../app-context.ts';

/**
 * Alerts (issue 42): read with the devices (MNU_DEVICES.READ), acknowledged by whoever may
 * handle notifications (MNU_NOTIFICATIONS.EDIT, which operators hold); both bound by the
 * caller's locations.
 */
export async function alertsRoutes(root: FastifyInstance, ctx: AppContext) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const tags = ['alerts'];

  app.get('/api/alerts', {
    config: { access: 'MNU_DEVICES.READ' },
    schema: { tags, summary: 'The alerts of the caller\'s locations: the open ones (open=true, the default) or all', querystring: alertsQuerySchema, response: { 200: z.array(alertSchema) } },
  }, (req) => ctx.alerts.list(callerOf(req), req.query));

  app.post('/api/alerts/:id/acknowledge', {
    config: { access: 'MNU_NOTIFICATIONS.EDIT' },
    schema: { tags, summary: 'Acknowledge an open alert: who and when are recorded, and it is not mailed again', params: idParams, response: { 200: alertSchema } },
  }, (req) => ctx.alerts.acknowledge(callerOf(req), req.params.id));
}
