// No zod here: the console's start (the footer's license link) reads the statuses.
import { statusDefs } from './status-defs.ts';

export const LICENSE_STATUSES = ['OK', 'WARNING', 'ERROR'] as const;
export type LicenseStatus = (typeof LICENSE_STATUSES)[number];

/** Each status once: its label key and its colour (house style, rule 5). */
export const LICENSE_STATUS_DEFS = statusDefs<LicenseStatus>('licenses.status', { OK: 'teal', WARNING: 'orange', ERROR: 'red' });
