import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { listQuerySchema, pageResponseSchema } from '@pagewatch/contracts/list';
import { callerOf } from '../../plugins/access.ts';
import { runList, type ListDef } from '../../lib/list-query.ts';
import type { AppContext } from '../../app-context.ts';

const locationRow = z.object({ id: z.number(), code: z.string(), name: z.string(), parentId: z.number().nullable() });

const userLocationsList: ListDef = {
  from: sql`locations l`,
  tiebreaker: sql`l.id`,
  defaultSort: [{ field: 'name', dir: 'ASC' }],
  columns: {
    id: { expr: sql`l.id`, type: 'number', filter: true, sort: true },
    code: { expr: sql`l.code`, type: 'string', filter: true, sort: true },
    name: { expr: sql`l.name`, type: 'string', filter: true, sort: true },
    parentId: { expr: sql`l.parent_id`, type: 'number', filter: true, sort: true },
  },
};

/** Locations are visible to every signed-in user, limited to their scope. */
export async function locationsRoutes(root: FastifyInstance, ctx: AppContext) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const scope = (ids: Set<number>) => (ids.size ? sql`l.id IN (${sql.join([...ids].map((i) => sql`${i}`), sql`, `)})` : sql`false`);

  app.get('/api/user-locations/', {
    config: { access: 'user' },
    schema: { tags: ['locations'], response: { 200: pageResponseSchema(locationRow) } },
  }, (req) => runList(ctx.db, userLocationsList, { page: '1000,1' }, scope(callerOf(req).scope)));

  app.get('/api/user-locations/page', {
    config: { access: 'user' },
    schema: { tags: ['locations'], querystring: listQuerySchema, response: { 200: pageResponseSchema(locationRow) } },
  }, (req) => runList(ctx.db, userLocationsList, req.query, scope(callerOf(req).scope)));
}
