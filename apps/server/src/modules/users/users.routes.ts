import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { idParams } from '@pagewatch/contracts/fields';
import { userInputSchema, userListRowSchema, userSchema } from '@pagewatch/contracts/users';
import { routeTable } from '../../plugins/route-table.ts';
import type { UsersService } from './users.service.ts';

const roleRow = z.object({ id: z.number(), code: z.string(), name: z.string() });

export async function usersRoutes(root: FastifyInstance, users: UsersService) {
  const r = routeTable(root, ['users']);
  const svc = users;

  r.list(['/api/users', '/api/managed-users-v/'], 'MNU_USERS.READ', userListRowSchema, (req, caller) => svc.list(caller, req.query));
  r.get('/api/users/:id', 'MNU_USERS.READ', { params: idParams, reply: userSchema }, (req, caller) => svc.get(caller, req.params.id));
  r.post('/api/users', 'MNU_USERS.EDIT', { body: userInputSchema, reply: userSchema }, (req, caller) => svc.create(caller, req.body));
  r.put('/api/users/:id', 'MNU_USERS.EDIT', { params: idParams, body: userInputSchema, reply: userSchema }, (req, caller) => svc.update(caller, req.params.id, req.body));
  r.delete('/api/users/:id', 'MNU_USERS.EDIT', { params: idParams }, (req, caller) => svc.remove(caller, req.params.id));

  r.get('/api/managed-roles-v/', 'MNU_USERS.READ', { reply: z.object({ pageRows: z.array(roleRow), totalRows: z.number() }) }, async (_req, caller) => {
    const rows = await svc.managedRoles(caller);
    return { pageRows: rows, totalRows: rows.length };
  });
}
