// No zod here: the console's start (the footer's license link) reads the statuses.

export const LICENSE_STATUSES = ['OK', 'WARNING', 'ERROR'] as const;
export type LicenseStatus = (typeof LICENSE_STATUSES)[number];

/** Each status once: its label key and its colour (house style, rule 5). */
export const LICENSE_STATUS_DEFS: Record<LicenseStatus, { labelKey: string; color: string }> = {
  OK: { labelKey: 'licenses.status.OK', color: 'teal' },
  WARNING: { labelKey: 'licenses.status.WARNING', color: 'orange' },
  ERROR: { labelKey: 'licenses.status.ERROR', color: 'red' },
};
