import type { ServiceResult } from '@pagewatch/contracts/devices';
import { api } from '../../lib/api.ts';

export type UploadAction = 'set-active-status' | 'set-inactive-status';

/** A service upload: the serial numbers file as multipart `serialNumbers`. */
export function uploadSerials(action: UploadAction, file: File) {
  const body = new FormData();
  body.append('serialNumbers', file);
  return api<ServiceResult>(`/service/${action}`, { method: 'POST', body });
}

/** Stops maintenance for every device of the caller's locations. */
export const resetStatus = () => api<ServiceResult>('/service/reset-status', { method: 'POST' });
