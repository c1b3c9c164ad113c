import type { Setting, SettingsSave, TestEmail } from '@pagewatch/contracts/settings';
import { api } from '../../../lib/api.ts';

export const SETTINGS_QUERY_KEY = ['settings'] as const;

export const fetchSettings = () => api<Setting[]>('/settings/');
export const saveSettings = (changes: SettingsSave) => api<Setting[]>('/settings', { method: 'PUT', body: changes });
export const sendTestEmail = (body: TestEmail) => api<{ message: string }>('/settings/test-email', { method: 'POST', body });
/** The cloud default admin's agent task (spec section 7): every agent fetches its settings and models. */
export const notifyAgentsUpdate = () => api<{ count: number }>('/agents/notify-all/UPDATE_VERSION', { method: 'POST' });
