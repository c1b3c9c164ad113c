import { sql } from 'drizzle-orm';
import { notificationsList, userNotificationsList } from '@pagewatch/contracts/notifications';
import { listSql, tableFields } from '../../lib/list-query.ts';
import { locationIn, type Scoped } from '../../db/scope.ts';
import { notifications, notificationSubscribers } from '../../db/schema/notifications.ts';
import { users } from '../../db/schema/users.ts';

/**
 * The notifications a caller may see: every one of their locations is in the caller's scope.
 * One without locations covers every location: only a caller who sees them all sees it.
 */
export function notificationsVisibleTo(caller: Scoped, id = sql`n.id`) {
  if (caller.allLocations) return null;
  if (!caller.scope.size) return sql`false`;
  return sql`EXISTS (SELECT 1 FROM notification_locations nl WHERE nl.notification_id = ${id})
    AND NOT EXISTS (SELECT 1 FROM notification_locations nl WHERE nl.notification_id = ${id} AND NOT ${locationIn(caller.scope, sql`nl.location_id`)})`;
}

/** The notifications grid. */
export const notificationsListSql = listSql(notificationsList, {
  from: sql`notifications n`,
  tiebreaker: [sql`n.id`],
  sql: { ...tableFields('n', notifications, ['id', 'active', 'name', 'description']), notificationTypeId: sql`n.type_id` },
  visibleTo: (caller) => notificationsVisibleTo(caller),
});

/** Who is subscribed to what: notifications the caller sees, users the caller sees. */
export const userNotificationsListSql = listSql(userNotificationsList, {
  from: sql`notification_subscribers ns JOIN users u ON u.id = ns.user_id JOIN notifications n ON n.id = ns.notification_id`,
  tiebreaker: [sql`ns.notification_id`, sql`ns.user_id`],
  sql: {
    id: sql`(ns.notification_id || '-' || ns.user_id)`,
    ...tableFields('ns', notificationSubscribers, ['userId', 'notificationId']),
    ...tableFields('u', users, ['login', 'email']),
    ...tableFields('n', notifications, ['active']),
    notificationName: sql`n.name`,
    notificationTypeId: sql`n.type_id`,
  },
  visibleTo: (caller) => {
    const users = caller.scope.size ? sql`EXISTS (SELECT 1 FROM user_locations ul WHERE ul.user_id = u.id AND ${locationIn(caller.scope, sql`ul.location_id`)})` : sql`false`;
    const seen = notificationsVisibleTo(caller, sql`ns.notification_id`);
    return seen ? sql`${seen} AND ${users}` : users;
  },
});
