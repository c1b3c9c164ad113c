import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { idParams } from '@pagewatch/contracts/fields';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { listQuerySchema, pageResponseSchema } from '@pagewatch/contracts/list';
import { agentDevicesStatusQuerySchema, agentDevicesStatusSchema, agentInputSchema, agentListRowSchema, agentReleaseViewSchema, agentSchema, agentStatusViewSchema, agentUpdatesInputSchema, agentWithTokenSchema } from '@pagewatch/contracts/agents';
import { callerOf } from '../../plugins/access.ts';
import type { AppContext } from '../../app-context.ts';


/** Agents as the console manages them (grants MNU_AGENTS). */
export async function agentsRoutes(root: FastifyInstance, ctx: AppContext) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const tags = ['agents'];
  const page = { tags, querystring: listQuerySchema, response: { 200: pageResponseSchema(agentListRowSchema) } };

  app.get('/api/agents', { config: { access: 'MNU_AGENTS.READ' }, schema: page }, (req) => ctx.agents.list(callerOf(req), req.query));
  app.get('/api/agents/page', { config: { access: 'MNU_AGENTS.READ' }, schema: page }, (req) => ctx.agents.list(callerOf(req), req.query));
  app.get('/api/agents-v', { config: { access: 'MNU_AGENTS.READ' }, schema: page }, (req) => ctx.agents.list(callerOf(req), req.query));
  app.get('/api/agents-v/page', { config: { access: 'MNU_AGENTS.READ' }, schema: page }, (req) => ctx.agents.list(callerOf(req), req.query));

  app.get('/api/agents/:id', {
    config: { access: 'MNU_AGENTS.READ' },
    schema: { tags, params: idParams, response: { 200: agentSchema } },
  }, (req) => ctx.agents.get(callerOf(req), req.params.id));

  app.get('/api/agents/:id/status', {
    config: { access: 'MNU_AGENTS.READ' },
    schema: { tags, params: idParams, response: { 200: agentStatusViewSchema } },
  }, (req) => ctx.agents.status(callerOf(req), req.params.id, req.lang));

  app.get('/api/agents/:id/devices-status', {
    config: { access: 'MNU_AGENTS.READ' },
    schema: { tags, params: idParams, querystring: agentDevicesStatusQuerySchema, response: { 200: agentDevicesStatusSchema } },
  }, (req) => ctx.agents.devicesStatus(callerOf(req), req.params.id, req.query));

  app.post('/api/agents', {
    config: { access: 'MNU_AGENTS.EDIT' },
    schema: { tags, body: agentInputSchema, response: { 200: agentWithTokenSchema } },
  }, (req) => ctx.agents.create(callerOf(req), req.body));

  app.put('/api/agents/:id', {
    config: { access: 'MNU_AGENTS.EDIT' },
    schema: { tags, params: idParams, body: agentInputSchema, response: { 200: agentSchema } },
  }, (req) => ctx.agents.update(callerOf(req), req.params.id, req.body));

  app.get('/api/agents/release', {
    config: { access: 'MNU_AGENTS.READ' },
    schema: { tags, summary: 'The agent release offered to older agents, and whether updates are paused for all', response: { 200: agentReleaseViewSchema } },
  }, () => ctx.agents.releaseView());

  app.put('/api/agents/:id/updates', {
    config: { access: 'MNU_AGENTS.EDIT' },
    schema: { tags, summary: "Pause or resume one agent's updates", params: idParams, body: agentUpdatesInputSchema, response: { 200: agentSchema } },
  }, (req) => ctx.agents.setUpdatesPaused(callerOf(req), req.params.id, req.body.paused));

  app.post('/api/agents/:id/regenerate-token', {
    config: { access: 'MNU_AGENTS.EDIT' },
    schema: { tags, params: idParams, response: { 200: agentWithTokenSchema } },
  }, (req) => ctx.agents.regenerateToken(callerOf(req), req.params.id));

  app.delete('/api/agents/:id', {
    config: { access: 'MNU_AGENTS.EDIT' },
    schema: { tags, params: idParams },
  }, async (req, reply) => {
    await ctx.agents.remove(callerOf(req), req.params.id);
    return reply.status(204).send();
  });

  app.post('/api/agents/notify-all/:action', {
    config: { access: 'MNU_AGENTS.EDIT' },
    schema: { tags, params: z.object({ action: z.enum(['UPDATE_VERSION']) }), response: { 200: z.object({ count: z.number().int() }) } },
  }, (req) => ctx.agents.notifyAllUpdate(callerOf(req)));
}
