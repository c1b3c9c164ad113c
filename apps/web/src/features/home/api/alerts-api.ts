import type { Alert } from '@pagewatch/contracts/alerts';
import { api } from '../../../lib/api.ts';

export const openAlertsKey = ['alerts', 'open'] as const;
export const fetchOpenAlerts = () => api<Alert[]>('/alerts', { query: 'open=true' });
export const acknowledgeAlert = (id: number) => api<Alert>(`/alerts/${id}/acknowledge`, { method: 'POST' });
