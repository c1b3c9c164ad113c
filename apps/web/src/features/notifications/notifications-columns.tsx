import { NOTIFICATION_TYPE_CODES, NOTIFICATION_TYPES, notificationsList, type NotificationListRow } from '@pagewatch/contracts/notifications';
import { columnsFromList } from '../../components/data-grid/grid-columns.ts';
import type { GridColumn } from '../../components/data-grid/grid-types.ts';

const TYPE_OPTIONS = NOTIFICATION_TYPE_CODES.map((c) => ({ value: NOTIFICATION_TYPES[c].id, label: `notification.types.${c}` }));

/** The notifications grid (spec section 2): active (90), name, type (a lookup with a header filter), description. */
export const notificationsColumns: GridColumn<NotificationListRow>[] = columnsFromList(notificationsList, {
  active: { header: 'notification.active', width: 90 },
  name: { header: 'notification.name', width: 260 },
  notificationTypeId: { header: 'notification.type', width: 220, type: 'lookup', options: TYPE_OPTIONS },
  description: { header: 'notification.description', width: 360 },
  id: { header: 'notification.id', width: 80 },
});
