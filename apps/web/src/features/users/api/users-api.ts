import type { User, UserInput } from '@pagewatch/contracts/users';
import { api } from '../../../lib/api.ts';
import { sharedKeys } from '../../../lib/query-keys.ts';

type PageResponse<T> = { pageRows: T[]; totalRows: number };
export type RoleOption = { id: number; code: string; name: string };
export type LocationOption = { id: number; code: string; name: string; parentId: number | null };

export const userKeys = {
  detail: (id: number) => ['users', id] as const,
  managedRoles: ['managed-roles'] as const,
  userLocations: sharedKeys.userLocations,
};
export const userQueryKey = userKeys.detail;

export const fetchUser = (id: number) => api<User>(`/users/${id}`);
export const fetchManagedRoles = () => api<PageResponse<RoleOption>>('/managed-roles-v/');
export const fetchUserLocations = () => api<PageResponse<LocationOption>>('/user-locations/');

export const saveUser = (id: number | null, input: UserInput) =>
  id === null ? api<User>('/users', { method: 'POST', body: input }) : api<User>(`/users/${id}`, { method: 'PUT', body: input });

export const deleteUser = (id: number) => api<void>(`/users/${id}`, { method: 'DELETE' });
