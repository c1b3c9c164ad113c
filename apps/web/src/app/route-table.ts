import type { ComponentType } from 'react';
import { HomePage } from '../features/home/home-page.tsx';
import { UserPage } from '../features/users/user-page.tsx';
import { UsersPage } from '../features/users/users-page.tsx';
import { AgentsPage } from '../features/agents/agents-page.tsx';
import { AgentPage } from '../features/agents/agent-page.tsx';
import { NetworksPage } from '../features/network-ranges/networks-page.tsx';
import { NetworkPage } from '../features/network-ranges/network-page.tsx';
import { QueuesPage } from '../features/queues/queues-page.tsx';
import { QueuePage } from '../features/queues/queue-page.tsx';
import { LogsPage } from '../features/event-logs/logs-page.tsx';
import { LogPage } from '../features/event-logs/log-page.tsx';
import { LocationsPage } from '../features/locations/locations-page.tsx';
import { LocationPage } from '../features/locations/location-page.tsx';
import { DictionariesPage } from '../features/dictionaries/dictionaries-page.tsx';
import { DictionaryPage } from '../features/dictionaries/dictionary-page.tsx';
import { DevicesPage } from '../features/devices/devices-page.tsx';
import { DevicePage } from '../features/devices/device-page.tsx';
import { ConsumablesPage } from '../features/consumables/consumables-page.tsx';
import { ServicePage } from '../features/maintenance/maintenance-page.tsx';
import { SettingsPage } from '../features/settings/settings-page.tsx';
import { NotificationsPage } from '../features/notifications/notifications-page.tsx';
import { NotificationPage } from '../features/notifications/notification-page.tsx';
import { ReportsPage } from '../features/reports/reports-page.tsx';
import { ReportPage } from '../features/reports/report-page.tsx';
import { LicensesPage } from '../features/licenses/licenses-page.tsx';
import { LicensePage } from '../features/licenses/license-page.tsx';
import { ProductPage } from '../features/product/product-page.tsx';
import type { Section } from '../lib/screen-access.ts';

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
  element?: ComponentType;
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
];
