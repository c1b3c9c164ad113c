import { readFileSync } from 'node:fs';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { buildApp } from './app.ts';
import { startBuiltinAgentFromPackage } from './modules/agents/builtin-agent.ts';
import { startMetricsServer } from './plugins/metrics.ts';
import { loggableError } from './lib/loggable-error.ts';
import { keepInitialPassword } from './lib/initial-password.ts';
import { StartRefusal } from './lib/start-refusal.ts';

const version = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/**
 * A start that fails before the server's logger exists (a bad variable, a data folder in use, a
 * database newer than this version) still writes one JSON line, as the logger would.
 */
function startFailed(err: unknown): never {
  // A refusal (a bad or wrong secret key) is the operator's to fix: its message, without a stack.
  const e = err instanceof StartRefusal ? null : loggableError(err);
  const msg = `start failed: ${e ? e.message : (err as Error).message}`;
  process.stderr.write(`${JSON.stringify({ level: 'fatal', time: Date.now(), pid: process.pid, ...(e ? { err: e } : {}), msg })}\n`);
  process.exit(1);
}

async function start() {
  const config = loadConfig();
  const database = await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
  // A refused build (a wrong secret key) frees the data folder's lock and the pool as it stops.
  const { app, ctx, generatedAdminPassword } = await buildApp(config, database).catch(async (err: unknown) => {
    await database.close().catch(() => undefined);
    throw err;
  });
  let builtinAgent: { stop(): Promise<void> } | null = null;
  let metricsServer: Awaited<ReturnType<typeof startMetricsServer>> | null = null;

  if (generatedAdminPassword) {
    // Never in the log (logs are shipped and kept): in an owner-only file of the data folder,
    // which the administrator deletes after the first sign-in.
    const file = keepInitialPassword(config.dataDir, generatedAdminPassword);
    app.log.warn({ file }, `First start: created user "admin"; its password is in ${file} (readable by this user only). Sign in, change it, and delete the file.`);
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
      app.log.info('stopped');
      process.exit(0);
    });
  }

  try {
    const address = await app.listen({ port: config.port, host: config.host });
    app.log.info(
      { version, database: database.kind, dataDir: database.kind === 'pglite' ? config.dataDir : null, address },
      `Pagewatch ${version} on ${database.kind === 'pglite' ? `the embedded database in ${config.dataDir}` : 'PostgreSQL'}: listening on ${address}`,
    );
    if (config.metricsPort) {
      metricsServer = await startMetricsServer(ctx.metrics, config.metricsHost, config.metricsPort);
      app.log.info({ address: `http://${config.metricsHost}:${config.metricsPort}/metrics` }, 'Prometheus metrics');
    }
    if (config.builtinAgent) builtinAgent = await startBuiltinAgentFromPackage(ctx, app.log);
  } catch (err) {
    // The data folder's lock and the pool are freed so that a next start finds them free.
    await app.close().catch(() => undefined);
    await database.close().catch(() => undefined);
    throw err;
  }
}

await start().catch(startFailed);
