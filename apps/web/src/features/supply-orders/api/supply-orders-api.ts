import type { SupplyOrder, SupplyOrderInput, SupplyOrderSettings, SupplyOrderSettingsInput, SupplySuggestion } from '@pagewatch/contracts/supply-orders';
import { api } from '../../../lib/api.ts';
import { downloadFile } from '../../../lib/download.ts';

const at = (location: number | null) => (location ? `?location=${location}` : '');

/** The query keys of the screen: whatever changes an order reloads them all (`supplyOrderKeys.all`). */
export const supplyOrderKeys = {
  all: ['supply-orders'] as const,
  suggestions: (location: number | null) => ['supply-orders', 'suggestions', location] as const,
  orders: (location: number | null) => ['supply-orders', 'orders', location] as const,
  settings: ['supply-orders', 'settings'] as const,
};

export const fetchSuggestions = (location: number | null) => api<SupplySuggestion[]>(`/supply-orders/suggestions${at(location)}`);
export const fetchOrders = (location: number | null) => api<SupplyOrder[]>(`/supply-orders${at(location)}`);
export const fetchSettings = () => api<SupplyOrderSettings[]>('/supply-orders/settings');
export const placeOrder = (body: SupplyOrderInput) => api<SupplyOrder[]>('/supply-orders', { method: 'POST', body });
export const shipOrder = (id: number) => api<SupplyOrder>(`/supply-orders/${id}/ship`, { method: 'POST' });
export const cancelOrder = (id: number) => api<SupplyOrder>(`/supply-orders/${id}/cancel`, { method: 'POST' });
export const saveSettings = (locationId: number, body: SupplyOrderSettingsInput) => api<SupplyOrderSettings>(`/supply-orders/settings/${locationId}`, { method: 'PUT', body });
export const downloadSuggestions = (format: 'csv' | 'xlsx', location: number | null) => downloadFile(`/supply-orders/suggestions/${format}${at(location)}`, `supplies.${format}`);
