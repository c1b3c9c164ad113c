import { matchPath } from 'react-router';
import type { Section } from '../lib/screen-access.ts';
import { lazyScreen, type LazyScreen } from '../components/layout/lazy-screen.tsx';

// Each screen is a chunk of its own, loaded when first opened (issue 22: the shell starts light).
const HomePage = lazyScreen(() => import('../features/home/home-page.tsx'), 'HomePage');
const UserPage = lazyScreen(() => import('../features/users/user-page.tsx'), 'UserPage');
const UsersPage = lazyScreen(() => import('../features/users/users-page.tsx'), 'UsersPage');
const AgentsPage = lazyScreen(() => import('../features/agents/agents-page.tsx'), 'AgentsPage');
const AgentPage = lazyScreen(() => import('../features/agents/agent-page.tsx'), 'AgentPage');
const NetworksPage = lazyScreen(() => import('../features/network-ranges/networks-page.tsx'), 'NetworksPage');
const NetworkPage = lazyScreen(() => import('../features/network-ranges/network-page.tsx'), 'NetworkPage');
const LogsPage = lazyScreen(() => import('../features/event-logs/logs-page.tsx'), 'LogsPage');
const LogPage = lazyScreen(() => import('../features/event-logs/log-page.tsx'), 'LogPage');
const LocationsPage = lazyScreen(() => import('../features/locations/locations-page.tsx'), 'LocationsPage');
const LocationPage = lazyScreen(() => import('../features/locations/location-page.tsx'), 'LocationPage');
const DictionariesPage = lazyScreen(() => import('../features/dictionaries/dictionaries-page.tsx'), 'DictionariesPage');
const DictionaryPage = lazyScreen(() => import('../features/dictionaries/dictionary-page.tsx'), 'DictionaryPage');
const DevicesPage = lazyScreen(() => import('../features/devices/devices-page.tsx'), 'DevicesPage');
const DevicePage = lazyScreen(() => import('../features/devices/device-page.tsx'), 'DevicePage');
const ConsumablesPage = lazyScreen(() => import('../features/consumables/consumables-page.tsx'), 'ConsumablesPage');
const SupplyOrdersPage = lazyScreen(() => import('../features/supply-orders/supply-orders-page.tsx'), 'SupplyOrdersPage');
const ContractsPage = lazyScreen(() => import('../features/contracts/contracts-page.tsx'), 'ContractsPage');
const ServicePage = lazyScreen(() => import('../features/maintenance/maintenance-page.tsx'), 'ServicePage');
const SettingsPage = lazyScreen(() => import('../features/settings/settings-page.tsx'), 'SettingsPage');
const NotificationsPage = lazyScreen(() => import('../features/notifications/notifications-page.tsx'), 'NotificationsPage');
const NotificationPage = lazyScreen(() => import('../features/notifications/notification-page.tsx'), 'NotificationPage');
const ReportsPage = lazyScreen(() => import('../features/reports/reports-page.tsx'), 'ReportsPage');
const ReportPage = lazyScreen(() => import('../features/reports/report-page.tsx'), 'ReportPage');
const LicensesPage = lazyScreen(() => import('../features/licenses/licenses-page.tsx'), 'LicensesPage');
const LicensePage = lazyScreen(() => import('../features/licenses/license-page.tsx'), 'LicensePage');
const ProductPage = lazyScreen(() => import('../features/product/product-page.tsx'), 'ProductPage');
const QueuesPage = lazyScreen(() => import('../features/queues/queues-page.tsx'), 'QueuesPage');
const QueuePage = lazyScreen(() => import('../features/queues/queue-page.tsx'), 'QueuePage');
const IdentityProvidersPage = lazyScreen(() => import('../features/identity-providers/identity-providers-page.tsx'), 'IdentityProvidersPage');
const ApiTokensPage = lazyScreen(() => import('../features/api-tokens/api-tokens-page.tsx'), 'ApiTokensPage');

/**
 * Every protected screen of spec section 2. `title` and `parent.title` are i18n keys. A
 * screen without `element` is not built yet and says so under its title and breadcrumb; the
 * issue that builds it sets `element` here. `section` is whose access rule opens the screen
 * (lib/screen-access.ts, the same rule as the menu entry's).
 */
export interface ScreenRoute {
  path: string;
  section: Section;
  title: string;
  /** For item pages: the list the breadcrumb starts from. */
  parent?: { title: string; to: string };
  element?: LazyScreen;
}

/** A section's list screen: `/<section>`, titled as its menu entry. */
const list = (section: Section, element: LazyScreen): ScreenRoute => ({ path: `/${section}`, section, title: `nav.${section}`, element });

/**
 * A section's item screen, `/<name>/:id?` (`:id` where the item always exists), titled
 * `pages.<name>`; its breadcrumb starts from the section's list.
 */
const item = (section: Section, name: string, element: LazyScreen, id = ':id?'): ScreenRoute => ({
  path: `/${name}/${id}`,
  section,
  title: `pages.${name}`,
  parent: { title: `nav.${section}`, to: `/${section}` },
  element,
});

/** Each section's list screen, and its item screen where it has one: `[name, page, id?]`. */
const SECTIONS: [Section, LazyScreen, [name: string, page: LazyScreen, id?: string]?][] = [
  ['home', HomePage],
  ['agents', AgentsPage, ['agent', AgentPage]],
  ['networks', NetworksPage, ['network', NetworkPage]],
  ['dictionaries', DictionariesPage, ['dictionary', DictionaryPage, ':id']],
  ['locations', LocationsPage, ['location', LocationPage]],
  ['devices', DevicesPage, ['device', DevicePage]],
  ['consumables', ConsumablesPage],
  ['queues', QueuesPage, ['queue', QueuePage]],
  ['reports', ReportsPage, ['report', ReportPage]],
  ['users', UsersPage, ['user', UserPage]],
  ['logs', LogsPage, ['log', LogPage]],
  ['notifications', NotificationsPage, ['notification', NotificationPage]],
  ['settings', SettingsPage],
  ['service', ServicePage],
  ['licenses', LicensesPage, ['license', LicensePage]],
  ['product', ProductPage],
];

export const SCREEN_ROUTES: ScreenRoute[] = [
  ...SECTIONS.flatMap(([section, page, itemScreen]) => (itemScreen ? [list(section, page), item(section, ...itemScreen)] : [list(section, page)])),
  // Opened from the user's menu in the header, not the side menu (issue 42).
  { path: '/api-tokens', section: 'apiTokens', title: 'nav.apiTokens', element: ApiTokensPage },
  // Its own screen beside the consumables (issue 45).
  { path: '/supply-orders', section: 'supplyOrders', title: 'nav.supplyOrders', element: SupplyOrdersPage },
  { path: '/contracts', section: 'contracts', title: 'nav.contracts', element: ContractsPage },
  // Beside the settings, and for location administrators too (issue 55).
  { path: '/identity-providers', section: 'identityProviders', title: 'nav.identityProviders', element: IdentityProvidersPage },
];

/**
 * Asks for the chunk of the screen at `pathname`, if any: a visit's first screen then loads
 * while the start checks the session (and before it is known whether the visitor may see it:
 * the code is no secret, its data is the server's to refuse).
 */
export function preloadScreen(pathname: string): void {
  SCREEN_ROUTES.find((r) => matchPath(r.path, pathname))?.element?.preload();
}
