import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { buildVersionSchema, clientConfigSchema, productInfoSchema } from '@pagewatch/contracts/config';
import type { AppContext } from '../../app-context.ts';
import { VERSION } from './version.ts';

export async function optionsRoutes(root: FastifyInstance, ctx: AppContext) {
  const app = root.withTypeProvider<ZodTypeProvider>();

  // At the app root, not under /api: the console reads it before it knows where the API is.
  app.get('/config.json', {
    config: { access: 'public' },
    schema: { hide: true, response: { 200: clientConfigSchema } },
  }, async () => ({ API: '/api', WS: '/ws', NETWORK_RANGE_SHOW_PORTS: ctx.config.networkRangeShowPorts, CLOUD: ctx.config.cloud }));

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
}
