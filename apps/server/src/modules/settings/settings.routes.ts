import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { settingSchema, settingsUpdateSchema } from '@pagewatch/contracts/settings';
import { callerOf } from '../../plugins/access.ts';
import type { AppContext } from '../../app-context.ts';

export async function settingsRoutes(root: FastifyInstance, ctx: AppContext) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const tags = ['settings'];

  app.get('/api/settings/', {
    config: { access: 'MNU_SETTINGS.READ' },
    schema: { tags, summary: 'Instance settings (write-only values say only whether they are set)', response: { 200: z.array(settingSchema) } },
  }, () => ctx.settings.list());

  app.put('/api/settings', {
    config: { access: 'MNU_SETTINGS.EDIT' },
    schema: { tags, summary: 'Change settings', body: settingsUpdateSchema, response: { 200: z.array(settingSchema) } },
  }, (req) => ctx.settings.update(callerOf(req), req.body));
}
