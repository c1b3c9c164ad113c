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
  IconUserShield,
  IconShoppingCart,
  IconFileInvoice,
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
  /** The route of its item pages (`/queue` for `/queue/<id>`): highlighted with the entry; the list's rows open there. */
  item?: string;
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
  { key: 'devices', to: '/devices', item: '/device', label: 'nav.devices', icon: IconPrinter },
  { key: 'consumables', to: '/consumables', label: 'nav.consumables', icon: IconDroplet },
  { key: 'supplyOrders', to: '/supply-orders', label: 'nav.supplyOrders', icon: IconShoppingCart },
  { key: 'contracts', to: '/contracts', label: 'nav.contracts', icon: IconFileInvoice },
  { key: 'reports', to: '/reports', item: '/report', label: 'nav.reports', icon: IconReportAnalytics },
  { key: 'logs', to: '/logs', item: '/log', label: 'nav.logs', icon: IconListDetails },
  { key: 'notifications', to: '/notifications', item: '/notification', label: 'nav.notifications', icon: IconBell },
  { key: 'locations', to: '/locations', item: '/location', label: 'nav.locations', icon: IconMapPin },
  { key: 'agents', to: '/agents', item: '/agent', label: 'nav.agents', icon: IconServer2 },
  { key: 'networks', to: '/networks', item: '/network', label: 'nav.networks', icon: IconNetwork },
  { key: 'queues', to: '/queues', item: '/queue', label: 'nav.queues', icon: IconStack2 },
  { key: 'dictionaries', to: '/dictionaries', item: '/dictionary', label: 'nav.dictionaries', icon: IconBook2 },
  { key: 'users', to: '/users', item: '/user', label: 'nav.users', icon: IconUsers },
  { key: 'licenses', to: '/licenses', item: '/license', label: 'nav.licenses', icon: IconLicense },
  { key: 'settings', to: '/settings', label: 'nav.settings', icon: IconSettings },
  { key: 'identityProviders', to: '/identity-providers', label: 'nav.identityProviders', icon: IconUserShield },
  { key: 'service', to: '/service', label: 'nav.service', icon: IconTool },
  { key: 'product', to: '/product', label: 'nav.product', icon: IconInfoCircle },
];

/** Whether `pathname` is the entry's list or one of its item pages. */
export function isMenuItemActive(item: MenuItem, pathname: string): boolean {
  return [item.to, item.item].some((p) => p !== undefined && (pathname === p || pathname.startsWith(`${p}/`)));
}

/** The menu entry of a section (a list screen's title and item route). */
export function menuItem(key: Section): MenuItem {
  const item = MENU_ITEMS.find((i) => i.key === key);
  if (!item) throw new Error(`no menu entry for section ${key}`);
  return item;
}
