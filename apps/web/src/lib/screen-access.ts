import type { Grant } from '@pagewatch/contracts/grants';
import { DEFAULT_LOCATION_CODE } from '@pagewatch/contracts/location-codes';
import type { AuthValue } from './auth-context.tsx';

/** What a rule reads: the grants and roles, and (cloud mode) the config and the user's locations. */
export type AccessCheck = Pick<AuthValue, 'hasGrant' | 'hasRole'> & Partial<Pick<AuthValue, 'config' | 'user'>>;
type Rule = (auth: AccessCheck) => boolean;

const always: Rule = () => true;
const withGrant =
  (grant: Grant): Rule =>
  (auth) =>
    auth.hasGrant(grant);

/** Cloud mode keeps a section for the users of the DEFAULT location (the dealer's own). */
const atDefaultInCloud =
  (rule: Rule): Rule =>
  (auth) =>
    rule(auth) && (!auth.config?.CLOUD || !!auth.user?.locations.some((l) => l.code === DEFAULT_LOCATION_CODE));

/**
 * Which grant opens which section of the console (spec section 6), in one place: the menu shows
 * an entry and the router opens the section's screens (list and item pages) by the same rule.
 * Home, locations and product are for everyone; licenses also need role ADMIN or DEVELOPER.
 * In cloud mode queues and settings are only for users of the default location.
 */
export const SECTION_ACCESS = {
  home: always,
  devices: withGrant('MNU_DEVICES.READ'),
  consumables: withGrant('MNU_DEVICES.READ'),
  supplyOrders: withGrant('MNU_CONSUMABLES.READ'),
  contracts: withGrant('MNU_BILLING.READ'),
  reports: withGrant('MNU_REPORTS.READ'),
  logs: withGrant('MNU_LOG_EVENTS.READ'),
  notifications: withGrant('MNU_NOTIFICATIONS.READ'),
  locations: always,
  agents: withGrant('MNU_AGENTS.READ'),
  networks: withGrant('MNU_NETWORK_RANGES.READ'),
  queues: atDefaultInCloud(withGrant('MNU_QUEUES.READ')),
  dictionaries: withGrant('MNU_DICTIONARIES.READ'),
  users: withGrant('MNU_USERS.READ'),
  licenses: (auth) => auth.hasGrant('MNU_LICENSE.READ') && auth.hasRole('ADMIN', 'DEVELOPER'),
  settings: atDefaultInCloud(withGrant('MNU_SETTINGS.READ')),
  /** Directories and OpenID providers (issue 55); in cloud mode each customer's own. */
  identityProviders: withGrant('MNU_IDENTITY_PROVIDERS.READ'),
  service: withGrant('MNU_SERVICE.READ'),
  product: always,
  /** Everyone's own API tokens (issue 42). */
  apiTokens: always,
} satisfies Record<string, Rule>;

export type Section = keyof typeof SECTION_ACCESS;

export function canOpen(section: Section, auth: AccessCheck): boolean {
  return SECTION_ACCESS[section](auth);
}
