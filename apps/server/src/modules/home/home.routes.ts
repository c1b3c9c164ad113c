import type { FastifyInstance } from 'fastify';
import { homeSchema } from '@pagewatch/contracts/home';
import { routeTable } from '../../plugins/route-table.ts';
import type { HomeService } from './home.service.ts';

/** `/home` (issue 21): every signed-in user; the parts follow their grants and locations. */
export async function homeRoutes(root: FastifyInstance, home: HomeService) {
  routeTable(root, ['home']).get('/api/home', 'user', { reply: homeSchema }, (_req, caller) => home.home(caller));
}
