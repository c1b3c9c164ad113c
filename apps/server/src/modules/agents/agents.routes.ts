import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { idParams } from '@pagewatch/contracts/fields';
import { agentDevicesStatusQuerySchema, agentDevicesStatusSchema, agentInputSchema, agentListRowSchema, agentReleaseViewSchema, agentSchema, agentStatusViewSchema, agentUpdatesInputSchema, agentWithTokenSchema } from '@pagewatch/contracts/agents';
import { routeTable } from '../../plugins/route-table.ts';
import type { AgentsService } from './agents.service.ts';

/** Agents as the console manages them (grants MNU_AGENTS). */
export async function agentsRoutes(root: FastifyInstance, svc: AgentsService) {
  const r = routeTable(root, ['agents']);

  r.list(['/api/agents', '/api/agents/page', '/api/agents-v', '/api/agents-v/page'], 'MNU_AGENTS.READ', agentListRowSchema, (req, caller) => svc.list(caller, req.query));
  r.get('/api/agents/:id', 'MNU_AGENTS.READ', { params: idParams, reply: agentSchema }, (req, caller) => svc.get(caller, req.params.id));
  r.get('/api/agents/:id/status', 'MNU_AGENTS.READ', { params: idParams, reply: agentStatusViewSchema }, (req, caller) => svc.status(caller, req.params.id, req.lang));
  r.get('/api/agents/:id/devices-status', 'MNU_AGENTS.READ', { params: idParams, querystring: agentDevicesStatusQuerySchema, reply: agentDevicesStatusSchema },
    (req, caller) => svc.devicesStatus(caller, req.params.id, req.query));
  r.post('/api/agents', 'MNU_AGENTS.EDIT', { body: agentInputSchema, reply: agentWithTokenSchema }, (req, caller) => svc.create(caller, req.body));
  r.put('/api/agents/:id', 'MNU_AGENTS.EDIT', { params: idParams, body: agentInputSchema, reply: agentSchema }, (req, caller) => svc.update(caller, req.params.id, req.body));
  r.get('/api/agents/release', 'MNU_AGENTS.READ', { summary: 'The agent release offered to older agents, and whether updates are paused for all', reply: agentReleaseViewSchema },
    () => svc.releaseView());
  r.put('/api/agents/:id/updates', 'MNU_AGENTS.EDIT', { summary: "Pause or resume one agent's updates", params: idParams, body: agentUpdatesInputSchema, reply: agentSchema },
    (req, caller) => svc.setUpdatesPaused(caller, req.params.id, req.body.paused));
  // Session only (issue 52): a new agent token reads the agent's SNMP and queue secrets in clear.
  routeTable(root, ['agents'], { sessionOnly: true }).post('/api/agents/:id/regenerate-token', 'MNU_AGENTS.EDIT', { params: idParams, reply: agentWithTokenSchema }, (req, caller) => svc.regenerateToken(caller, req.params.id));
  r.delete('/api/agents/:id', 'MNU_AGENTS.EDIT', { params: idParams }, (req, caller) => svc.remove(caller, req.params.id));
  r.post('/api/agents/notify-all/:action', 'MNU_AGENTS.EDIT', { params: z.object({ action: z.enum(['UPDATE_VERSION']) }), reply: z.object({ count: z.number().int() }) },
    (_req, caller) => svc.notifyAllUpdate(caller));
}
