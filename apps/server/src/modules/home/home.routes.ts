import type { FastifyInstance } from 'fastify';
import { homeSchema } from '@pagewatch/contracts/home';
import { routeTable } from '../../plugins/route-table.ts';
import type { AppContext } from '../../app-context.ts';

/** `/home` (issue 21): every signed-in user; the parts follow their grants and locations. */
export async function homeRoutes(root: FastifyInstance, ctx: AppContext) {
  routeTable(root, ['home']).get('/api/home', 'user', { reply: homeSchema }, (_req, caller) => ctx.home.home(caller));
}
