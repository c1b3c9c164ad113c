import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Grant } from '@pagewatch/contracts/grants';
import { listQuerySchema, pageResponseSchema, type List, type ListQuery } from '@pagewatch/contracts/list';
import type { Caller } from '../lib/caller.ts';
import type { ListDef } from '../lib/list-query.ts';
import { callerOf } from './access.ts';

/**
 * Serves each list at `/api${list.endpoint}` under one grant. The page comes as JSON text,
 * written by PostgreSQL in the row schema's types (the routes tests check each list against
 * it), and is sent as it is.
 */
export function serveJsonLists(
  root: FastifyInstance,
  lists: [List, ListDef][],
  opts: { access: Grant; tags: string[]; page: (caller: Caller, def: ListDef, q: ListQuery) => Promise<string> },
) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  for (const [shared, def] of lists) {
    app.get(`/api${shared.endpoint}`, {
      config: { access: opts.access },
      schema: { tags: opts.tags, querystring: listQuerySchema, response: { 200: pageResponseSchema(shared.row) } },
    }, async (req, reply) => {
      const json = await opts.page(callerOf(req), def, req.query);
      return reply.type('application/json; charset=utf-8').send(json as never);
    });
  }
}
