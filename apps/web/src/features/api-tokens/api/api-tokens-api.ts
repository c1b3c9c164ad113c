import type { ApiToken, ApiTokenInput, ApiTokenWithSecret } from '@pagewatch/contracts/api-tokens';
import { api } from '../../../lib/api.ts';

/** The signed-in user's own API tokens (issue 42). */
export const apiTokenKeys = { mine: ['api-tokens'] as const };

export const fetchApiTokens = () => api<ApiToken[]>('/users/me/tokens');
export const createApiToken = (input: ApiTokenInput) => api<ApiTokenWithSecret>('/users/me/tokens', { method: 'POST', body: input });
export const revokeApiToken = (id: number) => api<void>(`/users/me/tokens/${id}`, { method: 'DELETE' });
