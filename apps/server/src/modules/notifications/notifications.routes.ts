import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { idParams } from '@pagewatch/contracts/fields';
import {
  notificationInputSchema,
  notificationListRowSchema,
  notificationSchema,
  notificationTypeSchema,
  subscriberSchema,
  testEmailResultSchema,
  userNotificationRowSchema,
} from '@pagewatch/contracts/notifications';
import { routeTable } from '../../plugins/route-table.ts';
import type { NotificationsService } from './notifications.service.ts';

/** Notifications (grants MNU_NOTIFICATIONS; what a caller sees is bound by their locations). */
export async function notificationsRoutes(root: FastifyInstance, notifications: NotificationsService) {
  const r = routeTable(root, ['notifications']);
  const svc = notifications;
  const [READ, EDIT] = ['MNU_NOTIFICATIONS.READ', 'MNU_NOTIFICATIONS.EDIT'] as const;

  r.list(['/api/notifications', '/api/notifications/page'], READ, notificationListRowSchema, (req, caller) => svc.list(caller, req.query));
  r.list(['/api/user-notifications-v', '/api/user-notifications-v/page'], READ, userNotificationRowSchema, (req, caller) => svc.userNotifications(caller, req.query));
  r.get('/api/notification-types', READ, { reply: z.array(notificationTypeSchema) }, (req) => svc.types(req.lang));
  r.get('/api/notification-subscribers', READ, { summary: 'The users a notification may be sent to: active users of the caller\'s locations', reply: z.array(subscriberSchema) },
    (_req, caller) => svc.subscribers(caller));

  r.get('/api/notifications/:id', READ, { params: idParams, reply: notificationSchema }, (req, caller) => svc.get(caller, req.params.id, req.lang));
  // Session only (issue 52): what a notification mails, to whom and with which links.
  const w = routeTable(root, ['notifications'], { sessionOnly: true });
  w.post('/api/notifications', EDIT, { body: notificationInputSchema, reply: notificationSchema }, (req, caller) => svc.create(caller, req.body, req.lang));
  w.put('/api/notifications/:id', EDIT, { params: idParams, body: notificationInputSchema, reply: notificationSchema }, (req, caller) => svc.update(caller, req.params.id, req.body, req.lang));
  r.delete('/api/notifications/:id', EDIT, { params: idParams }, (req, caller) => svc.remove(caller, req.params.id));
  w.post('/api/notifications/:id/test-email/', EDIT, { summary: 'Send the notification now, as a test, to its recipients', params: idParams, reply: testEmailResultSchema },
    (req, caller) => svc.testEmail(caller, req.params.id));
}
