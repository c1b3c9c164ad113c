import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { notificationsList } from '@pagewatch/contracts/notifications';
import { ListScreen } from '../../components/data-grid/list-screen.tsx';
import { useHasGrant } from '../../lib/auth-context.tsx';
import { notificationsColumns } from './notifications-columns.tsx';

/**
 * `/notifications` (spec section 2): the grid with Create; `?_flash=<id>` selects that row and
 * leaves the address (the form sends it after a save).
 */
export function NotificationsPage() {
  const canFilter = useHasGrant('BTN_CLEAR_FILTER.EXECUTE');
  const [params, setParams] = useSearchParams();
  const [flash] = useState(() => Number(params.get('_flash')));
  useEffect(() => {
    if (params.has('_flash')) {
      const next = new URLSearchParams(params);
      next.delete('_flash');
      setParams(next, { replace: true });
    }
  }, [params, setParams]);

  return (
    <ListScreen
      section="notifications"
      list={notificationsList}
      columns={notificationsColumns}
      filterPanel={canFilter}
      highlightId={Number.isInteger(flash) && flash > 0 ? flash : null}
      create={{ label: 'notification.create', grant: 'MNU_NOTIFICATIONS.EDIT' }}
    />
  );
}
