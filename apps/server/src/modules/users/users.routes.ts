import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { idParams } from '@pagewatch/contracts/fields';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { listQuerySchema, pageResponseSchema } from '@pagewatch/contracts/list';
import { userInputSchema, userListRowSchema, userSchema } from '@pagewatch/contracts/users';
import { callerOf } from '../../plugins/access.ts';
import type { AppContext } from '../../app-context.ts';

const roleRow = z.object({ id: z.number(), code: z.string(), name: z.string() });

export async function usersRoutes(root: FastifyInstance, ctx: AppContext) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const tags = ['users'];

  app.get('/api/users', {
    config: { access: 'MNU_USERS.READ' },
    schema: { tags, querystring: listQuerySchema, response: { 200: pageResponseSchema(userListRowSchema) } },
  }, (req) => ctx.users.list(callerOf(req), req.query));

  app.get('/api/managed-users-v/', {
    config: { access: 'MNU_USERS.READ' },
    schema: { tags, querystring: listQuerySchema, response: { 200: pageResponseSchema(userListRowSchema) } },
  }, (req) => ctx.users.list(callerOf(req), req.query));

  app.get('/api/users/:id', {
    config: { access: 'MNU_USERS.READ' },
    schema: { tags, params: idParams, response: { 200: userSchema } },
  }, (req) => ctx.users.get(callerOf(req), req.params.id));

  app.post('/api/users', {
    config: { access: 'MNU_USERS.EDIT' },
    schema: { tags, body: userInputSchema, response: { 200: userSchema } },
  }, (req) => ctx.users.create(callerOf(req), req.body));

  app.put('/api/users/:id', {
    config: { access: 'MNU_USERS.EDIT' },
    schema: { tags, params: idParams, body: userInputSchema, response: { 200: userSchema } },
  }, (req) => ctx.users.update(callerOf(req), req.params.id, req.body));

  app.delete('/api/users/:id', {
    config: { access: 'MNU_USERS.EDIT' },
    schema: { tags, params: idParams },
  }, async (req, reply) => {
    await ctx.users.remove(callerOf(req), req.params.id);
    return reply.status(204).send();
  });

  app.get('/api/managed-roles-v/', {
    config: { access: 'MNU_USERS.READ' },
    schema: { tags, response: { 200: z.object({ pageRows: z.array(roleRow), totalRows: z.number() }) } },
  }, async (req) => {
    const rows = await ctx.users.managedRoles(callerOf(req));
    return { pageRows: rows, totalRows: rows.length };
  });
}
