import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { buildVersionSchema, clientConfigSchema, downloadFileSchema, productInfoSchema } from '@pagewatch/contracts/config';
import { text } from '@pagewatch/contracts/fields';
import { callerOf } from '../../plugins/access.ts';
import type { AppContext } from '../../app-context.ts';
import { VERSION } from './version.ts';

export async function optionsRoutes(root: FastifyInstance, ctx: Pick<AppContext, 'config' | 'downloads' | 'models'>) {
  const app = root.withTypeProvider<ZodTypeProvider>();

  // At the app root, not under /api: the console reads it before it knows where the API is.
  app.get('/config.json', {
    config: { access: 'public' },
    schema: { hide: true, response: { 200: clientConfigSchema } },
  }, async () => ({ API: '/api', WS: '/ws', NETWORK_RANGE_SHOW_PORTS: ctx.config.networkRangeShowPorts, CLOUD: ctx.config.cloud, MAIL_LINKS: ctx.config.publicUrl !== null }));

  app.get('/api/options/build-version/', {
    config: { access: 'MNU_VERSIONS.READ' },
    schema: { tags: ['options'], response: { 200: buildVersionSchema } },
  }, async () => {
    const models = await ctx.models.activeVersion();
    return { ...VERSION, ...(models !== null ? { modelsVersion: { versionNumber: String(models) } } : {}) };
  });

  // The product page is for everyone signed in (spec section 6), unlike the footer's version.
  app.get('/api/options/product/', {
    config: { access: 'user' },
    schema: { tags: ['options'], response: { 200: productInfoSchema } },
  }, async () => ({ ...VERSION, copyright: ctx.config.copyright, support: ctx.config.support }));

  app.get('/api/options/downloads/', {
    config: { access: 'user' },
    schema: { tags: ['options'], summary: 'The files a cloud ADMIN downloads (product page)', response: { 200: z.array(downloadFileSchema) } },
  }, (req) => ctx.downloads.list(callerOf(req)));

  app.get('/api/options/downloads/:name', {
    config: { access: 'user' },
    schema: { tags: ['options'], params: z.object({ name: text(100, { line: true }).min(1) }) },
  }, async (req, reply) => {
    const file = await ctx.downloads.open(callerOf(req), req.params.name);
    return reply
      .header('content-type', 'application/octet-stream')
      .header('content-length', file.size)
      .header('content-disposition', `attachment; filename="${file.name.replace(/[^\w.-]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(file.name)}`)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'")
      .send(file.stream);
  });
}
