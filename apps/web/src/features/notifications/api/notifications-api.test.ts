import { describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { notificationsList, type Notification } from '@pagewatch/contracts/notifications';
import { gridQueryKey } from '../../../components/data-grid/use-grid-data.ts';
import { notificationKeys, notificationSaved } from './notifications-api.ts';

describe('notificationSaved', () => {
  it('marks the notifications grid’s cached pages stale, so the grid asks the server again', async () => {
    const client = new QueryClient();
    // The key the grid gives a page of the list (use-grid-data.ts): its prefix, then the query.
    const page = [...gridQueryKey(notificationsList.endpoint), 'page=25,1&sort=name,ASC'];
    client.setQueryData(page, { pageRows: [], totalRows: 0 });
    expect(client.getQueryState(page)?.isInvalidated).toBe(false);

    await notificationSaved(client, { id: 7 } as Notification);

    expect(client.getQueryState(page)?.isInvalidated).toBe(true);
    expect(client.getQueryData(notificationKeys.detail(7))).toEqual({ id: 7 });
  });
});
