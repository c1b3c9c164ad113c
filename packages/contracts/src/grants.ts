// No zod here: the console's start (the shell's menu and guards) reads grants before any form.

/** Components a grant names (spec section 6). */
export const COMPONENTS = [
  'MNU_DEVICES',
  /** The what-to-order list and supply orders (issue 45): READ sees them, EDIT orders, ships and cancels. */
  'MNU_CONSUMABLES',
  /** Contracts and billing runs (issue 54): READ sees them and their files, EDIT makes contracts, runs, reviews and closes runs. */
  'MNU_BILLING',
  'MNU_AGENTS',
  'MNU_NETWORK_RANGES',
  'MNU_QUEUES',
  'MNU_DICTIONARIES',
  'MNU_REPORTS',
  'MNU_NOTIFICATIONS',
  'MNU_LICENSE',
  'MNU_USERS',
  'MNU_LOG_EVENTS',
  'MNU_SETTINGS',
  /** Identity providers (issue 55): READ sees them, EDIT adds and changes them, within the caller's locations. */
  'MNU_IDENTITY_PROVIDERS',
  'MNU_SERVICE',
  'MNU_VERSIONS',
  'BTN_CLEAR_FILTER',
  'BTN_EDIT_DEVICE',
  'BTN_LICENSE_UPDATE',
  'PAGE_LOCATION',
  'BTN_DEVICE_ACTIVITY',
  /** The device's own web page through its agent (issue 55): EXECUTE opens a session from the card. */
  'BTN_DEVICE_WEB',
] as const;
export type Component = (typeof COMPONENTS)[number];

export const OPERATIONS = ['READ', 'EDIT', 'EXECUTE'] as const;
export type Operation = (typeof OPERATIONS)[number];

/** A grant written as `COMPONENT.OPERATION`, e.g. `MNU_USERS.EDIT`. */
export type Grant = `${Component}.${Operation}`;

/** A grant as the API writes it (users.ts has its schema). */
export type ResolvedGrant = { component: Component; operation: Operation };

const every: Grant[] = COMPONENTS.flatMap((c) => OPERATIONS.map((o) => `${c}.${o}` as Grant));

export const ROLE_CODES = ['ADMIN', 'DEVELOPER', 'OPERATOR'] as const;
export type RoleCode = (typeof ROLE_CODES)[number];

/** The roles created on first start, with their grants. */
export const DEFAULT_ROLES: Record<RoleCode, { name: string; grants: Grant[] }> = {
  ADMIN: { name: 'Administrator', grants: every },
  DEVELOPER: { name: 'Developer', grants: every },
  OPERATOR: {
    name: 'Operator',
    grants: [
      'MNU_DEVICES.READ',
      'MNU_CONSUMABLES.READ',
      'MNU_BILLING.READ',
      'MNU_REPORTS.READ',
      'MNU_LOG_EVENTS.READ',
      'MNU_NOTIFICATIONS.READ',
      'MNU_NOTIFICATIONS.EDIT',
      'MNU_VERSIONS.READ',
      'BTN_CLEAR_FILTER.EXECUTE',
    ],
  },
};

export function hasGrant(grants: readonly ResolvedGrant[] | undefined, grant: Grant): boolean {
  if (!grants) return false;
  const [component, operation] = grant.split('.');
  return grants.some((g) => g.component === component && g.operation === operation);
}
