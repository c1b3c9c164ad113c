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

const item = (section: Section, path: string, title: string, listTitle: string, listPath: string): ScreenRoute => ({
  path,
  section,
  title,
  parent: { title: listTitle, to: listPath },
});

export const SCREEN_ROUTES: ScreenRoute[] = [
  { path: '/home', section: 'home', title: 'nav.home', element: HomePage },
  { path: '/agents', section: 'agents', title: 'nav.agents', element: AgentsPage },
  { ...item('agents', '/agent/:id?', 'pages.agent', 'nav.agents', '/agents'), element: AgentPage },
  { path: '/networks', section: 'networks', title: 'nav.networks', element: NetworksPage },
  { ...item('networks', '/network/:id?', 'pages.network', 'nav.networks', '/networks'), element: NetworkPage },
  { path: '/dictionaries', section: 'dictionaries', title: 'nav.dictionaries', element: DictionariesPage },
  { ...item('dictionaries', '/dictionary/:id', 'pages.dictionary', 'nav.dictionaries', '/dictionaries'), element: DictionaryPage },
  { path: '/locations', section: 'locations', title: 'nav.locations', element: LocationsPage },
  { ...item('locations', '/location/:id?', 'pages.location', 'nav.locations', '/locations'), element: LocationPage },
  { path: '/devices', section: 'devices', title: 'nav.devices', element: DevicesPage },
  { ...item('devices', '/device/:id?', 'pages.device', 'nav.devices', '/devices'), element: DevicePage },
  { path: '/consumables', section: 'consumables', title: 'nav.consumables', element: ConsumablesPage },
  { path: '/queues', section: 'queues', title: 'nav.queues', element: QueuesPage },
  { ...item('queues', '/queue/:id?', 'pages.queue', 'nav.queues', '/queues'), element: QueuePage },
  { path: '/reports', section: 'reports', title: 'nav.reports', element: ReportsPage },
  { ...item('reports', '/report/:id?', 'pages.report', 'nav.reports', '/reports'), element: ReportPage },
  { path: '/users', section: 'users', title: 'nav.users', element: UsersPage },
  { ...item('users', '/user/:id?', 'pages.user', 'nav.users', '/users'), element: UserPage },
  { path: '/logs', section: 'logs', title: 'nav.logs', element: LogsPage },
  { ...item('logs', '/log/:id?', 'pages.log', 'nav.logs', '/logs'), element: LogPage },
  { path: '/notifications', section: 'notifications', title: 'nav.notifications', element: NotificationsPage },
  { ...item('notifications', '/notification/:id?', 'pages.notification', 'nav.notifications', '/notifications'), element: NotificationPage },
  { path: '/settings', section: 'settings', title: 'nav.settings', element: SettingsPage },
  { path: '/service', section: 'service', title: 'nav.service', element: ServicePage },
  { path: '/licenses', section: 'licenses', title: 'nav.licenses', element: LicensesPage },
  { ...item('licenses', '/license/:id?', 'pages.license', 'nav.licenses', '/licenses'), element: LicensePage },
  { path: '/product', section: 'product', title: 'nav.product', element: ProductPage },
  // Opened from the user's menu in the header, not the side menu (issue 42).
  { path: '/api-tokens', section: 'apiTokens', title: 'nav.apiTokens', element: ApiTokensPage },
];

/**
 * Asks for the chunk of the screen at `pathname`, if any: a visit's first screen then loads
 * while the start checks the session (and before it is known whether the visitor may see it:
 * the code is no secret, its data is the server's to refuse).
 */
export function preloadScreen(pathname: string): void {
  SCREEN_ROUTES.find((r) => matchPath(r.path, pathname))?.element?.preload();
}
