import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { idParams } from '@pagewatch/contracts/fields';
import { alertSchema, alertsQuerySchema } from '@pagewatch/contracts/alerts';
import { routeTable } from '../../plugins/route-table.ts';
import type { AlertsService } from './alerts.service.ts';

/**
 * Alerts (issue 42): read with the devices (MNU_DEVICES.READ), acknowledged by whoever may
 * handle notifications (MNU_NOTIFICATIONS.EDIT, which operators hold); both bound by the
 * caller's locations.
 */
export async function alertsRoutes(root: FastifyInstance, alerts: AlertsService) {
  const r = routeTable(root, ['alerts']);

  r.get('/api/alerts', 'MNU_DEVICES.READ', {
    summary: 'The alerts of the caller\'s locations: the open ones (open=true, the default) or all',
    querystring: alertsQuerySchema,
    reply: z.array(alertSchema),
  }, (req, caller) => alerts.list(caller, req.query));

  r.post('/api/alerts/:id/acknowledge', 'MNU_NOTIFICATIONS.EDIT', {
    summary: 'Acknowledge an open alert: who and when are recorded, and it is not mailed again',
    params: idParams,
    reply: alertSchema,
  }, (req, caller) => alerts.acknowledge(caller, req.params.id));
}
