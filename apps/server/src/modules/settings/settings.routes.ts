import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { settingSchema, settingsUpdateSchema, testEmailSchema } from '@pagewatch/contracts/settings';
import { messageResponseSchema } from '@pagewatch/contracts/auth';
import { translate } from '../../i18n/messages.ts';
import { callerOf } from '../../plugins/access.ts';
import type { AppContext } from '../../app-context.ts';

export async function settingsRoutes(root: FastifyInstance, ctx: AppContext) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const tags = ['settings'];

  app.get('/api/settings/', {
    config: { access: 'MNU_SETTINGS.READ' },
    schema: { tags, summary: 'Instance settings (write-only values say only whether they are set)', response: { 200: z.array(settingSchema) } },
  }, (req) => ctx.settings.list(callerOf(req)));

  app.put('/api/settings', {
    config: { access: 'MNU_SETTINGS.EDIT' },
    schema: { tags, summary: 'Change settings', body: settingsUpdateSchema, response: { 200: z.array(settingSchema) } },
  }, (req) => ctx.settings.update(callerOf(req), req.body));

  app.post('/api/settings/test-email', {
    config: { access: 'MNU_SETTINGS.EDIT' },
    schema: { tags, summary: 'Send a test e-mail with the saved SMTP settings', body: testEmailSchema, response: { 200: messageResponseSchema } },
  }, async (req) => {
    await ctx.settings.sendTestEmail(callerOf(req), req.body, req.lang);
    return { message: translate(req.lang, 'settings.testEmailSent', { to: req.body.to }) };
  });
}
