import { loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { buildApp } from './app.ts';
import { startBuiltinAgentFromPackage } from './modules/agents/builtin-agent.ts';
import { startMetricsServer } from './plugins/metrics.ts';

const config = loadConfig();
const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
const { app, ctx, generatedAdminPassword } = await buildApp(config, database);
let builtinAgent: { stop(): Promise<void> } | null = null;
let metricsServer: Awaited<ReturnType<typeof startMetricsServer>> | null = null;

if (generatedAdminPassword) {
  // Printed once, at the first start; it is not stored anywhere in clear.
  app.log.warn(`First start: created user "admin" with password "${generatedAdminPassword}". Change it after signing in.`);
}

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal}: stopping`);
    await builtinAgent?.stop();
    metricsServer?.close();
    await app.close();
    await database.close();
    process.exit(0);
  });
}

await app.listen({ port: config.port, host: config.host });
app.log.info(`Pagewatch on ${database.kind === 'pglite' ? `embedded database in ${config.dataDir}` : 'PostgreSQL'}: http://localhost:${config.port}`);
if (config.metricsPort) {
  metricsServer = await startMetricsServer(ctx.metrics, config.metricsHost, config.metricsPort);
  app.log.info(`Prometheus metrics: http://${config.metricsHost}:${config.metricsPort}/metrics`);
}
if (config.builtinAgent) builtinAgent = await startBuiltinAgentFromPackage(ctx, app.log);
