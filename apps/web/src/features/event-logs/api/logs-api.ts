import { useQuery } from '@tanstack/react-query';
import { eventLogsList, type EventGroupRow, type EventLog } from '@pagewatch/contracts/event-logs';
import type { PageResponse } from '@pagewatch/contracts/list';
import { api } from '../../../lib/api.ts';

export const LOGS_ENDPOINT = eventLogsList.endpoint;
export const eventLogKey = (id: number) => ['event-log', id] as const;

export function useEventLog(id: number) {
  return useQuery({
    queryKey: eventLogKey(id),
    queryFn: ({ signal }) => api<EventLog>(`/event-logs/${id}`, { signal }),
    enabled: Number.isInteger(id) && id > 0,
  });
}

/** Event groups rarely change: loaded once per session. */
export function useEventGroups() {
  return useQuery({
    queryKey: ['event-groups'],
    queryFn: ({ signal }) => api<PageResponse<EventGroupRow>>('/event-groups', { signal }),
    staleTime: Infinity,
  });
}
