import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { listQuerySchema, pageResponseSchema } from '@pagewatch/contracts/list';
import { eventGroupSchema, eventLogRowSchema, eventLogSchema } from '@pagewatch/contracts/event-logs';
import { callerOf } from '../../plugins/access.ts';
import type { AppContext } from '../../app-context.ts';

const idParams = z.object({ id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

export async function eventLogsRoutes(root: FastifyInstance, ctx: AppContext) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const tags = ['event-logs'];

  app.get('/api/event-logs/page', {
    config: { access: 'MNU_LOG_EVENTS.READ' },
    schema: { tags, querystring: listQuerySchema, response: { 200: pageResponseSchema(eventLogRowSchema) } },
  }, (req) => ctx.eventLog.list(callerOf(req), req.query, req.lang));

  app.get('/api/event-logs/:id', {
    config: { access: 'MNU_LOG_EVENTS.READ' },
    schema: { tags, params: idParams, response: { 200: eventLogSchema } },
  }, (req) => ctx.eventLog.get(callerOf(req), req.params.id, req.lang));

  app.get('/api/event-groups', {
    config: { access: 'MNU_LOG_EVENTS.READ' },
    schema: { tags, response: { 200: pageResponseSchema(eventGroupSchema) } },
  }, () => ctx.eventLog.groups());
}
