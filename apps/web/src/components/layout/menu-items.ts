import type { Grant } from '@pagewatch/contracts/grants';
import {
  IconBell,
  IconBook2,
  IconDroplet,
  IconHome,
  IconInfoCircle,
  IconLicense,
  IconListDetails,
  IconMapPin,
  IconNetwork,
  IconPrinter,
  IconReportAnalytics,
  IconServer2,
  IconSettings,
  IconStack2,
  IconTool,
  IconUsers,
  type Icon,
} from '@tabler/icons-react';
import type { AuthValue } from '../../lib/auth-context.tsx';

export interface MenuItem {
  /** Stable id, also the `data-menu` attribute tests select by. */
  key: string;
  /** The list route the entry opens. */
  to: string;
  /** Other route prefixes that belong to the entry (its item pages), for highlighting. */
  also?: string[];
  /** i18n key of the label. */
  label: string;
  icon: Icon;
  visible: (auth: Pick<AuthValue, 'hasGrant' | 'hasRole'>) => boolean;
}

const always = () => true;
const withGrant = (grant: Grant) => (auth: Pick<AuthValue, 'hasGrant'>) => auth.hasGrant(grant);

/**
 * The side menu, in order, with the grant each entry needs (spec section 6). Home, locations
 * and product are for everyone; the license entry also needs role ADMIN or DEVELOPER.
 * Cloud mode (queues and settings only at the default location) does not exist here yet.
 */
export const MENU_ITEMS: MenuItem[] = [
  { key: 'home', to: '/home', label: 'nav.home', icon: IconHome, visible: always },
  { key: 'devices', to: '/devices', also: ['/device'], label: 'nav.devices', icon: IconPrinter, visible: withGrant('MNU_DEVICES.READ') },
  { key: 'consumables', to: '/consumables', label: 'nav.consumables', icon: IconDroplet, visible: withGrant('MNU_DEVICES.READ') },
  { key: 'reports', to: '/reports', also: ['/report'], label: 'nav.reports', icon: IconReportAnalytics, visible: withGrant('MNU_REPORTS.READ') },
  { key: 'logs', to: '/logs', also: ['/log'], label: 'nav.logs', icon: IconListDetails, visible: withGrant('MNU_LOG_EVENTS.READ') },
  { key: 'notifications', to: '/notifications', also: ['/notification'], label: 'nav.notifications', icon: IconBell, visible: withGrant('MNU_NOTIFICATIONS.READ') },
  { key: 'locations', to: '/locations', also: ['/location'], label: 'nav.locations', icon: IconMapPin, visible: always },
  { key: 'agents', to: '/agents', also: ['/agent'], label: 'nav.agents', icon: IconServer2, visible: withGrant('MNU_AGENTS.READ') },
  { key: 'networks', to: '/networks', also: ['/network'], label: 'nav.networks', icon: IconNetwork, visible: withGrant('MNU_NETWORK_RANGES.READ') },
  { key: 'queues', to: '/queues', also: ['/queue'], label: 'nav.queues', icon: IconStack2, visible: withGrant('MNU_QUEUES.READ') },
  { key: 'dictionaries', to: '/dictionaries', also: ['/dictionary'], label: 'nav.dictionaries', icon: IconBook2, visible: withGrant('MNU_DICTIONARIES.READ') },
  { key: 'users', to: '/users', also: ['/user'], label: 'nav.users', icon: IconUsers, visible: withGrant('MNU_USERS.READ') },
  {
    key: 'licenses',
    to: '/licenses',
    also: ['/license'],
    label: 'nav.licenses',
    icon: IconLicense,
    visible: (auth) => auth.hasGrant('MNU_LICENSE.READ') && auth.hasRole('ADMIN', 'DEVELOPER'),
  },
  { key: 'settings', to: '/settings', label: 'nav.settings', icon: IconSettings, visible: withGrant('MNU_SETTINGS.READ') },
  { key: 'service', to: '/service', label: 'nav.service', icon: IconTool, visible: withGrant('MNU_SERVICE.READ') },
  { key: 'product', to: '/product', label: 'nav.product', icon: IconInfoCircle, visible: always },
];

/** Whether `pathname` is the entry's list or one of its item pages. */
export function isMenuItemActive(item: MenuItem, pathname: string): boolean {
  return [item.to, ...(item.also ?? [])].some((p) => pathname === p || pathname.startsWith(`${p}/`));
}
