import type { AgentListRow } from '@pagewatch/contracts/agents';
import type { Queue, QueueInput } from '@pagewatch/contracts/queues';
import { api } from '../../../lib/api.ts';
import { sharedKeys } from '../../../lib/query-keys.ts';

type PageResponse<T> = { pageRows: T[]; totalRows: number };

export const queueKeys = {
  detail: (id: number) => ['queues', id] as const,
  agentOptions: sharedKeys.agentOptions,
};
export const queueQueryKey = queueKeys.detail;

export const fetchQueue = (id: number) => api<Queue>(`/queues/${id}`);
export const fetchAgents = () => api<PageResponse<AgentListRow>>('/agents', { query: 'page=1000,1&sort=name,ASC' });

export const saveQueue = (id: number | null, input: QueueInput) =>
  id === null ? api<Queue>('/queues', { method: 'POST', body: input }) : api<Queue>(`/queues/${id}`, { method: 'PUT', body: input });
export const deleteQueue = (id: number) => api<void>(`/queues/${id}`, { method: 'DELETE' });
export const resetQueue = (id: number) => api<Queue>(`/queues/${id}/reset`, { method: 'POST' });
