import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { homeSchema } from '@pagewatch/contracts/home';
import { callerOf } from '../../plugins/access.ts';
import type { AppContext } from '../../app-context.ts';

/** `/home` (issue 21): every signed-in user; the parts follow their grants and locations. */
export async function homeRoutes(root: FastifyInstance, ctx: AppContext) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  app.get('/api/home', {
    config: { access: 'user' },
    schema: { tags: ['home'], response: { 200: homeSchema } },
  }, (req) => ctx.home.home(callerOf(req)));
}
