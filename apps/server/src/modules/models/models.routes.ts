import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/app-error.ts';
import { translate } from '../../i18n/messages.ts';
import { callerOf } from '../../plugins/access.ts';
import type { AppContext } from '../../app-context.ts';

/** Upload of a new models pack (multipart: `secretKey` and the file `version`). */
export async function modelsRoutes(root: FastifyInstance, ctx: Pick<AppContext, 'models'>) {
  const app = root.withTypeProvider<ZodTypeProvider>();

  app.post('/api/versions/upload', {
    config: { access: 'MNU_VERSIONS.READ' },
    schema: { tags: ['options'], consumes: ['multipart/form-data'], response: { 200: z.object({ version: z.number().int(), message: z.string() }) } },
  }, async (req) => {
    const caller = callerOf(req);
    // Refused before the body is read when the caller may not upload at all.
    ctx.models.assertMayUpload(caller);
    if (!req.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA');
    let secretKey: string | undefined;
    let text: string | null = null;
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        if (part.fieldname === 'version' && text === null) text = (await part.toBuffer()).toString('utf8');
        else await part.toBuffer();
      } else if (part.fieldname === 'secretKey') {
        secretKey = String(part.value);
      }
    }
    if (text === null) throw new AppError('VALIDATION', { fields: [{ field: 'version', key: 'models.noFile' }] });
    const { version } = await ctx.models.upload(caller, secretKey, text);
    return { version, message: translate(req.lang, 'models.uploaded', { version }) };
  });
}
