import type { FastifyInstance } from 'fastify';
import { AGENT_API_HEADER, OLDEST_AGENT_API_VERSION, agentApiVersionSchema } from '@pagewatch/contracts/agent-api';
import { AppError, invalid } from '../../lib/app-error.ts';
import type { AgentsService } from './agents.service.ts';

/** Where an agent (re)reads its config: its version is noted there, not on every request. */
const CONFIG_ROUTES = new Set(['/api/agent/register', '/api/agent/config']);

/**
 * The agent API's version rule (contracts agent-api.ts): every agent request (after its token is
 * checked) says its version in AGENT_API_HEADER, none meaning 1. The server's own version and
 * the one before it are taken; an older agent is answered 426 AGENT_UPDATE_REQUIRED with a
 * message in the caller's language, and noted on the agent so that the console says so.
 * Registered after setupAccess, so that the agent is known when it runs.
 */
export function checkAgentApiVersion(app: FastifyInstance, agents: AgentsService) {
  app.addHook('onRequest', async (req) => {
    if (req.routeOptions.config?.access !== 'agent' || req.agentId === null) return;
    const raw = req.headers[AGENT_API_HEADER];
    const parsed = raw === undefined ? { success: true as const, data: 1 } : agentApiVersionSchema.safeParse(raw);
    if (!parsed.success) throw invalid(AGENT_API_HEADER, 'general.badValue');
    const version = parsed.data;
    const refused = version < OLDEST_AGENT_API_VERSION;
    if (refused || CONFIG_ROUTES.has(req.routeOptions.url ?? '')) await agents.noteApiVersion(req.agentId, version);
    if (refused) throw new AppError('AGENT_UPDATE_REQUIRED', { params: { version, oldest: OLDEST_AGENT_API_VERSION } });
  });
}
