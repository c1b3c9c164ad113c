import type { Notification, NotificationInput, Subscriber } from '@pagewatch/contracts/notifications';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api.ts';

type PageResponse<T> = { pageRows: T[]; totalRows: number };
export type LocationOption = { id: number; code: string; name: string };

export const notificationQueryKey = (id: number) => ['notifications', id] as const;

export const fetchNotification = (id: number) => api<Notification>(`/notifications/${id}`);
export const saveNotification = (id: number | null, input: NotificationInput) =>
  id === null ? api<Notification>('/notifications', { method: 'POST', body: input }) : api<Notification>(`/notifications/${id}`, { method: 'PUT', body: input });
export const deleteNotification = (id: number) => api<void>(`/notifications/${id}`, { method: 'DELETE' });
export const testNotification = (id: number) => api<{ sent: number }>(`/notifications/${id}/test-email/`, { method: 'POST' });

export const useSubscribers = () => useQuery({ queryKey: ['notification-subscribers'], queryFn: () => api<Subscriber[]>('/notification-subscribers') });
export const useUserLocations = () => useQuery({ queryKey: ['user-locations'], queryFn: () => api<PageResponse<LocationOption>>('/user-locations/') });
