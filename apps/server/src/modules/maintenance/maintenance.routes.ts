import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { SERVICE_FILE_EXTENSION, SERVICE_FILE_MAX_BYTES, serviceResultSchema } from '@pagewatch/contracts/devices';
import { AppError, invalid } from '../../lib/app-error.ts';
import { callerOf } from '../../plugins/access.ts';
import type { AppContext } from '../../app-context.ts';

/** The `serialNumbers` file of a multipart upload: a .txt of at most 1 MB. */
async function serialFile(req: FastifyRequest): Promise<Buffer> {
  if (!req.isMultipart()) throw invalid('serialNumbers', 'service.noFile');
  let data: Buffer | null = null;
  for await (const part of req.parts({ limits: { fileSize: SERVICE_FILE_MAX_BYTES } })) {
    if (part.type !== 'file') continue;
    if (part.fieldname !== 'serialNumbers' || data !== null) {
      await part.toBuffer().catch(() => null);
      continue;
    }
    const name = part.filename ?? '';
    const type = part.mimetype ?? '';
    if (!name.toLowerCase().endsWith(SERVICE_FILE_EXTENSION) || !/^(text\/plain|application\/octet-stream)\b/i.test(type)) {
      await part.toBuffer().catch(() => null);
      throw new AppError('UNSUPPORTED_MEDIA', { key: 'service.notTxt' });
    }
    try {
      data = await part.toBuffer();
    } catch (err) {
      if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('TOO_LARGE', { key: 'service.tooLarge' });
      throw err;
    }
  }
  if (data === null) throw invalid('serialNumbers', 'service.noFile');
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
