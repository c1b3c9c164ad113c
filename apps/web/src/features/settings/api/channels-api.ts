import type { Channel, ChannelInput } from '@pagewatch/contracts/notification-channels';
import { api } from '../../../lib/api.ts';

/** Every channel query: the settings' list and the notification form's choices (notifications-api.ts). */
export const CHANNELS_ALL_KEY = ['notification-channels'] as const;
export const CHANNELS_QUERY_KEY = [...CHANNELS_ALL_KEY, 'settings'] as const;

const base = '/settings/notification-channels';
export const fetchChannels = () => api<Channel[]>(base);
export const saveChannel = (id: number | null, input: ChannelInput) =>
  id === null ? api<Channel>(base, { method: 'POST', body: input }) : api<Channel>(`${base}/${id}`, { method: 'PUT', body: input });
export const deleteChannel = (id: number) => api<void>(`${base}/${id}`, { method: 'DELETE' });
export const testChannel = (id: number) => api<{ message: string }>(`${base}/${id}/test`, { method: 'POST' });
