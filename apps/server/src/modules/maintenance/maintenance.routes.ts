import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { SERVICE_FILE_EXTENSION, SERVICE_FILE_MAX_BYTES, serviceResultSchema } from '@pagewatch/contracts/devices';
import { invalid } from '../../lib/app-error.ts';
import { uploadedFile } from '../../lib/upload.ts';
import { callerOf } from '../../plugins/access.ts';
import type { AppContext } from '../../app-context.ts';

/** The `serialNumbers` file of a multipart upload: a .txt of at most 1 MB. */
async function serialFile(req: FastifyRequest): Promise<Buffer> {
  const data = await uploadedFile(req, {
    field: 'serialNumbers',
    extension: SERVICE_FILE_EXTENSION,
    types: /^(text\/plain|application\/octet-stream)\b/i,
    maxBytes: SERVICE_FILE_MAX_BYTES,
    keys: { missing: 'service.noFile', wrongType: 'service.notTxt', tooLarge: 'service.tooLarge' },
  });
  if (data.length === 0) throw invalid('serialNumbers', 'service.emptyFile');
  return data;
}

/** Service work (spec sections 2 and 7): maintenance by serial numbers file, stop for all. */
export async function serviceRoutes(root: FastifyInstance, ctx: AppContext) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const tags = ['service'];
  const opts = { config: { access: 'BTN_DEVICE_ACTIVITY.EXECUTE' as const }, schema: { tags, consumes: ['multipart/form-data'], response: { 200: serviceResultSchema } } };

  app.post('/api/service/set-active-status', opts, async (req) =>
    ctx.maintenance.setBySerialFile(callerOf(req), await serialFile(req), true, req.lang));

  app.post('/api/service/set-inactive-status', opts, async (req) =>
    ctx.maintenance.setBySerialFile(callerOf(req), await serialFile(req), false, req.lang));

  app.post('/api/service/reset-status', {
    config: { access: 'BTN_DEVICE_ACTIVITY.EXECUTE' },
    schema: { tags, response: { 200: serviceResultSchema } },
  }, (req) => ctx.maintenance.resetAll(callerOf(req), req.lang));
}
