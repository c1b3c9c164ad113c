import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import type { Hub } from './plugins/realtime.ts';
import type { SecretBox } from './lib/secret-box.ts';
import type { EventLog } from './modules/event-logs/event-logs.service.ts';
import type { AuthService } from './modules/auth/auth.service.ts';
import type { ApiTokensService } from './modules/api-tokens/api-tokens.service.ts';
import type { UsersService } from './modules/users/users.service.ts';
import type { SettingsService } from './modules/settings/settings.service.ts';
import type { JobRunner } from './jobs/job-runner.ts';
import type { AgentsService } from './modules/agents/agents.service.ts';
import type { NetworkRangesService } from './modules/network-ranges/network-ranges.service.ts';
import type { QueuesService } from './modules/queues/queues.service.ts';
import type { QueueJobsIngest } from './modules/queues/queue-jobs.service.ts';
import type { IngestService } from './modules/ingest/ingest.service.ts';
import type { ModelsService } from './modules/models/models.service.ts';
import type { LocationsService } from './modules/locations/locations.service.ts';
import type { DictionariesService } from './modules/dictionaries/dictionaries.service.ts';
import type { DevicesService } from './modules/devices/devices.service.ts';
import type { MeterCorrectionsService } from './modules/devices/meter-corrections.service.ts';
import type { ConsumablesService } from './modules/consumables/consumables.service.ts';
import type { SupplyOrdersService } from './modules/supply-orders/supply-orders.service.ts';
import type { BillingRunsService, ContractsService } from './modules/contracts/index.ts';
import type { MaintenanceService } from './modules/maintenance/maintenance.service.ts';
import type { LicensesService } from './modules/licenses/licenses.service.ts';
import type { Metrics } from './plugins/metrics.ts';
import type { NotificationsService } from './modules/notifications/notifications.service.ts';
import type { NotificationDispatcher } from './modules/notifications/dispatcher.ts';
import type { NotificationSender } from './modules/notifications/sender.ts';
import type { NotificationWorker } from './modules/notifications/notification-worker.ts';
import type { ChannelsService } from './modules/notifications/channels.service.ts';
import type { ReportsService } from './modules/reports/reports.service.ts';
import type { ExportGate } from './lib/export-gate.ts';
import type { HomeService } from './modules/home/home.service.ts';
import type { AlertsService } from './modules/alerts/alerts.service.ts';
import type { IdentityProvidersService } from './modules/identity-providers/identity-providers.service.ts';
import type { SsoService } from './modules/identity-providers/sso.service.ts';
import type { DownloadsService } from './modules/options/downloads.service.ts';
import type { DeviceWebService } from './modules/device-web/device-web.service.ts';
import type { DeviceWebBroker } from './modules/device-web/device-web.broker.ts';

/** What route modules are given: the database, the hub and the services. */
export type AppContext = {
  config: Config;
  db: Db;
  /** Seals and opens the stored secrets with the key kept outside the database (issue 43). */
  secrets: SecretBox;
  dbKind: 'pglite' | 'postgres';
  hub: Hub;
  eventLog: EventLog;
  auth: AuthService;
  /** Personal API tokens for integrations (issue 42). */
  apiTokens: ApiTokensService;
  users: UsersService;
  settings: SettingsService;
  jobs: JobRunner;
  agents: AgentsService;
  networkRanges: NetworkRangesService;
  queues: QueuesService;
  /** The agents' completed print jobs. */
  queueJobs: QueueJobsIngest;
  ingest: IngestService;
  models: ModelsService;
  locations: LocationsService;
  dictionaries: DictionariesService;
  devices: DevicesService;
  /** Meter corrections of the devices (issue 41). */
  meterCorrections: MeterCorrectionsService;
  consumables: ConsumablesService;
  /** Supplies to order and their orders (issue 45). */
  supplyOrders: SupplyOrdersService;
  /** Contracts and billing runs (issue 54). */
  contracts: ContractsService;
  billingRuns: BillingRunsService;
  maintenance: MaintenanceService;
  notifications: NotificationsService;
  /** E-mail of notifications: events to the outbox, the outbox to SMTP, both on a timer. */
  notifier: { dispatcher: NotificationDispatcher; sender: NotificationSender; worker: NotificationWorker };
  /** Notification channels besides e-mail: webhook, Slack, Teams, Telegram (issue 42). */
  channels: ChannelsService;
  reports: ReportsService;
  /** The bound on exports at once, which downloads and scheduled reports share (issue 39). */
  exports: ExportGate;
  home: HomeService;
  alerts: AlertsService;
  licenses: LicensesService;
  downloads: DownloadsService;
  /** Identity providers (issue 55), and signing in through them. */
  identityProviders: IdentityProvidersService;
  sso: SsoService;
  /** The device's own web page through its agent (issue 55), and the agents' side of it. */
  deviceWeb: DeviceWebService;
  deviceWebBroker: DeviceWebBroker;
  metrics: Metrics;
};
