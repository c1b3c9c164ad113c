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
  IconShoppingCart,
  IconStack2,
  IconTool,
  IconUsers,
  type Icon,
} from '@tabler/icons-react';
import type { Section } from '../../lib/screen-access.ts';

export interface MenuItem {
  /** The section it opens (its access rule), also the `data-menu` attribute tests select by. */
  key: Section;
  /** The list route the entry opens. */
  to: string;
  /** Other route prefixes that belong to the entry (its item pages), for highlighting. */
  also?: string[];
  /** i18n key of the label. */
  label: string;
  icon: Icon;
}

/**
 * The side menu, in order (spec section 6). An entry shows when its section may be opened:
 * `canOpen(item.key, auth)` from lib/screen-access.ts, the rule the route guard uses too.
 */
export const MENU_ITEMS: MenuItem[] = [
  { key: 'home', to: '/home', label: 'nav.home', icon: IconHome },
  { key: 'devices', to: '/devices', also: ['/device'], label: 'nav.devices', icon: IconPrinter },
  { key: 'consumables', to: '/consumables', label: 'nav.consumables', icon: IconDroplet },
  { key: 'supplyOrders', to: '/supply-orders', label: 'nav.supplyOrders', icon: IconShoppingCart },
  { key: 'reports', to: '/reports', also: ['/report'], label: 'nav.reports', icon: IconReportAnalytics },
  { key: 'logs', to: '/logs', also: ['/log'], label: 'nav.logs', icon: IconListDetails },
  { key: 'notifications', to: '/notifications', also: ['/notification'], label: 'nav.notifications', icon: IconBell },
  { key: 'locations', to: '/locations', also: ['/location'], label: 'nav.locations', icon: IconMapPin },
  { key: 'agents', to: '/agents', also: ['/agent'], label: 'nav.agents', icon: IconServer2 },
  { key: 'networks', to: '/networks', also: ['/network'], label: 'nav.networks', icon: IconNetwork },
  { key: 'queues', to: '/queues', also: ['/queue'], label: 'nav.queues', icon: IconStack2 },
  { key: 'dictionaries', to: '/dictionaries', also: ['/dictionary'], label: 'nav.dictionaries', icon: IconBook2 },
  { key: 'users', to: '/users', also: ['/user'], label: 'nav.users', icon: IconUsers },
  { key: 'licenses', to: '/licenses', also: ['/license'], label: 'nav.licenses', icon: IconLicense },
  { key: 'settings', to: '/settings', label: 'nav.settings', icon: IconSettings },
  { key: 'service', to: '/service', label: 'nav.service', icon: IconTool },
  { key: 'product', to: '/product', label: 'nav.product', icon: IconInfoCircle },
];

/** Whether `pathname` is the entry's list or one of its item pages. */
export function isMenuItemActive(item: MenuItem, pathname: string): boolean {
  return [item.to, ...(item.also ?? [])].some((p) => pathname === p || pathname.startsWith(`${p}/`));
}
