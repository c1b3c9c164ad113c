import { notificationsList, type Notification, type NotificationInput, type Subscriber } from '@pagewatch/contracts/notifications';
import type { ChannelChoice } from '@pagewatch/contracts/notification-channels';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';
import { sharedKeys } from '../../../lib/query-keys.ts';
import { gridQueryKey } from '../../../components/data-grid/use-grid-data.ts';

type PageResponse<T> = { pageRows: T[]; totalRows: number };
export type LocationOption = { id: number; code: string; name: string };

/** The notifications feature's query keys; pages name none of their own. */
export const notificationKeys = {
  /** The notifications grid's pages: every one of them starts with this key. */
  list: gridQueryKey(notificationsList.endpoint),
  detail: (id: number) => ['notifications', id] as const,
  subscribers: ['notification-subscribers'] as const,
  channels: ['notification-channels'] as const,
};

export const fetchNotification = (id: number) => api<Notification>(`/notifications/${id}`);
export const saveNotification = (id: number | null, input: NotificationInput) =>
  id === null ? api<Notification>('/notifications', { method: 'POST', body: input }) : api<Notification>(`/notifications/${id}`, { method: 'PUT', body: input });
export const deleteNotification = (id: number) => api<void>(`/notifications/${id}`, { method: 'DELETE' });
export const testNotification = (id: number) => api<{ sent: number }>(`/notifications/${id}/test-email/`, { method: 'POST' });

/** After a save: the form shows the saved notification, and the grid asks for its pages anew. */
export function notificationSaved(client: QueryClient, saved: Notification) {
  client.setQueryData(notificationKeys.detail(saved.id), saved);
  return client.invalidateQueries({ queryKey: notificationKeys.list });
}

export const useSubscribers = () => useQuery({ queryKey: notificationKeys.subscribers, queryFn: () => api<Subscriber[]>('/notification-subscribers') });
export const useUserLocations = () => useQuery({ queryKey: sharedKeys.userLocations, queryFn: () => api<PageResponse<LocationOption>>('/user-locations/') });
/** The channels a notification may go to: the default administrator's choice (others get none). */
export const useChannelChoices = () => useQuery({ queryKey: notificationKeys.channels, queryFn: () => api<ChannelChoice[]>('/notification-channels') });
