import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { buildVersionSchema, clientConfigSchema } from '@pagewatch/contracts/config';
import type { AppContext } from '../../app-context.ts';

const rootPackage = JSON.parse(readFileSync(new URL('../../../../../package.json', import.meta.url), 'utf8')) as { version?: string };

export const VERSION = {
  appVersion: process.env.PAGEWATCH_VERSION ?? rootPackage.version ?? '0.0.0',
  buildNumber: process.env.PAGEWATCH_BUILD_NUMBER ?? '1',
  releaseDate: process.env.PAGEWATCH_RELEASE_DATE ?? '2026-11-22',
};

export async function optionsRoutes(root: FastifyInstance, ctx: AppContext) {
  const app = root.withTypeProvider<ZodTypeProvider>();

  // At the app root, not under /api: the console reads it before it knows where the API is.
  app.get('/config.json', {
    config: { access: 'public' },
    schema: { hide: true, response: { 200: clientConfigSchema } },
  }, async () => ({ API: '/api', WS: '/ws', NETWORK_RANGE_SHOW_PORTS: ctx.config.networkRangeShowPorts }));

  app.get('/api/options/build-version/', {
    config: { access: 'MNU_VERSIONS.READ' },
    schema: { tags: ['options'], response: { 200: buildVersionSchema } },
  }, async () => {
    const models = await ctx.models.activeVersion();
    return { ...VERSION, ...(models !== null ? { modelsVersion: { versionNumber: String(models) } } : {}) };
  });
}
