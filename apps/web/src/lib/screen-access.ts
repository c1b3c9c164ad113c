import type { Grant } from '@pagewatch/contracts/grants';
import type { AuthValue } from './auth-context.tsx';

export type AccessCheck = Pick<AuthValue, 'hasGrant' | 'hasRole'>;
type Rule = (auth: AccessCheck) => boolean;

const always: Rule = () => true;
const withGrant =
  (grant: Grant): Rule =>
  (auth) =>
    auth.hasGrant(grant);

/**
 * Which grant opens which section of the console (spec section 6), in one place: the menu shows
 * an entry and the router opens the section's screens (list and item pages) by the same rule.
 * Home, locations and product are for everyone; licenses also need role ADMIN or DEVELOPER.
 * Cloud mode (queues and settings only at the default location) does not exist here yet.
 */
export const SECTION_ACCESS = {
  home: always,
  devices: withGrant('MNU_DEVICES.READ'),
  consumables: withGrant('MNU_DEVICES.READ'),
  reports: withGrant('MNU_REPORTS.READ'),
  logs: withGrant('MNU_LOG_EVENTS.READ'),
  notifications: withGrant('MNU_NOTIFICATIONS.READ'),
  locations: always,
  agents: withGrant('MNU_AGENTS.READ'),
  networks: withGrant('MNU_NETWORK_RANGES.READ'),
  queues: withGrant('MNU_QUEUES.READ'),
  dictionaries: withGrant('MNU_DICTIONARIES.READ'),
  users: withGrant('MNU_USERS.READ'),
  licenses: (auth) => auth.hasGrant('MNU_LICENSE.READ') && auth.hasRole('ADMIN', 'DEVELOPER'),
  settings: withGrant('MNU_SETTINGS.READ'),
  service: withGrant('MNU_SERVICE.READ'),
  product: always,
} satisfies Record<string, Rule>;

export type Section = keyof typeof SECTION_ACCESS;

export function canOpen(section: Section, auth: AccessCheck): boolean {
  return SECTION_ACCESS[section](auth);
}
