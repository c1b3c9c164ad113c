import Fastify, { type FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { seed } from './db/seed.ts';
import type { AppContext } from './app-context.ts';
import { setupErrors } from './plugins/errors.ts';
import { setupAccess } from './plugins/access.ts';
import { Hub, realtimeRoutes, registerWebsocket } from './plugins/realtime.ts';
import { setupOpenApi } from './plugins/openapi.ts';
import { setupStatic } from './plugins/static.ts';
import { EventLog } from './modules/event-logs/event-logs.service.ts';
import { AuthService } from './modules/auth/auth.service.ts';
import { UsersService } from './modules/users/users.service.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { locationsRoutes } from './modules/locations/locations.routes.ts';
import { optionsRoutes } from './modules/options/options.routes.ts';
import { eventLogsRoutes } from './modules/event-logs/event-logs.routes.ts';

export type BuiltApp = { app: FastifyInstance; ctx: AppContext; generatedAdminPassword: string | null };

/** The whole server on a given database; tests `inject` into it, main.ts listens. */
export async function buildApp(config: Config, database: Database, opts: { logger?: boolean } = {}): Promise<BuiltApp> {
  const app = Fastify({
    logger: opts.logger === false ? false : { level: config.logLevel },
    trustProxy: config.trustProxy,
    bodyLimit: 10 * 1024 * 1024,
    // Open WebSockets and keep-alive sockets must not hold up a shutdown.
    forceCloseConnections: true,
    routerOptions: { ignoreTrailingSlash: false },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const { generatedPassword } = await seed(database.db, config.adminPassword);
  const hub = new Hub();
  const eventLog = new EventLog(database.db, hub);
  await eventLog.init();
  const auth = new AuthService(database.db, eventLog);
  const ctx: AppContext = {
    config,
    db: database.db,
    dbKind: database.kind,
    hub,
    eventLog,
    auth,
    users: new UsersService(database.db, eventLog),
  };

  setupErrors(app, (err, req) => eventLog.serverError(err, req.method, req.url, req.caller?.userId ?? null));
  await registerWebsocket(app);
  setupAccess(app, (hash) => auth.resolveSession(hash), async () => null);
  await app.register(multipart, { limits: { fileSize: 10 * 1024 * 1024, files: 1, fields: 20 } });
  await setupOpenApi(app);
  realtimeRoutes(app, hub);

  await optionsRoutes(app, ctx);
  await authRoutes(app, ctx);
  await usersRoutes(app, ctx);
  await locationsRoutes(app, ctx);
  await eventLogsRoutes(app, ctx);
  await setupStatic(app, config.webDist);

  await app.ready();
  return { app, ctx, generatedAdminPassword: generatedPassword };
}
