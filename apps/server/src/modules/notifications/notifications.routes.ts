import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParams } from '@pagewatch/contracts/fields';
import { listQuerySchema, pageResponseSchema } from '@pagewatch/contracts/list';
import {
  notificationInputSchema,
  notificationListRowSchema,
  notificationSchema,
  notificationTypeSchema,
  subscriberSchema,
  testEmailResultSchema,
  userNotificationRowSchema,
} from '@pagewatch/contracts/notifications';
import { callerOf } from '../../plugins/access.ts';
import type { AppContext } from '../../app-context.ts';

/** Notifications (grants MNU_NOTIFICATIONS; what a caller sees is bound by their locations). */
export async function notificationsRoutes(root: FastifyInstance, ctx: AppContext) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const tags = ['notifications'];
  const read = { access: 'MNU_NOTIFICATIONS.READ' } as const;
  const edit = { access: 'MNU_NOTIFICATIONS.EDIT' } as const;

  for (const url of ['/api/notifications', '/api/notifications/page']) {
    app.get(url, { config: read, schema: { tags, querystring: listQuerySchema, response: { 200: pageResponseSchema(notificationListRowSchema) } } }, (req) =>
      ctx.notifications.list(callerOf(req), req.query));
  }
  for (const url of ['/api/user-notifications-v', '/api/user-notifications-v/page']) {
    app.get(url, { config: read, schema: { tags, querystring: listQuerySchema, response: { 200: pageResponseSchema(userNotificationRowSchema) } } }, (req) =>
      ctx.notifications.userNotifications(callerOf(req), req.query));
  }

  app.get('/api/notification-types', { config: read, schema: { tags, response: { 200: z.array(notificationTypeSchema) } } }, (req) => ctx.notifications.types(req.lang));

  app.get('/api/notification-subscribers', {
    config: read,
    schema: { tags, summary: 'The users a notification may be sent to: active users of the caller\'s locations', response: { 200: z.array(subscriberSchema) } },
  }, (req) => ctx.notifications.subscribers(callerOf(req)));

  app.get('/api/notifications/:id', { config: read, schema: { tags, params: idParams, response: { 200: notificationSchema } } }, (req) =>
    ctx.notifications.get(callerOf(req), req.params.id, req.lang));

  app.post('/api/notifications', { config: edit, schema: { tags, body: notificationInputSchema, response: { 200: notificationSchema } } }, (req) =>
    ctx.notifications.create(callerOf(req), req.body, req.lang));

  app.put('/api/notifications/:id', { config: edit, schema: { tags, params: idParams, body: notificationInputSchema, response: { 200: notificationSchema } } }, (req) =>
    ctx.notifications.update(callerOf(req), req.params.id, req.body, req.lang));

  app.delete('/api/notifications/:id', { config: edit, schema: { tags, params: idParams } }, async (req, reply) => {
    await ctx.notifications.remove(callerOf(req), req.params.id);
    return reply.status(204).send();
  });

  app.post('/api/notifications/:id/test-email/', {
    config: edit,
    schema: { tags, summary: 'Send the notification now, as a test, to its recipients', params: idParams, response: { 200: testEmailResultSchema } },
  }, (req) => ctx.notifications.testEmail(callerOf(req), req.params.id));
}
