import type { Device, DeviceUpdate, MessageResponse } from '@pagewatch/contracts/devices';
import type { DeviceWebPort, DeviceWebSession } from '@pagewatch/contracts/device-web';
import type { MeterCorrection, MeterCorrectionInput, MeterResetInput } from '@pagewatch/contracts/meter-reads';
import type { DmDeviceDayVRow, DmDevicePartDayRow } from '@pagewatch/contracts/device-history';
import { listQueryString, MAX_PAGE_SIZE, type FilterExpression, type PageResponse, type SortSpec } from '@pagewatch/contracts/list';
import { api } from '../../../lib/api.ts';
import { downloadFile } from '../../../lib/download.ts';

export const deviceKeys = {
  detail: (id: number) => ['device', id] as const,
  days: (id: number, from: string) => ['device-days', id, from] as const,
  partDays: (id: number, from: string) => ['device-part-days', id, from] as const,
};
export const deviceKey = deviceKeys.detail;

export const fetchDevice = (id: number) => api<Device>(`/devices/${id}`);
export const saveDevice = (id: number, patch: DeviceUpdate) => api<Device>(`/devices/${id}`, { method: 'PUT', body: patch });
export const deleteDevice = (id: number) => api<void>(`/devices/${id}`, { method: 'DELETE' });
export const changeActivity = (ids: number[], managedFlag: boolean) =>
  api<MessageResponse>('/devices/change-activity', { method: 'POST', body: { ids, managedFlag } });
export const requestWalk = (id: number) => api<{ message: string; requestedAt: string }>(`/dm-device-days/device/${id}/update-walk`, { method: 'POST' });

/** Unknown devices' walks, one `.walk` file each, in a zip (all in scope, or the ids given). */
export function downloadWalks(ids: number[] = []) {
  const qs = ids.map((id) => `ids=${id}`).join('&');
  return downloadFile(`/devices/walks${qs ? `?${qs}` : ''}`, 'unknown-devices.zip');
}

/** Every row of a list (a few pages at most: a year of one device's history). */
async function fetchAll<T>(endpoint: string, filter: FilterExpression, sort: SortSpec[], maxPages = 10): Promise<T[]> {
  const out: T[] = [];
  for (let page = 1; page <= maxPages; page++) {
    const res = await api<PageResponse<T>>(endpoint, { query: listQueryString({ pageSize: MAX_PAGE_SIZE, pageNumber: page, sort, filter }) });
    out.push(...res.pageRows);
    if (out.length >= res.totalRows || res.pageRows.length < MAX_PAGE_SIZE) break;
  }
  return out;
}

const since = (deviceId: number, from: string): FilterExpression => [['deviceId', '=', deviceId], 'and', ['factDate', '>=', from]];

export const fetchDeviceDays = (deviceId: number, from: string) =>
  fetchAll<DmDeviceDayVRow>('/dm-device-days-v/page', since(deviceId, from), [{ field: 'factDate', dir: 'ASC' }]);
export const fetchDevicePartDays = (deviceId: number, from: string) =>
  fetchAll<DmDevicePartDayRow>('/dm-device-part-days/page', since(deviceId, from), [{ field: 'factDate', dir: 'ASC' }, { field: 'supplyIndex', dir: 'ASC' }]);

/** A device's meter corrections (issue 41); each call answers the whole list, withdrawn ones too. */
export const correctionsKey = (id: number) => ['device-meter-corrections', id] as const;
export const fetchCorrections = (id: number) => api<MeterCorrection[]>(`/devices/${id}/meter-corrections`);
export const addCorrection = (id: number, body: MeterCorrectionInput) => api<MeterCorrection[]>(`/devices/${id}/meter-corrections`, { method: 'POST', body });
/** A counter reset (issue 54): every meter carried over from a day on, as one act. */
export const resetCounters = (id: number, body: MeterResetInput) => api<MeterCorrection[]>(`/devices/${id}/meter-corrections/reset`, { method: 'POST', body });
export const withdrawCorrection = (id: number, correctionId: number, reason: string) =>
  api<MeterCorrection[]>(`/devices/${id}/meter-corrections/${correctionId}/withdraw`, { method: 'POST', body: { reason } });

/** The device's own web page through its agent (issue 55): open a session, the caller's open ones, close one. */
export const webSessionsKey = (deviceId: number) => ['device-web-sessions', deviceId] as const;
export const openWebSession = (deviceId: number, port: DeviceWebPort) => api<DeviceWebSession>(`/devices/${deviceId}/web-sessions`, { method: 'POST', body: { port } });
export const fetchWebSessions = (deviceId: number) => api<DeviceWebSession[]>(`/devices/${deviceId}/web-sessions`);
export const closeWebSession = (id: number) => api<void>(`/device-web-sessions/${id}`, { method: 'DELETE' });
