import type { Idp, IdpInput, IdpTestResult } from '@pagewatch/contracts/identity-providers';
import { api } from '../../../lib/api.ts';

export type PageOf<T> = { pageRows: T[]; totalRows: number };
export type Option = { id: number; code: string; name: string };

export const IDP_KEY = ['identity-providers'] as const;
export const IDP_LOCATIONS_KEY = ['identity-providers', 'locations'] as const;
export const IDP_ROLES_KEY = ['identity-providers', 'roles'] as const;
const base = '/identity-providers';
export const fetchProviders = () => api<Idp[]>(base);
export const saveProvider = (id: number | null, input: IdpInput) =>
  id === null ? api<Idp>(base, { method: 'POST', body: input }) : api<Idp>(`${base}/${id}`, { method: 'PUT', body: input });
/** The form's values tried (nothing saved); a saved provider's stored secret is used when none is typed. */
export const testProvider = (id: number | null, input: IdpInput) => api<IdpTestResult>(id === null ? `${base}/test` : `${base}/${id}/test`, { method: 'POST', body: input });
export const deleteProvider = (id: number) => api<void>(`${base}/${id}`, { method: 'DELETE' });
/** What a mapping may give: the caller's locations and the roles they may hand out. */
export const fetchLocations = () => api<PageOf<Option>>('/user-locations/');
export const fetchRoles = () => api<PageOf<Option>>('/managed-roles-v/');
