import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParams } from '@pagewatch/contracts/fields';
import type { List } from '@pagewatch/contracts/list';
import { queueInputSchema, queueJobsList, queueSchema, queuesList } from '@pagewatch/contracts/queues';
import type { ListDef } from '../../lib/list-query.ts';
import { serveJsonLists } from '../../plugins/json-lists.ts';
import { queueJobsListSql, queuesListSql } from './queues.list.ts';
import { MAX_QUEUE_JOBS, MAX_RUN_JOBS, MAX_RUN_QUEUES, queueJobsRunResultSchema, queueJobsRunSchema } from '@pagewatch/contracts/agent-queues';
import { AppError } from '../../lib/app-error.ts';
import { agentOf } from '../../plugins/access.ts';
import { routeTable } from '../../plugins/route-table.ts';
import type { AppContext } from '../../app-context.ts';

/** Print queues and their jobs (grants MNU_QUEUES), and the agents' runs of jobs. */
export async function queuesRoutes(root: FastifyInstance, ctx: Pick<AppContext, 'queueJobs' | 'queues'>) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const tags = ['queues'];
  // The spec's paths for the one queues list, and the jobs list (queue-jobs/page).
  const lists: [List, ListDef][] = [
    ...['/queues', '/queues/page', '/queues-v', '/queues-v/page'].map((endpoint): [List, ListDef] => [{ ...queuesList, endpoint }, queuesListSql]),
    [queueJobsList, queueJobsListSql],
  ];
  const svc = ctx.queues;
  serveJsonLists(app, lists, { access: 'MNU_QUEUES.READ', tags, page: (caller, def, q) => svc.page(caller, def, q) });

  const r = routeTable(root, tags);
  r.get('/api/queues/:id', 'MNU_QUEUES.READ', { params: idParams, reply: queueSchema }, (req, caller) => svc.get(caller, req.params.id));
  r.post('/api/queues', 'MNU_QUEUES.EDIT', { body: queueInputSchema, reply: queueSchema }, (req, caller) => svc.create(caller, req.body));
  r.put('/api/queues/:id', 'MNU_QUEUES.EDIT', { params: idParams, body: queueInputSchema, reply: queueSchema }, (req, caller) => svc.update(caller, req.params.id, req.body));
  r.post('/api/queues/:id/reset', 'MNU_QUEUES.EDIT', { params: idParams, reply: queueSchema }, (req, caller) => svc.reset(caller, req.params.id));
  r.delete('/api/queues/:id', 'MNU_QUEUES.EDIT', { params: idParams }, (req, caller) => svc.remove(caller, req.params.id));

  app.post('/api/agent/queue-jobs', {
    config: { access: 'agent' },
    // Too many queues or jobs is "too large" (413), told before zod's generic message.
    preValidation: async (req) => {
      const queues = (req.body as { queues?: unknown } | null)?.queues;
      if (!Array.isArray(queues)) return;
      const counts = queues.map((q) => (Array.isArray((q as { jobs?: unknown } | null)?.jobs) ? (q as { jobs: unknown[] }).jobs.length : 0));
      if (queues.length > MAX_RUN_QUEUES || counts.some((c) => c > MAX_QUEUE_JOBS) || counts.reduce((a, b) => a + b, 0) > MAX_RUN_JOBS) {
        throw new AppError('TOO_LARGE', { key: 'queues.tooManyJobs', params: { queues: MAX_RUN_QUEUES, max: MAX_QUEUE_JOBS, total: MAX_RUN_JOBS } });
      }
    },
    // The envelope here; each job is checked on its own by the service.
    schema: { tags: ['agent protocol'], body: queueJobsRunSchema, response: { 200: queueJobsRunResultSchema } },
  }, (req) => ctx.queueJobs.ingest(agentOf(req), req.body, req.lang));
}
