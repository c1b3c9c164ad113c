import type { BillingRun, BillingRunDetail, Contract, ContractDevice, ContractDeviceInput, ContractInput } from '@pagewatch/contracts/billing';
import { api } from '../../../lib/api.ts';
import { downloadFile } from '../../../lib/download.ts';

/** The query keys of the contracts screen (issue 54): a change reloads them all (`contractKeys.all`). */
export const contractKeys = {
  all: ['contracts'] as const,
  list: ['contracts', 'list'] as const,
  locations: ['contracts', 'locations'] as const,
  devices: (id: number) => ['contracts', 'devices', id] as const,
  runs: (id: number) => ['contracts', 'runs', id] as const,
  run: (id: number) => ['contracts', 'run', id] as const,
};

export const fetchContracts = () => api<Contract[]>('/contracts');
export const fetchLocationOptions = () => api<{ pageRows: { id: number; name: string }[] }>('/user-locations/');
export const createContract = (body: ContractInput) => api<Contract>('/contracts', { method: 'POST', body });
export const updateContract = (id: number, body: ContractInput) => api<Contract>(`/contracts/${id}`, { method: 'PUT', body });
export const deleteContract = (id: number) => api<void>(`/contracts/${id}`, { method: 'DELETE' });
export const fetchDevices = (id: number) => api<ContractDevice[]>(`/contracts/${id}/devices`);
export const addDevice = (id: number, body: ContractDeviceInput) => api<ContractDevice[]>(`/contracts/${id}/devices`, { method: 'POST', body });
export const changeDevice = (id: number, deviceId: number, body: { equipmentId?: string | null; leftOn: string | null }) => api<ContractDevice[]>(`/contracts/${id}/devices/${deviceId}`, { method: 'PUT', body });
export const removeDevice = (id: number, deviceId: number) => api<ContractDevice[]>(`/contracts/${id}/devices/${deviceId}`, { method: 'DELETE' });
export const fetchRuns = (id: number) => api<BillingRun[]>(`/contracts/${id}/runs`);
export const makeRun = (id: number, periodFrom: string) => api<BillingRunDetail>(`/contracts/${id}/runs`, { method: 'POST', body: { periodFrom } });
export const fetchRun = (id: number) => api<BillingRunDetail>(`/billing-runs/${id}`);
export const reviewDevice = (id: number, deviceId: number, note: string) => api<BillingRunDetail>(`/billing-runs/${id}/devices/${deviceId}/review`, { method: 'POST', body: { note } });
export const closeRun = (id: number) => api<BillingRunDetail>(`/billing-runs/${id}/close`, { method: 'POST' });
export const downloadRun = (id: number, format: 'csv' | 'xlsx' | 'erp') => downloadFile(`/billing-runs/${id}/files/${format}`, `billing-run-${id}.${format === 'xlsx' ? 'xlsx' : 'csv'}`);
