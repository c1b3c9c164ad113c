import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParams } from '@pagewatch/contracts/fields';
import { channelChoiceSchema, channelInputSchema, channelSchema, channelTestResultSchema } from '@pagewatch/contracts/notification-channels';
import { callerOf } from '../../plugins/access.ts';
import type { AppContext } from '../../app-context.ts';

/** Notification channels (issue 42): kept with the settings, the default administrator's alone. */
export async function channelsRoutes(root: FastifyInstance, ctx: AppContext) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const tags = ['settings'];
  const read = { access: 'MNU_SETTINGS.READ' } as const;
  const edit = { access: 'MNU_SETTINGS.EDIT' } as const;
  const base = '/api/settings/notification-channels';

  app.get(base, { config: read, schema: { tags, summary: 'Notification channels (secrets say only whether they are set)', response: { 200: z.array(channelSchema) } } }, (req) =>
    ctx.channels.list(callerOf(req)));

  app.get(`${base}/:id`, { config: read, schema: { tags, params: idParams, response: { 200: channelSchema } } }, (req) => ctx.channels.get(callerOf(req), req.params.id));

  app.post(base, { config: edit, schema: { tags, body: channelInputSchema, response: { 200: channelSchema } } }, (req) => ctx.channels.create(callerOf(req), req.body));

  app.put(`${base}/:id`, { config: edit, schema: { tags, params: idParams, body: channelInputSchema, response: { 200: channelSchema } } }, (req) =>
    ctx.channels.update(callerOf(req), req.params.id, req.body));

  app.delete(`${base}/:id`, { config: edit, schema: { tags, params: idParams } }, async (req, reply) => {
    await ctx.channels.remove(callerOf(req), req.params.id);
    return reply.status(204).send();
  });

  app.post(`${base}/:id/test`, {
    config: edit,
    schema: { tags, summary: 'Send a test message to the channel now', params: idParams, response: { 200: channelTestResultSchema } },
  }, async (req) => ({ message: await ctx.channels.test(callerOf(req), req.params.id, req.lang) }));

  app.get('/api/notification-channels', {
    config: { access: 'MNU_NOTIFICATIONS.READ' },
    schema: { tags: ['notifications'], summary: 'The channels a notification may go to (the default administrator chooses them; others get none)', response: { 200: z.array(channelChoiceSchema) } },
  }, (req) => ctx.channels.choices(callerOf(req)));
}
