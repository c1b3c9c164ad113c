import type { Agent, AgentDevicesStatus, AgentDevicesStatusQuery, AgentInput, AgentReleaseView, AgentStatusView, AgentWithToken } from '@pagewatch/contracts/agents';
import type { NetworkRangeListRow } from '@pagewatch/contracts/network-ranges';
import { listQueryString } from '@pagewatch/contracts/list';
import { api } from '../../../lib/api.ts';
import { sharedKeys } from '../../../lib/query-keys.ts';

type PageResponse<T> = { pageRows: T[]; totalRows: number };
export type LocationOption = { id: number; code: string; name: string };

/** The agents feature's query keys; an agent's status and ranges sit under its own key. */
export const agentKeys = {
  detail: (id: number) => ['agents', id] as const,
  status: (id: number) => ['agents', id, 'status'] as const,
  ranges: (id: number) => ['agents', id, 'ranges'] as const,
  devicesStatus: (id: number, q: AgentDevicesStatusQuery) => ['agents', id, 'devices-status', q] as const,
  release: ['agents', 'release'] as const,
  userLocations: sharedKeys.userLocations,
};
export const agentQueryKey = agentKeys.detail;

export const fetchAgent = (id: number) => api<Agent>(`/agents/${id}`);
export const fetchAgentStatus = (id: number) => api<AgentStatusView>(`/agents/${id}/status`);
export const fetchUserLocations = () => api<PageResponse<LocationOption>>('/user-locations/');
export const fetchAgentRanges = (id: number) =>
  api<PageResponse<NetworkRangeListRow>>('/network-ranges', { query: listQueryString({ pageSize: 1000, pageNumber: 1, filter: ['agentId', '=', id] }) });

export const createAgent = (input: AgentInput) => api<AgentWithToken>('/agents', { method: 'POST', body: input });
export const updateAgent = (id: number, input: AgentInput) => api<Agent>(`/agents/${id}`, { method: 'PUT', body: input });
export const deleteAgent = (id: number) => api<void>(`/agents/${id}`, { method: 'DELETE' });
export const regenerateToken = (id: number) => api<AgentWithToken>(`/agents/${id}/regenerate-token`, { method: 'POST' });
export const notifyAllUpdate = () => api<{ count: number }>('/agents/notify-all/UPDATE_VERSION', { method: 'POST' });

/** Each device's latest outcome from the agent's runs (issue 44), filtered. */
export const fetchAgentDevicesStatus = (id: number, q: AgentDevicesStatusQuery) =>
  api<AgentDevicesStatus>(`/agents/${id}/devices-status`, { query: new URLSearchParams(Object.entries(q).filter(([, v]) => v)) });
export const fetchAgentRelease = () => api<AgentReleaseView>('/agents/release');
export const setAgentUpdatesPaused = (id: number, paused: boolean) => api<Agent>(`/agents/${id}/updates`, { method: 'PUT', body: { paused } });
