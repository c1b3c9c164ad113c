import type { AgentListRow } from '@pagewatch/contracts/agents';
import type { NetworkRange, NetworkRangeInput } from '@pagewatch/contracts/network-ranges';
import { api } from '../../../lib/api.ts';
import { sharedKeys } from '../../../lib/query-keys.ts';

type PageResponse<T> = { pageRows: T[]; totalRows: number };
export type LocationOption = { id: number; code: string; name: string };

export const rangeKeys = {
  detail: (id: number) => ['network-ranges', id] as const,
  agentOptions: sharedKeys.agentOptions,
  userLocations: sharedKeys.userLocations,
};
export const rangeQueryKey = rangeKeys.detail;

export const fetchRange = (id: number) => api<NetworkRange>(`/network-ranges/${id}`);
export const fetchAgents = () => api<PageResponse<AgentListRow>>('/agents', { query: 'page=1000,1&sort=name,ASC' });
export const fetchUserLocations = () => api<PageResponse<LocationOption>>('/user-locations/');

export const saveRange = (id: number | null, input: NetworkRangeInput) =>
  id === null ? api<NetworkRange>('/network-ranges', { method: 'POST', body: input }) : api<NetworkRange>(`/network-ranges/${id}`, { method: 'PUT', body: input });
export const deleteRange = (id: number) => api<void>(`/network-ranges/${id}`, { method: 'DELETE' });
