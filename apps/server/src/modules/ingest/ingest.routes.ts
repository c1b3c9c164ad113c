import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { MAX_BATCH_READINGS, batchResultSchema, readingBatchEnvelopeSchema } from '@pagewatch/contracts/agent-api';
import { AppError } from '../../lib/app-error.ts';
import { agentOf } from '../../plugins/access.ts';
import type { AppContext } from '../../app-context.ts';

/** Largest readings batch accepted, in bytes (a batch with walks of unknown devices is big). */
export const MAX_BATCH_BYTES = 20 * 1024 * 1024;

/** The agents' readings batches (part of the agent protocol, agent tokens only). */
export async function ingestRoutes(root: FastifyInstance, ctx: Pick<AppContext, 'ingest' | 'notifier'>) {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.post('/api/agent/readings', {
    config: { access: 'agent' },
    bodyLimit: MAX_BATCH_BYTES,
    // Too many readings is "too large" (413), told before zod's generic message.
    preValidation: async (req) => {
      const readings = (req.body as { readings?: unknown } | null)?.readings;
      if (Array.isArray(readings) && readings.length > MAX_BATCH_READINGS) {
        throw new AppError('TOO_LARGE', { key: 'ingest.tooManyReadings', params: { max: MAX_BATCH_READINGS } });
      }
    },
    // The envelope here; each reading is checked on its own by the service (readingBatchSchema).
    schema: { tags: ['agent protocol'], body: readingBatchEnvelopeSchema, response: { 200: batchResultSchema } },
  }, async (req) => {
    const result = await ctx.ingest.ingest(agentOf(req), req.body, req.lang);
    ctx.notifier.worker.kick();
    return result;
  });
}
