import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { pageResponseSchema } from '@pagewatch/contracts/list';
import { eventGroupSchema, eventLogRowSchema, eventLogSchema } from '@pagewatch/contracts/event-logs';
import { routeTable } from '../../plugins/route-table.ts';
import type { EventLog } from './event-logs.service.ts';

const idParams = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

export async function eventLogsRoutes(root: FastifyInstance, eventLog: EventLog) {
  const r = routeTable(root, ['event-logs']);
  const svc = eventLog;

  r.list('/api/event-logs/page', 'MNU_LOG_EVENTS.READ', eventLogRowSchema, (req, caller) => svc.list(caller, req.query, req.lang));
  r.get('/api/event-logs/:id', 'MNU_LOG_EVENTS.READ', { params: idParams, reply: eventLogSchema }, (req, caller) => svc.get(caller, req.params.id, req.lang));
  r.get('/api/event-groups', 'MNU_LOG_EVENTS.READ', { reply: pageResponseSchema(eventGroupSchema) }, () => svc.groups());
}
