import type { ComponentType } from 'react';
import { HomePage } from '../features/home/home-page.tsx';
import { UserPage } from '../features/users/user-page.tsx';
import { UsersPage } from '../features/users/users-page.tsx';
import { AgentsPage } from '../features/agents/agents-page.tsx';
import { AgentPage } from '../features/agents/agent-page.tsx';
import { NetworksPage } from '../features/networks/networks-page.tsx';
import { NetworkPage } from '../features/networks/network-page.tsx';
import { LogsPage } from '../features/logs/logs-page.tsx';
import { LogPage } from '../features/logs/log-page.tsx';
import { LocationsPage } from '../features/locations/locations-page.tsx';
import { LocationPage } from '../features/locations/location-page.tsx';
import { DictionariesPage } from '../features/dictionaries/dictionaries-page.tsx';
import { DictionaryPage } from '../features/dictionaries/dictionary-page.tsx';
import { DevicesPage } from '../features/devices/devices-page.tsx';
import { DevicePage } from '../features/devices/device-page.tsx';
import { ConsumablesPage } from '../features/devices/consumables-page.tsx';
import { ServicePage } from '../features/service/service-page.tsx';

/**
 * Every protected screen of spec section 2. `title` and `parent.title` are i18n keys. A
 * screen without `element` is not built yet and shows an empty page with its breadcrumb;
 * the issue that builds it sets `element` here.
 */
export interface ScreenRoute {
  path: string;
  title: string;
  /** For item pages: the list the breadcrumb starts from. */
  parent?: { title: string; to: string };
  element?: ComponentType;
}

const item = (path: string, title: string, listTitle: string, listPath: string): ScreenRoute => ({
  path,
  title,
  parent: { title: listTitle, to: listPath },
});

export const SCREEN_ROUTES: ScreenRoute[] = [
  { path: '/home', title: 'nav.home', element: HomePage },
  { path: '/agents', title: 'nav.agents', element: AgentsPage },
  { ...item('/agent/:id?', 'pages.agent', 'nav.agents', '/agents'), element: AgentPage },
  { path: '/networks', title: 'nav.networks', element: NetworksPage },
  { ...item('/network/:id?', 'pages.network', 'nav.networks', '/networks'), element: NetworkPage },
  { path: '/dictionaries', title: 'nav.dictionaries', element: DictionariesPage },
  { ...item('/dictionary/:id', 'pages.dictionary', 'nav.dictionaries', '/dictionaries'), element: DictionaryPage },
  { path: '/locations', title: 'nav.locations', element: LocationsPage },
  { ...item('/location/:id?', 'pages.location', 'nav.locations', '/locations'), element: LocationPage },
  { path: '/devices', title: 'nav.devices', element: DevicesPage },
  { ...item('/device/:id?', 'pages.device', 'nav.devices', '/devices'), element: DevicePage },
  { path: '/consumables', title: 'nav.consumables', element: ConsumablesPage },
  { path: '/queues', title: 'nav.queues' },
  item('/queue/:id?', 'pages.queue', 'nav.queues', '/queues'),
  { path: '/reports', title: 'nav.reports' },
  item('/report/:id?', 'pages.report', 'nav.reports', '/reports'),
  { path: '/users', title: 'nav.users', element: UsersPage },
  { ...item('/user/:id?', 'pages.user', 'nav.users', '/users'), element: UserPage },
  { path: '/logs', title: 'nav.logs', element: LogsPage },
  { ...item('/log/:id?', 'pages.log', 'nav.logs', '/logs'), element: LogPage },
  { path: '/notifications', title: 'nav.notifications' },
  item('/notification/:id?', 'pages.notification', 'nav.notifications', '/notifications'),
  { path: '/settings', title: 'nav.settings' },
  { path: '/service', title: 'nav.service', element: ServicePage },
  { path: '/licenses', title: 'nav.licenses' },
  item('/license/:id?', 'pages.license', 'nav.licenses', '/licenses'),
  { path: '/product', title: 'nav.product' },
];
