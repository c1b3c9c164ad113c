import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { newestMigration, type Db } from '../db/client.ts';
import { recentlyShortOfResources } from '../db/unavailable.ts';
import { AppError } from '../lib/app-error.ts';
import { addMessages } from '../i18n/messages.ts';

addMessages({
  en: { 'health.databaseFull': 'the database ran out of disk space or memory', 'health.databaseUnreachable': 'the database cannot be reached', 'health.migrationsPending': 'database migrations are not applied' },
  ru: { 'health.databaseFull': 'у базы данных кончилось место на диске или память', 'health.databaseUnreachable': 'база данных недоступна', 'health.migrationsPending': 'миграции базы данных не применены' },
});

/** The time stamp of the newest migration this build ships (drizzle's journal). */
const journal = JSON.parse(readFileSync(new URL('../../drizzle/meta/_journal.json', import.meta.url), 'utf8')) as { entries: { when: number }[] };
const NEWEST_MIGRATION = Math.max(...journal.entries.map((e) => e.when));
/** A probe answers within this, whatever the database does. */
const PROBE_MS = 2_000;

const within = <T>(p: Promise<T>, ms: number) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timed out')), ms).unref())]);

/** Null when the database answers and has every migration of this build, else the reason's key. */
export async function notReadyReason(db: Db): Promise<string | null> {
  // A write refused for want of disk or memory a moment ago: a read would still pass.
  if (recentlyShortOfResources()) return 'health.databaseFull';
  try {
    return (await within(newestMigration(db), PROBE_MS)) >= NEWEST_MIGRATION ? null : 'health.migrationsPending';
  } catch {
    return 'health.databaseUnreachable';
  }
}

const statusSchema = z.object({ status: z.literal('ok') });

/**
 * Probes for orchestrators and load balancers, without a session: liveness (the process
 * answers; never touches the database, so a database outage does not get the server
 * restarted) and readiness (the database answers and is migrated; a 503 takes the instance
 * out of rotation).
 */
export async function healthRoutes(app: FastifyInstance, db: Db) {
  const schema = { tags: ['health'], response: { 200: statusSchema } };
  app.get('/api/health', { config: { access: 'public' }, schema, logLevel: 'warn' }, async () => ({ status: 'ok' as const }));
  app.get('/api/ready', { config: { access: 'public' }, schema, logLevel: 'warn' }, async () => {
    const reason = await notReadyReason(db);
    if (reason) throw new AppError('NOT_READY', { params: { reason: { key: reason } } });
    return { status: 'ok' as const };
  });
}
