import type { InstanceLicense, LicensableLocation, License, LicenseInput, LicenseListRow, LocationDeviceCounts } from '@pagewatch/contracts/licenses';
import { listQueryString, type PageResponse } from '@pagewatch/contracts/list';
import { api } from '../../../lib/api.ts';
import { sharedKeys } from '../../../lib/query-keys.ts';
import { downloadFile } from '../../../lib/download.ts';

/** The licenses feature's query keys. The device counts have their own: the location screen's devices are another list. */
export const licenseKeys = {
  list: ['licenses'] as const,
  detail: (id: number) => ['license', id] as const,
  licensable: ['licensable'] as const,
  deviceCounts: (locationId: string | null) => ['license-device-counts', locationId] as const,
  instance: sharedKeys.instanceLicense,
};
export const INSTANCE_LICENSE_KEY = licenseKeys.instance;
export const licenseKey = licenseKeys.detail;

/** Every location of the tree at once: the grid filters and sorts them in the browser. */
export const fetchLicenseRows = () => api<PageResponse<LicenseListRow>>('/user-licenses/page', { query: listQueryString({ pageSize: 1000, pageNumber: 1 }) });
export const fetchLicense = (id: number) => api<License>(`/user-licenses/${id}`);
export const fetchLicensable = () => api<PageResponse<LicensableLocation>>('/user-locations/managed-license');
export const fetchDeviceCounts = (locationId: number) => api<LocationDeviceCounts>(`/location-devices-v/${locationId}`);
export const fetchInstanceLicense = () => api<InstanceLicense>('/instance-license/');

export const saveLicense = (id: number | null, input: LicenseInput) =>
  id === null ? api<License>('/licenses', { method: 'POST', body: input }) : api<License>(`/licenses/${id}`, { method: 'PUT', body: input });
export const deleteLicense = (id: number) => api<void>(`/licenses/${id}`, { method: 'DELETE' });

/** lic-request.json for the issuer. */
export const downloadLicenseRequest = (companyName: string) =>
  downloadFile(`/instance-license/request/?${new URLSearchParams({ companyName })}`, 'lic-request.json');

/** The issuer's .lic, as multipart `licenseFile`. */
export function uploadInstanceLicense(file: File) {
  const body = new FormData();
  body.append('licenseFile', file);
  return api<InstanceLicense>('/instance-license', { method: 'POST', body });
}
