import type { Config } from './config.ts';
import type { Db } from './db/client.ts';
import type { Hub } from './plugins/realtime.ts';
import type { EventLog } from './modules/event-logs/event-logs.service.ts';
import type { AuthService } from './modules/auth/auth.service.ts';
import type { UsersService } from './modules/users/users.service.ts';
import type { SettingsService } from './modules/settings/settings.service.ts';
import type { JobRunner } from './jobs/job-runner.ts';
import type { AgentsService } from './modules/agents/agents.service.ts';
import type { NetworkRangesService } from './modules/network-ranges/network-ranges.service.ts';
import type { IngestService } from './modules/ingest/ingest.service.ts';
import type { ModelsService } from './modules/models/models.service.ts';
import type { LocationsService } from './modules/locations/locations.service.ts';
import type { DictionariesService } from './modules/dictionaries/dictionaries.service.ts';
import type { DevicesService } from './modules/devices/devices.service.ts';
import type { MaintenanceService } from './modules/maintenance/maintenance.service.ts';
import type { Metrics } from './plugins/metrics.ts';

/** What route modules are given: the database, the hub and the services. */
export type AppContext = {
  config: Config;
  db: Db;
  dbKind: 'pglite' | 'postgres';
  hub: Hub;
  eventLog: EventLog;
  auth: AuthService;
  users: UsersService;
  settings: SettingsService;
  jobs: JobRunner;
  agents: AgentsService;
  networkRanges: NetworkRangesService;
  ingest: IngestService;
  models: ModelsService;
  locations: LocationsService;
  dictionaries: DictionariesService;
  devices: DevicesService;
  maintenance: MaintenanceService;
  metrics: Metrics;
};
