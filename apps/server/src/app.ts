import { DownloadsService } from './modules/options/downloads.service.ts';
import { AgentReleaseSource } from './modules/agents/index.ts';
import Fastify, { type FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { trustedProxies, type Config } from './config.ts';
import type { Database } from './db/client.ts';
import { seed } from './seed.ts';
import type { AppContext } from './app-context.ts';
import { setupErrors } from './plugins/errors.ts';
import { setupAccess } from './plugins/access.ts';
import { SessionCache } from './plugins/session-cache.ts';
import { bridgeHubOverPostgres, Hub, realtimeRoutes, registerWebsocket, type SessionNotice } from './plugins/realtime.ts';
import { setupOpenApi } from './plugins/openapi.ts';
import { setupStatic } from './plugins/static.ts';
import { loggerOptions } from './plugins/logging.ts';
import { Metrics, setupMetrics } from './plugins/metrics.ts';
import { healthRoutes } from './plugins/health.ts';
import { setupSecurityHeaders } from './plugins/security-headers.ts';
import { EventLog } from './modules/event-logs/event-logs.service.ts';
import { AuthService } from './modules/auth/auth.service.ts';
import { UsersService } from './modules/users/users.service.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { ApiTokensService } from './modules/api-tokens/api-tokens.service.ts';
import { apiTokensRoutes } from './modules/api-tokens/api-tokens.routes.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { settingsRoutes } from './modules/settings/settings.routes.ts';
import { SettingsService } from './modules/settings/settings.service.ts';
import { locationsRoutes } from './modules/locations/locations.routes.ts';
import { optionsRoutes } from './modules/options/options.routes.ts';
import { IngestService } from './modules/ingest/ingest.service.ts';
import { ModelsService } from './modules/models/models.service.ts';
import { AgentsService } from './modules/agents/agents.service.ts';
import { NetworkRangesService } from './modules/network-ranges/network-ranges.service.ts';
import { agentsRoutes } from './modules/agents/agents.routes.ts';
import { agentApiRoutes } from './modules/agents/agent-api.routes.ts';
import { checkAgentApiVersion } from './modules/agents/agent-api-version.ts';
import { ingestRoutes } from './modules/ingest/ingest.routes.ts';
import { networkRangesRoutes } from './modules/network-ranges/network-ranges.routes.ts';
import { QueuesService } from './modules/queues/queues.service.ts';
import { QueueJobsIngest } from './modules/queues/queue-jobs.service.ts';
import { queuesRoutes } from './modules/queues/queues.routes.ts';
import { notificationsRoutes } from './modules/notifications/notifications.routes.ts';
import { reportsRoutes } from './modules/reports/reports.routes.ts';
import { ReportsService } from './modules/reports/reports.service.ts';
import { ExportGate } from './lib/export-gate.ts';
import { DomainEvents } from './lib/domain-events.ts';
import { NotificationsService } from './modules/notifications/notifications.service.ts';
import { NotificationDispatcher } from './modules/notifications/dispatcher.ts';
import { NotificationSender } from './modules/notifications/sender.ts';
import { NotificationWorker } from './modules/notifications/notification-worker.ts';
import { ChannelDelivery } from './modules/notifications/channel-delivery.ts';
import { ChannelsService } from './modules/notifications/channels.service.ts';
import { channelsRoutes } from './modules/notifications/channels.routes.ts';
import { identityProvidersRoutes } from './modules/identity-providers/identity-providers.routes.ts';
import { IdentityProvidersService } from './modules/identity-providers/identity-providers.service.ts';
import { SsoService } from './modules/identity-providers/sso.service.ts';
import { enabledChannels, enqueueChannelMessage } from './modules/notifications/index.ts';
import { smtpSettings } from './modules/settings/index.ts';
import { modelsRoutes } from './modules/models/models.routes.ts';
import { LocationsService } from './modules/locations/locations.service.ts';
import { DictionariesService } from './modules/dictionaries/dictionaries.service.ts';
import { DictionaryEvents } from './modules/dictionaries/dictionary-events.ts';
import { dictionariesRoutes } from './modules/dictionaries/dictionaries.routes.ts';
import { eventLogsRoutes } from './modules/event-logs/event-logs.routes.ts';
import { DevicesService } from './modules/devices/devices.service.ts';
import { devicesRoutes } from './modules/devices/devices.routes.ts';
import { meterCorrectionsRoutes } from './modules/devices/meter-corrections.routes.ts';
import { MeterCorrectionsService } from './modules/devices/meter-corrections.service.ts';
import { ConsumablesService } from './modules/consumables/consumables.service.ts';
import { consumablesRoutes } from './modules/consumables/consumables.routes.ts';
import { SupplyOrdersService } from './modules/supply-orders/supply-orders.service.ts';
import { supplyOrdersRoutes } from './modules/supply-orders/supply-orders.routes.ts';
import { BillingRunsService, ContractsService } from './modules/contracts/index.ts';
import { contractsRoutes } from './modules/contracts/contracts.routes.ts';
import { MaintenanceService } from './modules/maintenance/maintenance.service.ts';
import { serviceRoutes } from './modules/maintenance/maintenance.routes.ts';
import { homeRoutes } from './modules/home/home.routes.ts';
import { HomeService } from './modules/home/home.service.ts';
import { alertsRoutes } from './modules/alerts/alerts.routes.ts';
import { AlertsService } from './modules/alerts/alerts.service.ts';
import { LicensesService } from './modules/licenses/licenses.service.ts';
import { licensesRoutes } from './modules/licenses/licenses.routes.ts';
import { deviceWebHooks, deviceWebRoutes } from './modules/device-web/device-web.routes.ts';
import { DeviceWebService } from './modules/device-web/device-web.service.ts';
import { DeviceWebBroker } from './modules/device-web/device-web.broker.ts';
import { JobRunner } from './jobs/job-runner.ts';
import { JOBS } from './jobs/jobs.ts';
import { SecretBox } from './lib/secret-box.ts';
import { loadSecretKey } from './lib/secret-key.ts';
import { sealedKeyIds, sealStoredSecrets } from './modules/secrets/secrets.service.ts';

/**
 * Session notices (from auth, which hears the services that change users and locations, and
 * from other instances over NOTIFY) evict the cached callers they affect.
 */
function forgetChangedSessions(hub: Hub, sessions: SessionCache) {
  hub.onNotice((n) => {
    if (n.kind === 'token') sessions.forgetToken(n.tokenHash);
    else if (n.kind === 'user') sessions.forgetUser(n.userId);
    else sessions.clear();
  });
}

export type BuiltApp = { app: FastifyInstance; ctx: AppContext; generatedAdminPassword: string | null };

/** The whole server on a given database; tests `inject` into it, main.ts listens. */
export async function buildApp(config: Config, database: Database, opts: { logger?: boolean; logStream?: { write(line: string): void } } = {},
): Promise<BuiltApp> {
  const app = Fastify({
    // Tests read the log through a stream of their own.
    logger: opts.logger === false && !opts.logStream ? false : loggerOptions(config.logLevel, opts.logStream),
    trustProxy: trustedProxies(config.trustProxy),
    bodyLimit: 10 * 1024 * 1024,
    // Open WebSockets and keep-alive sockets must not hold up a shutdown.
    forceCloseConnections: true,
    routerOptions: { ignoreTrailingSlash: false },
  });
  database.setLog(app.log);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  // Before anything reads a secret: a wrong key stops the start here, and plain values are sealed.
  const secretKey = loadSecretKey({ key: config.secretKey, file: config.secretKeyFile }, { create: true, sealedWith: await sealedKeyIds(database.db) });
  const secrets = new SecretBox(secretKey.key);
  const { sealed } = await sealStoredSecrets(database.db, secrets);
  if (secretKey.created) app.log.warn({ file: secretKey.file }, 'secret key file created: keep a copy apart from the database backups, without it the stored secrets are lost');
  if (sealed) app.log.info({ sealed }, 'stored secrets encrypted');
  const { generatedPassword } = await seed(database.db, config.adminPassword, config.language);
  const hub = new Hub();
  const eventLog = new EventLog(database.db, hub);
  await eventLog.init();
  const smtp = () => smtpSettings(database.db, secrets);
  // Users and locations announce their changes here; auth turns them into session notices.
  const changes = new DomainEvents();
  const notify = (n: SessionNotice) => hub.notify(n);
  const auth = new AuthService(database.db, eventLog, { publicUrl: config.publicUrl, notify, smtp, events: changes, cloud: config.cloud });
  const apiTokens = new ApiTokensService(database.db, eventLog, notify);
  const metrics = new Metrics(database.poolStats, database.db);
  const jobs = new JobRunner(database.db, eventLog, JOBS, app.log, (job, ok, seconds) => metrics.jobFinished(job, ok, seconds));
  await jobs.init();
  const dictionaryEvents = new DictionaryEvents(eventLog, hub);
  const locations = new LocationsService(database.db, dictionaryEvents, changes);
  const ingest = new IngestService(database.db, hub, (result) => metrics.ingested(result));
  const models = new ModelsService(database.db, eventLog, config.modelsSecret);
  await models.seed();
  const devices = new DevicesService(database.db, eventLog, hub);
  const agents = new AgentsService(database.db, eventLog, ingest, models, devices, secrets, {
    onSpoolDepth: (id, depth) => metrics.spoolDepth.set({ agent: String(id) }, depth),
    logger: app.log,
    release: new AgentReleaseSource(config.downloadsDir),
  });
  const deviceWebBroker = new DeviceWebBroker();
  const sessions = new SessionCache(config.sessionCacheMs);
  const resolveSession = (hash: string) => sessions.resolve(hash, (h) => auth.resolveSession(h));
  const licenses = new LicensesService(database.db, eventLog, config.licenseIssuerKey);
  await licenses.init();
  // One bound for the files users download and the reports the schedules e-mail (issue 39).
  const exportGate = new ExportGate(config.exports.running, config.exports.waiting);
  const dispatcher = new NotificationDispatcher(database.db, eventLog, config.publicUrl, exportGate, config.language);
  const channelDelivery = new ChannelDelivery(database.db, secrets, { telegramApi: config.telegramApiUrl ?? undefined });
  const sender = new NotificationSender(database.db, eventLog, smtp, {
    kind: database.kind,
    logger: app.log,
    channels: channelDelivery,
    onSent: (channel) => metrics.notificationsSent.inc({ channel }),
    onFailure: (channel) => metrics.notificationSendFailures.inc({ channel }),
  });
  const notificationWorker = new NotificationWorker(dispatcher, sender, app.log);
  const contracts = new ContractsService(database.db, eventLog);
  const ctx: AppContext = {
    config,
    db: database.db,
    secrets,
    dbKind: database.kind,
    hub,
    eventLog,
    auth,
    apiTokens,
    users: new UsersService(database.db, eventLog, changes, { cloud: config.cloud }),
    settings: new SettingsService(database.db, eventLog, { cloud: config.cloud, secrets, smtp }),
    jobs,
    agents,
    networkRanges: new NetworkRangesService(database.db, eventLog, secrets),
    queues: new QueuesService(database.db, eventLog, { cloud: config.cloud, secrets }),
    queueJobs: new QueueJobsIngest(database.db, eventLog),
    ingest,
    models,
    locations,
    dictionaries: new DictionariesService(database.db, dictionaryEvents, locations),
    devices,
    meterCorrections: new MeterCorrectionsService(database.db, eventLog),
    consumables: new ConsumablesService(database.db),
    supplyOrders: new SupplyOrdersService(database.db, eventLog, { enabled: enabledChannels, enqueue: enqueueChannelMessage }),
    contracts,
    billingRuns: new BillingRunsService(database.db, eventLog, contracts, { enabled: enabledChannels, enqueue: enqueueChannelMessage }),
    maintenance: new MaintenanceService(database.db, devices),
    notifications: new NotificationsService(database.db, eventLog, { publicUrl: config.publicUrl, smtp, language: config.language }),
    notifier: { dispatcher, sender, worker: notificationWorker },
    channels: new ChannelsService(database.db, eventLog, { secrets, delivery: channelDelivery }),
    reports: new ReportsService(database.db, database.kind, exportGate),
    exports: exportGate,
    home: new HomeService(database.db, hub),
    alerts: new AlertsService(database.db),
    licenses,
    downloads: new DownloadsService({ dir: config.downloadsDir }),
    identityProviders: new IdentityProvidersService(database.db, eventLog, { secrets, publicUrl: config.publicUrl, cloud: config.cloud }),
    sso: new SsoService(database.db, eventLog, { auth, secrets, events: changes, cloud: config.cloud, publicUrl: config.publicUrl }),
    deviceWeb: new DeviceWebService(database.db, eventLog, deviceWebBroker, resolveSession, config.deviceWebOrigin),
    deviceWebBroker,
    metrics,
  };

  jobs.deps.directories = ctx.sso;
  await setupSecurityHeaders(app);
  setupMetrics(app, metrics);
  setupErrors(app, (err, req) => eventLog.serverError(err, req.method, req.url, req.caller?.userId ?? null));
  // Scheduled jobs run in a listening server only (tests that inject trigger them with runNow).
  app.addHook('onListen', async () => jobs.start());
  app.addHook('onClose', async () => jobs.stop());
  // Notifications likewise: a listening server dispatches and sends; tests drive them directly.
  app.addHook('onListen', async () => notificationWorker.start());
  // Before the other closing steps, so that a stop gives back its outbox claims within 5 s (issue 42).
  app.addHook('preClose', async () => notificationWorker.stop());
  app.addHook('onClose', async () => auth.drain());
  if (database.url) {
    const stopBridge = await bridgeHubOverPostgres(hub, database.url, (err) => app.log.warn({ err }, 'live events bridge'));
    app.addHook('onClose', stopBridge);
  }
  deviceWebHooks(app, deviceWebBroker, config.deviceWebOrigin);
  await registerWebsocket(app);
  forgetChangedSessions(hub, sessions);
  // API tokens share the cache: a revoked token and a changed user are evicted the same way.
  const resolveApiToken = (hash: string) => sessions.resolve(hash, (h) => apiTokens.resolve(h));
  setupAccess(app, resolveSession, (hash) => agents.resolveToken(hash), { resolve: resolveApiToken, used: (id) => apiTokens.used(id) });
  checkAgentApiVersion(app, agents);
  await app.register(multipart, { limits: { fileSize: 10 * 1024 * 1024, files: 1, fields: 20 } });
  await setupOpenApi(app);
  realtimeRoutes(app, hub, resolveSession);

  await registerRoutes(app, ctx);

  await app.ready();
  return { app, ctx, generatedAdminPassword: generatedPassword };
}

/** Every module's routes, then the console's files (the catch-all, last). */
async function registerRoutes(app: FastifyInstance, ctx: AppContext) {
  await healthRoutes(app, ctx.db);
  await optionsRoutes(app, ctx);
  await authRoutes(app, ctx.auth);
  await usersRoutes(app, ctx.users);
  await apiTokensRoutes(app, ctx.apiTokens);
  await settingsRoutes(app, ctx.settings);
  await locationsRoutes(app, ctx.locations);
  await agentsRoutes(app, ctx.agents);
  await agentApiRoutes(app, ctx);
  await ingestRoutes(app, ctx);
  await networkRangesRoutes(app, ctx.networkRanges);
  await queuesRoutes(app, ctx);
  await modelsRoutes(app, ctx);
  await dictionariesRoutes(app, ctx.dictionaries);
  await eventLogsRoutes(app, ctx.eventLog);
  await devicesRoutes(app, ctx.devices);
  await meterCorrectionsRoutes(app, ctx.meterCorrections);
  await consumablesRoutes(app, ctx.consumables);
  await supplyOrdersRoutes(app, ctx.supplyOrders);
  await contractsRoutes(app, ctx);
  await notificationsRoutes(app, ctx.notifications);
  await channelsRoutes(app, ctx.channels);
  await identityProvidersRoutes(app, ctx);
  await reportsRoutes(app, ctx.reports);
  await serviceRoutes(app, ctx.maintenance);
  await homeRoutes(app, ctx.home);
  await alertsRoutes(app, ctx.alerts);
  await licensesRoutes(app, ctx.licenses);
  await deviceWebRoutes(app, ctx);
  await setupStatic(app, ctx.config.webDist);
}
