import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { idParams } from '@pagewatch/contracts/fields';
import { channelChoiceSchema, channelInputSchema, channelSchema, channelTestResultSchema } from '@pagewatch/contracts/notification-channels';
import { routeTable } from '../../plugins/route-table.ts';
import type { ChannelsService } from './channels.service.ts';

/** Notification channels (issue 42): kept with the settings, the default administrator's alone. */
export async function channelsRoutes(root: FastifyInstance, channels: ChannelsService) {
  // Session only, as the settings (issue 52): a channel is where notifications and its signing key go.
  const r = routeTable(root, ['settings'], { sessionOnly: true });
  const svc = channels;
  const [READ, EDIT] = ['MNU_SETTINGS.READ', 'MNU_SETTINGS.EDIT'] as const;
  const base = '/api/settings/notification-channels';

  r.get(base, READ, { summary: 'Notification channels (secrets say only whether they are set)', reply: z.array(channelSchema) }, (_req, caller) => svc.list(caller));
  r.get(`${base}/:id`, READ, { params: idParams, reply: channelSchema }, (req, caller) => svc.get(caller, req.params.id));
  r.post(base, EDIT, { body: channelInputSchema, reply: channelSchema }, (req, caller) => svc.create(caller, req.body));
  r.put(`${base}/:id`, EDIT, { params: idParams, body: channelInputSchema, reply: channelSchema }, (req, caller) => svc.update(caller, req.params.id, req.body));
  r.delete(`${base}/:id`, EDIT, { params: idParams }, (req, caller) => svc.remove(caller, req.params.id));
  r.post(`${base}/:id/test`, EDIT, { summary: 'Send a test message to the channel now', params: idParams, reply: channelTestResultSchema },
    async (req, caller) => ({ message: await svc.test(caller, req.params.id, req.lang) }));

  routeTable(root, ['notifications']).get('/api/notification-channels', 'MNU_NOTIFICATIONS.READ', {
    summary: 'The channels a notification may go to (the default administrator chooses them; others get none)',
    reply: z.array(channelChoiceSchema),
  }, (_req, caller) => svc.choices(caller));
}
