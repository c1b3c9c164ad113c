import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  agentConfigSchema,
  agentRegisterSchema,
  agentRunFinishSchema,
  agentRunProblemSchema,
  agentRunStartSchema,
  agentStatusReportSchema,
  agentReleasePlatformSchema,
  agentUpdateRefusedSchema,
} from '@pagewatch/contracts/agent-api';
import { createReadStream } from 'node:fs';
import { agentOf } from '../../plugins/access.ts';
import type { AppContext } from '../../app-context.ts';

const runParams = z.object({ runId: z.uuid() });

/** The agent protocol (packages/contracts/src/agent-api.ts), under /api/agent with agent tokens only; readings are in ingest.routes.ts. */
export async function agentApiRoutes(root: FastifyInstance, ctx: Pick<AppContext, 'agents' | 'models'>) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const tags = ['agent protocol'];
  const access = 'agent' as const;

  app.post('/api/agent/register', {
    config: { access },
    schema: { tags, body: agentRegisterSchema, response: { 200: agentConfigSchema } },
  }, (req) => ctx.agents.register(agentOf(req), req.body));

  app.get('/api/agent/config', {
    config: { access },
    schema: { tags, response: { 200: agentConfigSchema } },
  }, (req) => ctx.agents.config(agentOf(req)));

  app.get('/api/agent/models-pack', { config: { access }, schema: { tags } }, async (req, reply) => {
    agentOf(req);
    const pack = await ctx.models.activePackJson();
    return reply.type('application/json').send(pack);
  });

  app.post('/api/agent/status', {
    config: { access },
    schema: { tags, body: agentStatusReportSchema },
  }, async (req, reply) => {
    await ctx.agents.reportStatus(agentOf(req), req.body.status, req.body.message, req.body.spoolDepth);
    return reply.status(204).send();
  });

  // The offered release's executable (issue 44): agents download updates from their own server only.
  app.get('/api/agent/update/:platform', {
    config: { access },
    schema: { tags, params: z.object({ platform: agentReleasePlatformSchema }) },
  }, async (req, reply) => {
    const file = await ctx.agents.updateFile(agentOf(req), req.params.platform);
    return reply.header('content-type', 'application/octet-stream').header('content-length', file.size).send(createReadStream(file.path));
  });

  app.post('/api/agent/update/refused', {
    config: { access },
    schema: { tags, body: agentUpdateRefusedSchema },
  }, async (req, reply) => {
    await ctx.agents.updateRefused(agentOf(req), req.body.version, req.body.error);
    return reply.status(204).send();
  });

  app.post('/api/agent/runs', {
    config: { access },
    schema: { tags, body: agentRunStartSchema, response: { 200: z.object({ logId: z.number().int() }) } },
  }, (req) => ctx.agents.runStart(agentOf(req), req.body.runId, new Date(req.body.startedAt)));

  app.post('/api/agent/runs/:runId/problems', {
    config: { access },
    schema: { tags, params: runParams, body: agentRunProblemSchema },
  }, async (req, reply) => {
    await ctx.agents.runProblem(agentOf(req), req.params.runId, req.body);
    return reply.status(204).send();
  });

  app.post('/api/agent/runs/:runId/finish', {
    config: { access },
    schema: { tags, params: runParams, body: agentRunFinishSchema },
  }, async (req, reply) => {
    await ctx.agents.runFinish(agentOf(req), req.params.runId, { finishedAt: new Date(req.body.finishedAt), rangeResults: req.body.rangeResults });
    return reply.status(204).send();
  });
}
