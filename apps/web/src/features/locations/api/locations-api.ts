import type { DictionaryItem, DictionaryItemInput, DictionaryItemPatch, LocationPlan, PlanDevice, PlanPlacement } from '@pagewatch/contracts/dictionaries';
import type { PageResponse } from '@pagewatch/contracts/list';
import { api, apiBase, ApiError, getToken } from '../../../lib/api.ts';
import i18n from '../../../i18n/i18n.ts';

export type LocationRow = { id: number; code: string; name: string; parentId: number | null };
export type LocationAgent = { id: number; name: string; status: string; lastContactAt: string | null; version: string | null };

export const locationKey = (id: number) => ['location', id] as const;
export const planKey = (id: number) => ['location-plan', id] as const;
export const locationKeys = {
  detail: locationKey,
  plan: planKey,
  planImage: (id: number, version: number, planType: string | null | undefined) => ['location-plan-image', id, version, planType] as const,
  devices: (id: number) => ['location-devices', id] as const,
  agents: (id: number) => ['location-agents', id] as const,
};

export const fetchLocations = () => api<PageResponse<LocationRow>>('/user-locations/');
export const fetchLocation = (id: number) => api<DictionaryItem>(`/dictionary-items/${id}`);
export const createLocation = (input: DictionaryItemInput) => api<DictionaryItem>('/dictionary-items', { method: 'POST', body: input });
export const updateLocation = (id: number, patch: DictionaryItemPatch) => api<DictionaryItem>(`/dictionary-items/${id}`, { method: 'PUT', body: patch });
export const deleteLocation = (id: number) => api<void>(`/dictionary-items/${id}`, { method: 'DELETE' });

export const fetchLocationAgents = (id: number) => api<PageResponse<LocationAgent>>(`/locations/${id}/agents`);
export const fetchLocationDevices = (id: number) => api<PageResponse<PlanDevice>>(`/locations/${id}/devices`);

export const fetchPlan = (id: number) => api<LocationPlan>(`/locations/${id}/plan`);
export const savePlacements = (id: number, placements: PlanPlacement[]) =>
  api<LocationPlan>(`/locations/${id}/plan/placements`, { method: 'PUT', body: { placements } });
export const deletePlan = (id: number) => api<void>(`/locations/${id}/plan`, { method: 'DELETE' });
export function uploadPlan(id: number, file: File) {
  const body = new FormData();
  body.append('file', file);
  return api<LocationPlan>(`/locations/${id}/plan`, { method: 'POST', body });
}

/** The plan image as an object URL (fetched with the session header, which an <img> cannot send). */
export async function fetchPlanImage(id: number): Promise<string> {
  const res = await fetch(`${apiBase()}/locations/${id}/plan/image`, {
    headers: { Authorization: `Bearer ${getToken() ?? ''}`, 'Accept-Language': i18n.language || 'en' },
  });
  if (!res.ok) throw new ApiError(res.status, res.statusText, null);
  return URL.createObjectURL(await res.blob());
}
